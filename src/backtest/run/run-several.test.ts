import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInstrument } from '../../core/market/instrument.ts';
import { defineStrategy } from '../../strategy/define.ts';
import { place } from '../../strategy/intents/intents.ts';
import type { IntentInput } from '../../strategy/intents/intents.ts';
import { computeMetrics, startEquityOf } from '../metrics/metrics.ts';
import { formatSummary } from '../output/summary.ts';
import { runBacktest } from './run-backtest.ts';
import type { BacktestOptions, SeveralBacktestOptions } from './run-backtest.ts';
import type { BacktestBar } from '../types.ts';

const filters = [
  { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
  { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
  { filterType: 'NOTIONAL', minNotional: '10', maxNotional: '0' },
];
const instrument = (symbol: string, baseAsset: string, quoteAsset = 'PHP') =>
  parseInstrument({ symbol, status: 'TRADING', baseAsset, baseAssetPrecision: 8, quoteAsset, quoteAssetPrecision: 2, orderTypes: ['LIMIT', 'MARKET'], filters });
const btc = instrument('BTCPHP', 'BTC');
const eth = instrument('ETHPHP', 'ETH');

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
/** Flat bars (open = high = low = close) at the given minutes from T0 with the given prices. */
const bars = (prices: Record<number, string>): BacktestBar[] =>
  Object.entries(prices).map(([m, p]) => ({ openTime: T0 + Number(m) * MIN, closeTime: T0 + (Number(m) + 1) * MIN - 1, open: p, high: p, low: p, close: p, volume: '100' }));

/** Logs every bar it is given (symbol@minute, the clock), every fill; returns batch i on the i-th onBar call. */
function watcher(log: string[], batches: Record<number, IntentInput[]> = {}, symbols = ['BTCPHP', 'ETHPHP']) {
  return defineStrategy({
    name: 'watcher',
    params: z.object({}),
    symbols,
    state: () => ({ i: 0 }),
    onBar(ctx, bar) {
      log.push(`bar ${bar.symbol}@${(bar.openTime - T0) / MIN} now+${(ctx.now() - T0) / MIN}m`);
      return batches[ctx.state.i++];
    },
    onFill: (ctx, f) => void log.push(`fill ${f.symbol} ${f.side} ${f.qty.toFixed()}@${f.price.toFixed()} at+${(f.time - T0) / MIN}m now+${(ctx.now() - T0) / MIN}m`),
  });
}

const several = (strategy: BacktestOptions['strategy'], b: BacktestBar[], e: BacktestBar[], over: Partial<SeveralBacktestOptions> = {}): SeveralBacktestOptions => ({
  strategy,
  interval: '1m',
  symbols: [
    { symbol: 'BTCPHP', bars: b, instrument: btc },
    { symbol: 'ETHPHP', bars: e, instrument: eth },
  ],
  fees: { maker: '0', taker: '0' },
  balances: { PHP: '10000' },
  ...over,
});

describe('runBacktest with several symbols', () => {
  it('plays every symbol\'s bar of a period before the strategy sees any of them; orders fill at the next bar of their own symbol', () => {
    const log: string[] = [];
    // The first onBar (BTCPHP's bar of minute 0) buys ETHPHP: it fills at ETHPHP's next bar, minute 1's open.
    const s = watcher(log, { 0: [place({ symbol: 'ETHPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] });
    const run = runBacktest(several(s, bars({ 0: '100', 1: '101', 2: '102' }), bars({ 0: '50', 1: '51', 2: '52' })));
    expect(log).toEqual([
      'bar BTCPHP@0 now+1m',
      'bar ETHPHP@0 now+1m',
      'fill ETHPHP BUY 1@51 at+1m now+1m',
      'bar BTCPHP@1 now+2m',
      'bar ETHPHP@1 now+2m',
      'bar BTCPHP@2 now+3m',
      'bar ETHPHP@2 now+3m',
    ]);
    expect(run.symbol).toBe('BTCPHP,ETHPHP');
    expect(run.barCount).toBe(3);
    // Equity: the quote plus each base at its symbol's last close.
    expect(run.equity.map((p) => p.equity)).toEqual([10000, 10000, 10001]);
    expect(run.endBalances).toEqual({ ETH: '1', PHP: '9949' });
    expect(run.symbols?.map((x) => [x.symbol, x.barCount, x.market.open, x.market.close, x.openTrade?.qty])).toEqual([
      ['BTCPHP', 3, '100', '102', undefined],
      ['ETHPHP', 3, '50', '52', '1'],
    ]);
  });

  it('holds an order sent in reaction to a fill of one symbol for another symbol until that one\'s next period (no earlier open)', () => {
    const log: string[] = [];
    const s = defineStrategy({
      name: 'chaser',
      params: z.object({}),
      symbols: ['BTCPHP', 'ETHPHP'],
      state: () => ({ i: 0 }),
      onBar: (ctx) => (ctx.state.i++ === 0 ? [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] : undefined),
      onFill(_ctx, f) {
        log.push(`fill ${f.symbol} ${f.side}@${f.price.toFixed()} at+${(f.time - T0) / MIN}m`);
        if (f.symbol === 'BTCPHP') return [place({ symbol: 'ETHPHP', side: 'BUY', type: 'MARKET', quantity: '1' })];
      },
    });
    runBacktest(several(s, bars({ 0: '100', 1: '101', 2: '102' }), bars({ 0: '50', 1: '51', 2: '52' })));
    // BTCPHP fills at minute 1's open; ETHPHP's bar of minute 1 opened before that fill was known: minute 2's open.
    expect(log).toEqual(['fill BTCPHP BUY@101 at+1m', 'fill ETHPHP BUY@52 at+2m']);
  });

  it('gives a symbol without a bar in a period none (gaps per symbol), and waits for its next bar to fill its orders', () => {
    const log: string[] = [];
    const s = watcher(log, { 1: [place({ symbol: 'ETHPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] });
    const run = runBacktest(several(s, bars({ 0: '100', 1: '101', 2: '102', 3: '103' }), bars({ 0: '50', 3: '53' })));
    expect(log).toEqual(['bar BTCPHP@0 now+1m', 'bar ETHPHP@0 now+1m', 'bar BTCPHP@1 now+2m', 'bar BTCPHP@2 now+3m', 'fill ETHPHP BUY 1@53 at+3m now+3m', 'bar BTCPHP@3 now+4m', 'bar ETHPHP@3 now+4m']);
    expect(run.barCount).toBe(4);
    expect(run.missingBars).toBe(2);
    expect(run.symbols?.map((x) => [x.barCount, x.missingBars])).toEqual([
      [4, 0],
      [2, 2],
    ]);
    // ETH is valued at its last close (50) while it has no bar.
    expect(run.equity.map((p) => p.equity)).toEqual([10000, 10000, 10000, 10000]);
  });

  it('keeps round trips per symbol, each carrying its symbol, and sums the account in the metrics', () => {
    const s = watcher([], {
      0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' })],
      1: [place({ symbol: 'ETHPHP', side: 'BUY', type: 'MARKET', quantity: '2' })],
      2: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '1' })],
      5: [place({ symbol: 'ETHPHP', side: 'SELL', type: 'MARKET', quantity: '3' })],
    });
    const run = runBacktest(several(s, bars({ 0: '100', 1: '110', 2: '120', 3: '130' }), bars({ 0: '50', 1: '50', 2: '40', 3: '45' }), { balances: { PHP: '10000', ETH: '1' } }));
    expect(run.trades.map((t) => [t.symbol, t.entryPrice, t.exitPrice, t.qty, t.pnl])).toEqual([
      ['BTCPHP', '110', '120', '1', '10'],
      ['ETHPHP', '50', '45', '3', '-15'],
    ]);
    const m = computeMetrics(run);
    // 10000 PHP + 1 ETH at its first open (50).
    expect(startEquityOf(run)).toBe(10050);
    expect(m.startEquity).toBe(10050);
    expect(m.endEquity).toBe(10045);
    expect(m.trades).toBe(2);
    expect(m.winRatePct).toBe(50);
    // Equal split across the two: (+30% and -10%) / 2.
    expect(m.marketReturnPct).toBeCloseTo(10, 9);
    const text = formatSummary(run, m);
    expect(text).toMatch(/Market +BTCPHP, ETHPHP 1m \(one account in PHP\)/);
    expect(text).toMatch(/Trades +2 \(2 long, 0 short\): 1 won, 1 lost; BTCPHP 1, ETHPHP 1/);
    expect(text).toContain('Buy and hold splits the start quote equally across BTCPHP, ETHPHP');
    expect(text).toMatch(/BTCPHP +4 +1 +100\.0% +\+10\.00 +\+30\.00%/);
  });

  it('runs a list of one symbol exactly as the one-symbol form', () => {
    const s = () => watcher([], { 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] }, ['BTCPHP']);
    const b = bars({ 0: '100', 1: '101', 2: '102' });
    const one = runBacktest({ strategy: s(), symbol: 'BTCPHP', interval: '1m', bars: b, instrument: btc, fees: { maker: '0', taker: '0' }, balances: { PHP: '10000' } });
    const list = runBacktest({ strategy: s(), interval: '1m', symbols: [{ symbol: 'BTCPHP', bars: b, instrument: btc }], fees: { maker: '0', taker: '0' }, balances: { PHP: '10000' } });
    expect(JSON.stringify(list)).toBe(JSON.stringify(one));
    expect(one.symbols).toBeUndefined();
  });

  it('gives a byte-identical result for the same input', () => {
    const s = () => watcher([], { 0: [place({ symbol: 'ETHPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] });
    const r = () => JSON.stringify(runBacktest(several(s(), bars({ 0: '100', 1: '101' }), bars({ 0: '50', 1: '51' }))));
    expect(r()).toBe(r());
  });

  it('refuses what it cannot run, naming the symbols', () => {
    const s = watcher([]);
    const b = bars({ 0: '100', 1: '101' });
    const usd = instrument('ETHUSDT', 'ETH', 'USDT');
    expect(() => runBacktest({ ...several(s, b, b), symbols: [{ symbol: 'BTCPHP', bars: b, instrument: btc }, { symbol: 'ETHUSDT', bars: b, instrument: usd }] })).toThrow(
      'the symbols of one run share the quote asset: BTCPHP is quoted in PHP, ETHUSDT is quoted in USDT; run ETHUSDT apart',
    );
    expect(() => runBacktest(several(watcher([], {}, ['BTCPHP']), b, b))).toThrow("strategy 'watcher' trades BTCPHP on 1m, not BTCPHP, ETHPHP 1m");
    expect(() => runBacktest(several(s, b, []))).toThrow('no bars for ETHPHP 1m');
    const shifted = b.map((x) => ({ ...x, openTime: x.openTime + 30_000, closeTime: x.closeTime + 30_000 }));
    expect(() => runBacktest(several(s, b, shifted))).toThrow(/ETHPHP's bar opening at \d+ starts inside BTCPHP's bar/);
    expect(() => runBacktest({ ...several(s, b, b), symbols: [{ symbol: 'BTCPHP', bars: b, instrument: btc }, { symbol: 'BTCPHP', bars: b, instrument: btc }] })).toThrow('BTCPHP is given twice');
  });
});
