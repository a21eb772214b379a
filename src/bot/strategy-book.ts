/**
 * Each strategy's own book for the status block and the summary (issue 21 deliverables 3 and 4):
 * from its fills alone, per symbol, the position, average entry, realised PnL and fees, counted by
 * the status module's SymbolPnl (status/symbol-pnl.ts: the backtest's FIFO round-trip book, so the
 * live status, `halyard status --journal` and the backtest count alike), and the mark price (the
 * newest trade, bar close or fill seen) that unrealised PnL is counted at. The account's positions
 * are shared by every strategy on a symbol; this is what each one did (and the position its context
 * reads: core/orders/holdings.ts).
 */
import type { Instrument } from '../core/market/instrument.ts';
import type { FillOut } from '../core/orders/types.ts';
import { SymbolPnl, sumText } from './status/symbol-pnl.ts';

type MarkSource = 'last-trade' | 'last-fill' | 'kline-close';

export interface SymbolBookView {
  readonly symbol: string;
  readonly quantity: string;
  readonly averageEntryPrice: string | null;
  readonly markPrice: string | null;
  readonly markSource: MarkSource | null;
  readonly markTime: number | null;
  readonly realisedPnl: string;
  readonly unrealisedPnl: string;
  readonly fees: string;
}

export class StrategyBook {
  private readonly symbols = new Map<string, SymbolPnl>();
  private readonly marks = new Map<string, { price: string; time: number; source: MarkSource }>();

  constructor(private readonly instrument: (symbol: string) => Instrument | undefined) {}

  private pnl(symbol: string): SymbolPnl | undefined {
    let p = this.symbols.get(symbol);
    if (p === undefined) {
      const i = this.instrument(symbol);
      if (i === undefined) return undefined;
      p = new SymbolPnl(symbol, { baseAsset: i.baseAsset, quoteAsset: i.quoteAsset, minQty: i.filter('LOT_SIZE')?.minQty.toFixed() ?? '0' });
      this.symbols.set(symbol, p);
    }
    return p;
  }

  fill(f: FillOut): void {
    this.pnl(f.symbol)?.add(f);
    this.mark(f.symbol, f.price, f.time, 'last-fill');
  }

  /** A newer market price for a symbol (a trade, a bar close or a fill). */
  mark(symbol: string, price: string, time: number, source: MarkSource): void {
    const m = this.marks.get(symbol);
    if (m === undefined || m.time <= time) this.marks.set(symbol, { price, time, source });
  }

  view(symbol: string): SymbolBookView {
    const p = this.symbols.get(symbol);
    const m = this.marks.get(symbol);
    return {
      symbol,
      quantity: p?.quantity ?? '0',
      averageEntryPrice: p?.averageEntryPrice ?? null,
      markPrice: m?.price ?? null,
      markSource: m?.source ?? null,
      markTime: m?.time ?? null,
      realisedPnl: p?.realisedSince() ?? '0',
      unrealisedPnl: p?.unrealised(m?.price ?? null) ?? '0',
      fees: p === undefined ? '0' : p.fees.toFixedDp(12),
    };
  }

  totals(symbols: readonly string[]): { realised: string; unrealised: string; fees: string } {
    const views = symbols.map((s) => this.view(s));
    return { realised: sumText(views.map((v) => v.realisedPnl)), unrealised: sumText(views.map((v) => v.unrealisedPnl)), fees: sumText(views.map((v) => v.fees)) };
  }
}
