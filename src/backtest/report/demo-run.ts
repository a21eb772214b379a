/**
 * A self-contained demo BacktestRun: seeded synthetic bars and a toy long-only SMA crossover
 * traded by hand (no backtest loop, no venue), so the report can be rendered, tested and
 * screenshotted without depending on the backtester. Numbers, not Decimal: this is a fixture,
 * nothing here reaches an order.
 */
import { generateSeries } from '../../core/synthetic/index.ts';
import type { Segment } from '../../core/synthetic/index.ts';
import type { BacktestBar, BacktestFill, BacktestRun, EquityPoint, PlotLine, RoundTrip } from '../types.ts';

export interface DemoOptions {
  bars?: number;
  seed?: number;
  intervalMs?: number;
  interval?: string;
  fast?: number;
  slow?: number;
  /** Include the two averages as the strategy's plotted lines (the run's `plots`). */
  plots?: boolean;
}

const DEFAULT_SEGMENTS = (bars: number): Segment[] => {
  if (bars < 4) return [{ regime: 'slowUp', bars: Math.max(1, bars) }];
  const q = Math.floor(bars / 4);
  const half = Math.max(1, Math.floor(q / 2));
  return [
    { regime: 'slowUp', bars: q },
    { regime: 'flat', bars: q },
    { regime: 'sharpDown', bars: half },
    { regime: 'slowUp', bars: bars - 2 * q - half },
  ];
};

export function demoBars(bars = 400, seed = 7, intervalMs = 60_000): BacktestBar[] {
  const series = generateSeries({ segments: DEFAULT_SEGMENTS(bars), seed, intervalMs, startPrice: '30000' });
  const out: BacktestBar[] = [];
  for (const c of series) out.push({ openTime: c.openTime, closeTime: c.closeTime, ...c.exact });
  return out;
}

const sma = (xs: readonly number[], end: number, n: number): number => {
  let s = 0;
  for (let i = end - n + 1; i <= end; i++) s += xs[i]!;
  return s / n;
};

/** The demo run over `bars` (default: demoBars()). Fee 0.1%: base on buys, quote on sells. */
export function demoRun(options: DemoOptions & { barsData?: BacktestBar[] } = {}): BacktestRun {
  const fast = options.fast ?? 8;
  const slow = options.slow ?? 21;
  const bars = options.barsData ?? demoBars(options.bars, options.seed, options.intervalMs);
  const closes = bars.map((b) => Number(b.close));
  const fee = 0.001;
  let cash = 10_000;
  let pos = 0;
  let entry: { time: number; price: number; qty: number; fee: number; bar: number } | undefined;
  const fills: BacktestFill[] = [];
  const trades: RoundTrip[] = [];
  const equity: EquityPoint[] = [];
  const mkFill = (bar: BacktestBar, side: 'BUY' | 'SELL', price: number, qty: number, commission: number, asset: string): BacktestFill => {
    const n = fills.length + 1;
    return {
      time: bar.closeTime,
      symbol: 'BTCUSDT',
      side,
      price: price.toFixed(2),
      qty: qty.toFixed(5),
      quoteQty: (price * qty).toFixed(8),
      commission: commission.toFixed(8),
      commissionAsset: asset,
      orderId: String(n),
      clientOrderId: `demo-${n}`,
      tradeId: String(n),
      isMaker: false,
    };
  };
  bars.forEach((bar, i) => {
    const price = closes[i]!;
    if (i >= slow) {
      const up = sma(closes, i, fast) > sma(closes, i, slow);
      const wasUp = sma(closes, i - 1, fast) > sma(closes, i - 1, slow);
      if (up && !wasUp && !entry) {
        const qty = Math.floor(((cash * 0.95) / price) * 1e5) / 1e5;
        const commission = qty * fee;
        cash -= qty * price;
        pos = qty - commission;
        fills.push(mkFill(bar, 'BUY', price, qty, commission, 'BTC'));
        entry = { time: bar.closeTime, price, qty, fee: commission * price, bar: i };
      } else if (!up && wasUp && entry) {
        const qty = Math.floor(pos * 1e5) / 1e5;
        const commission = qty * price * fee;
        cash += qty * price - commission;
        pos -= qty;
        fills.push(mkFill(bar, 'SELL', price, qty, commission, 'USDT'));
        const pnl = qty * price - commission - entry.qty * entry.price;
        trades.push({
          symbol: 'BTCUSDT',
          direction: 'LONG',
          entryTime: entry.time,
          exitTime: bar.closeTime,
          entryPrice: entry.price.toFixed(2),
          exitPrice: price.toFixed(2),
          qty: qty.toFixed(5),
          pnl: pnl.toFixed(8),
          returnRatio: pnl / (entry.qty * entry.price),
          fees: (entry.fee + commission).toFixed(8),
          barsHeld: i - entry.bar,
        });
        entry = undefined;
      }
    }
    equity.push({ time: bar.closeTime, equity: cash + pos * price, position: pos });
  });
  const first = bars[0];
  const last = bars[bars.length - 1];
  // As ctx.plot records them: at each bar's onBar (its close + 1 ms), once the slow average exists.
  const line = (name: string, n: number): PlotLine => ({ name, pane: 'price', points: bars.flatMap((b, i): [number, number][] => (i + 1 >= slow ? [[b.closeTime + 1, sma(closes, i, n)]] : [])) });
  const plots = options.plots === true ? { plots: [line(`SMA ${fast}`, fast), line(`SMA ${slow}`, slow)] } : {};
  return {
    strategy: 'demo-sma',
    params: { fast, slow },
    symbol: 'BTCUSDT',
    interval: options.interval ?? '1m',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    from: first?.openTime ?? 0,
    to: last ? last.closeTime + 1 : 0,
    barCount: bars.length,
    // Buy and hold over the same bars: the first open to the last close.
    ...(first && last ? { market: { open: first.open, close: last.close } } : {}),
    // Its orders' grid: the dust a sell leaves under it is no exposure.
    lot: { minQty: '0.00001', stepSize: '0.00001' },
    startBalances: { USDT: '10000' },
    endBalances: { USDT: cash.toFixed(8), BTC: pos.toFixed(8) },
    fees: { maker: '0.001', taker: '0.001' },
    fillModel: {},
    fills,
    trades,
    equity,
    ...plots,
    // Every order a MARKET one, filled whole: one fill each.
    orders: { FILLED: fills.length },
    denials: [],
    strategyFailures: [],
  };
}
