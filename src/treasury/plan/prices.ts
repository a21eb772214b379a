/**
 * Prices in the valuation asset from book tickers (spec 4.4 bookTicker: best bid and ask): each
 * symbol's mid links its base and quote; an asset is priced through the shortest chain of symbols
 * to the valuation asset (BTC via BTCPHP, or via BTCUSDT then USDTPHP). A symbol with an empty side
 * prices nothing (no mid). Pure.
 */
import { D, type Dec } from '../../core/money/decimal.ts';

export interface BookTop {
  symbol: string;
  bidPrice: string;
  askPrice: string;
}

export interface SymbolAssets {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
}

export function pricesFromTickers(tickers: readonly BookTop[], symbols: readonly SymbolAssets[], valuation: string): Record<string, string> {
  const bySymbol = new Map(symbols.map((s) => [s.symbol, s]));
  // Edges: asset -> [(other, price of asset in other)].
  const edges = new Map<string, { to: string; rate: Dec }[]>();
  const add = (a: string, b: string, rate: Dec) => {
    const list = edges.get(a) ?? [];
    list.push({ to: b, rate });
    edges.set(a, list);
  };
  for (const t of [...tickers].sort((x, y) => x.symbol.localeCompare(y.symbol))) {
    const s = bySymbol.get(t.symbol);
    if (s === undefined) continue;
    const bid = new D(t.bidPrice || 0);
    const ask = new D(t.askPrice || 0);
    if (!bid.gt(0) || !ask.gt(0)) continue;
    const mid = bid.plus(ask).div(2);
    add(s.baseAsset, s.quoteAsset, mid);
    add(s.quoteAsset, s.baseAsset, new D(1).div(mid));
  }
  // Breadth-first from the valuation asset: price(x) = rate(x -> y) * price(y).
  const price = new Map<string, Dec>([[valuation, new D(1)]]);
  let frontier = [valuation];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const y of frontier) {
      for (const [x, list] of edges) {
        if (price.has(x)) continue;
        const e = list.find((l) => l.to === y);
        if (e === undefined) continue;
        price.set(x, e.rate.times(price.get(y) as Dec).toSignificantDigits(20));
        next.push(x);
      }
    }
    frontier = next.sort();
  }
  return Object.fromEntries([...price].sort(([a], [b]) => a.localeCompare(b)).map(([a, p]) => [a, p.toFixed()]));
}
