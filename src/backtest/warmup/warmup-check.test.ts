import { describe, expect, it } from 'vitest';
import type { Candle } from '../../core/indicators/candle.ts';
import { generateSeries } from '../../core/synthetic/index.ts';
import type { DetailedCandle } from '../../data/resample.ts';
import { defineStrategy, place, z } from '../../strategy/index.ts';
import { testInstrument } from '../../strategy/testing/index.ts';
import type { BacktestBar } from '../types.ts';
import { checkWarmup, formatWarmupCheck, relDiff, WarmupCheckInputError } from './warmup-check.ts';
import type { BarSource, WarmupCheckOptions } from './warmup-check.ts';

/** 3000 minutes of a drifting market, as plain bars (the generator's candle is reused). */
const BARS: BacktestBar[] = [...generateSeries({ seed: 11, segments: [{ regime: 'slowUp', bars: 1500 }, { regime: 'slowDown', bars: 1500 }] })].map((c) => ({
  openTime: c.openTime,
  closeTime: c.closeTime,
  ...c.exact,
}));
const source: BarSource = (from, to) => BARS.filter((b) => (from === undefined || b.openTime >= from) && (to === undefined || b.openTime < to));
const T = (i: number): number => (BARS[i] as BacktestBar).openTime;

/** Long when the close is above the average, flat below it; plots the average. */
function trend(kind: 'ema' | 'sma', period: number, warmup: number) {
  return defineStrategy({
    name: `${kind}-trend`,
    params: z.object({}),
    symbols: ['BTCPHP'],
    intervals: ['1m'],
    warmup,
    onBar(ctx, bar) {
      const avg = ctx.bars()[kind](period).value;
      ctx.plot(kind.toUpperCase(), avg);
      if (avg === undefined) return;
      const close = Number(bar.close);
      if (ctx.position().flat && close > avg) return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: '1000' })];
      if (!ctx.position().flat && close < avg) return [place({ symbol: ctx.symbol, side: 'SELL', type: 'MARKET', quantity: ctx.instrument().capQty(ctx.position().base) })];
      return undefined;
    },
  });
}

const base = (strategy: WarmupCheckOptions['strategy']): WarmupCheckOptions => ({
  strategy,
  symbol: 'BTCPHP',
  interval: '1m',
  source,
  instrument: testInstrument(),
  fees: { maker: '0.001', taker: '0.001' },
  balances: { PHP: '100000' },
  from: T(1400),
  to: T(2600),
});

describe('checkWarmup: the recursive check', () => {
  it('flags an EMA(50) with warmup 10: the average differs with more history, and says how much history it needs', () => {
    const r = checkWarmup(base(trend('ema', 50, 10)));
    expect(r.baseHistory).toBe(9);
    expect(r.passed).toBe(false);
    const ema = r.plots.find((p) => p.name === 'EMA');
    expect(ema?.verdict).toBe('raise');
    expect(ema?.stableFrom).toBeGreaterThan(9);
    // With 9 bars before the range the EMA(50) has no value on its first bars; with 109 it is still off by more than a millionth.
    expect(ema?.runs.map((x) => x.maxRelDiff > 1e-6)).toEqual([true, true, false, false]);
    expect(ema?.runs[0]?.maxRelDiff).toBe(Infinity);
    expect(ema?.stableFrom).toBe(509);
    expect(r.orders.verdict).toBe('raise');
    const lines = formatWarmupCheck(r);
    expect(lines).toContain(`Plot 'EMA': differs until 509 bars of history (with 9 bars of history it has no value where the reference has one, or the reverse, first at 2024-01-01T23:21Z): raise warmup to at least 510.`);
    expect(lines.join('\n')).toMatch(/^Orders: differs until \d+ bars of history \(with 9 bars of history, first at .*: it sent nothing, the reference place side=BUY type=MARKET quoteOrderQty=1000 symbol=BTCPHP\): raise warmup to at least \d+\.$/m);
    expect(lines.at(-1)).toBe('Result: a check found a difference (exit code 1).');
  });

  it('passes the same EMA(50) with warmup 300', () => {
    const r = checkWarmup(base(trend('ema', 50, 300)));
    expect(r.baseHistory).toBe(299);
    expect(r.plots.map((p) => [p.name, p.verdict])).toEqual([['EMA', 'stable']]);
    expect(r.orders.verdict).toBe('stable');
    expect(r.orders.runs[0]?.intents).toBeGreaterThan(2);
    expect(r.lookahead?.prefix.same).toBe(true);
    expect(r.lookahead?.resume?.same).toBe(true);
    expect(r.passed).toBe(true);
    const text = formatWarmupCheck(r).join('\n');
    expect(text).toMatch(/^Plot 'EMA': stable with warmup 300 \(largest relative difference .*\)\.$/m);
    expect(text).toMatch(/^Orders: stable with warmup 300 \(every run sent the same \d+ intents\)\.$/m);
    expect(text).toMatch(/^Note: the strategy keeps its last 1000 bars \(history\)/m);
  });

  it('passes an SMA(10) with warmup 10 exactly: every run plots the same numbers', () => {
    const r = checkWarmup({ ...base(trend('sma', 10, 10)), startups: [50, 200] });
    expect(r.passed).toBe(true);
    expect(r.plots[0]?.runs.map((x) => x.maxRelDiff)).toEqual([0, 0, 0]);
    expect(r.startups).toEqual([0, 50, 200]);
    // Flat at a bar near the middle: the second part, run with the first as history, decides as the whole run did.
    expect(r.lookahead?.resume?.same).toBe(true);
    expect(r.lookahead?.prefix.same).toBe(true);
    expect(formatWarmupCheck(r)).toContain("Plot 'SMA': stable with warmup 10 (identical in every run).");
  });

  it('does not pass a strategy that throws: every run stops alike, which proves nothing', () => {
    const throws = defineStrategy({
      name: 'throws',
      params: z.object({}),
      symbols: ['BTCPHP'],
      intervals: ['1m'],
      warmup: 5,
      onBar(ctx) {
        if (ctx.bars().length > 20) throw new Error('boom');
      },
    });
    const r = checkWarmup({ ...base(throws), startups: [50] });
    expect(r.failures).toBeGreaterThan(0);
    expect(r.passed).toBe(false);
    expect(formatWarmupCheck(r).at(-1)).toMatch(/^Result: the strategy failed: its handlers threw \d+ time\(s\) across the runs, .* fix it first .*\(exit code 1\)\.$/);
  });

  it('starts after the largest startup without --from', () => {
    const r = checkWarmup({ ...base(trend('sma', 10, 10)), from: undefined, startups: [100] });
    expect(r.from).toBe(T(110));
    expect(r.to).toBe(T(2600));
  });

  it('refuses too little history for the startups asked, saying how many bars there are', () => {
    expect(() => checkWarmup({ ...base(trend('sma', 10, 10)), from: T(300), startups: [500] })).toThrow(WarmupCheckInputError);
    expect(() => checkWarmup({ ...base(trend('sma', 10, 10)), from: T(300), startups: [500] })).toThrow(/300 bars of BTCPHP 1m come before .*; the warm-up needs 9 and a startup of 500 needs 509: .*at most 291/);
    expect(() => checkWarmup({ ...base(trend('sma', 10, 10)), from: T(2999) + 60_000 })).toThrow(/no BTCPHP 1m bars in/);
    expect(() => checkWarmup({ ...base(trend('sma', 10, 10)), startups: [0] })).toThrow(/at least one startup above 0/);
  });
});

/** Module-level state: shared by every run in the process, as a strategy must never keep it. */
let calls = 0;
const counting = defineStrategy({
  name: 'module-counter',
  params: z.object({}),
  symbols: ['BTCPHP'],
  intervals: ['1m'],
  onBar(ctx) {
    calls++;
    ctx.plot('calls', calls);
    if (calls % 97 === 0) return [place({ symbol: ctx.symbol, side: ctx.position().flat ? 'BUY' : 'SELL', type: 'MARKET', ...(ctx.position().flat ? { quoteOrderQty: '1000' } : { quantity: ctx.instrument().capQty(ctx.position().base) }) })];
    return undefined;
  },
});

describe('checkWarmup: the lookahead self-check', () => {
  it('flags a strategy whose decisions follow a module-level counter', () => {
    const r = checkWarmup({ ...base(counting), startups: [10] });
    expect(r.passed).toBe(false);
    expect(r.lookahead?.prefix.same).toBe(false);
    expect(r.lookahead?.prefix.firstDifference).toBeDefined();
    const text = formatWarmupCheck(r).join('\n');
    expect(text).toMatch(/^Lookahead: the first part run alone \(to .*\) decided differently: at .* the whole run sent .*, the part .*; the strategy depends on more than the bars it has seen \(module-level state shared between runs, the wall clock such as Date\.now\(\)\)\.$/m);
    expect(text).toMatch(/^Lookahead: the first part run alone .* plotted 'calls' differently/m);
  });
});

describe('relDiff', () => {
  it('is 0 for equal numbers (NaN too), relative to the larger otherwise', () => {
    expect([relDiff(2, 2), relDiff(Number.NaN, Number.NaN), relDiff(0, 0), relDiff(100, 99), relDiff(0, 1)]).toEqual([0, 0, 0, 0.01, 1]);
  });
});

describe('checkWarmup: the tolerance', () => {
  it('holds an EMA(50) after 300 bars to a tighter tolerance too: then it needs more history', () => {
    const r = checkWarmup({ ...base(trend('ema', 50, 300)), tolerance: 1e-9 });
    expect(r.plots[0]?.verdict).toBe('raise');
    expect(r.plots[0]?.stableFrom).toBe(399);
    expect(formatWarmupCheck(r)).toContain("Plot 'EMA': differs until 399 bars of history (largest relative difference 3.8e-8 with 299 bars of history at 2024-01-01T23:21Z): raise warmup to at least 400.");
  });
});

describe('checkWarmup: a warmup per interval', () => {
  it('gives the run the bars its longer interval needs before the range (3 5m bars: 15 minutes), and an SMA of them is stable', () => {
    const s = defineStrategy({
      name: 'five-minute-sma',
      params: z.object({}),
      symbols: ['BTCPHP'],
      intervals: ['1m', '5m'],
      warmup: { '1m': 5, '5m': 3 },
      onBar(ctx, bar) {
        if (bar.interval === '1m') ctx.plot('SMA 5m', ctx.bars('BTCPHP', '5m').sma(3).value);
      },
    });
    const r = checkWarmup({ ...base(s), startups: [100] });
    expect(r.baseHistory).toBe(15);
    expect(r.warmup).toEqual({ '1m': 5, '5m': 3 });
    // Stable: equal but for the last bits of a running sum begun at another bar.
    expect(r.plots.map((p) => [p.name, p.verdict])).toEqual([['SMA 5m', 'stable']]);
    expect(r.plots[0]?.runs[0]?.maxRelDiff).toBeLessThan(1e-12);
    expect(formatWarmupCheck(r)[0]).toMatch(/warmup 1m 5, 5m 3: 2 runs with 15, 115 bars of history/);
  });
});

describe('checkWarmup: dust at the cut', () => {
  /** The SMA trend, and on each entry fill a stop 1% under the position's average entry price: a decision that reads the average. */
  const stopped = defineStrategy({
    name: 'sma-stop',
    params: z.object({}),
    symbols: ['BTCPHP'],
    intervals: ['1m'],
    warmup: 10,
    onBar(ctx, bar) {
      const avg = ctx.bars().sma(10).value;
      if (avg === undefined || ctx.openOrders().length > 0) return undefined;
      const close = Number(bar.close);
      if (ctx.position().flat && close > avg) return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'entry' })];
      return undefined;
    },
    onFill(ctx, fill) {
      if (fill.tag !== 'entry' || fill.orderStatus !== 'FILLED') return undefined;
      const p = ctx.position();
      const stopPrice = ctx.instrument().roundPrice(p.avgEntryPrice!.times('0.99'), 'down');
      return [place({ symbol: ctx.symbol, side: 'SELL', type: 'STOP_LOSS', quantity: ctx.instrument().capQty(p.base), stopPrice, tag: 'sl' })];
    },
  });

  it('reports the dust the whole run held at the cut', () => {
    const r = checkWarmup({ ...base(stopped), startups: [100] });
    expect(r.lookahead?.dustAtCut).toMatch(/^0\.0+\d+ BTC$/);
    expect(r.lookahead?.prefix.same).toBe(true);
    expect(r.passed).toBe(true);
  });

  it('does not count a second part that differs where dust was held at the cut, and says why', () => {
    const r = checkWarmup({ ...base(stopped), startups: [100] });
    const differing = {
      ...r,
      lookahead: { ...r.lookahead!, resume: { same: false, firstDifference: { time: T(2000), reference: 'place side=SELL stopPrice=99.01', run: 'place side=SELL stopPrice=99.00' }, plots: [] } },
    };
    const text = formatWarmupCheck(differing).join('\n');
    expect(text).toMatch(/Lookahead \(not counted\): the second part run from .* decided differently at .* \(the whole run sent place side=SELL stopPrice=99\.01, the part place side=SELL stopPrice=99\.00\); at the cut the whole run held 0\.0+\d+ BTC of dust/);
    expect(text).not.toMatch(/^Lookahead: the second part/m);
  });
});

describe('checkWarmup: detail bars (halyard check --detail)', () => {
  const M = 60_000;
  const candle = (i: number, low: number): Candle => {
    const exact = { open: '100', high: '100', low: String(low), close: '100', volume: '10' };
    return { openTime: T(0) + i * M, closeTime: T(0) + (i + 1) * M - 1, open: 100, high: 100, low, close: 100, volume: 10, exact };
  };
  // A flat market whose bar 150 dips to 90 while its one detail bar (what --detail plays) stays at 100: a made-up
  // disagreement, so that whether the runs play the detail shows in the orders.
  const BARS_D: DetailedCandle[] = Array.from({ length: 200 }, (_, i) => ({ ...candle(i, i === 150 ? 90 : 100), detail: [candle(i, 100)] }));
  const detailed: BarSource = (from, to) => BARS_D.filter((b) => (from === undefined || b.openTime >= from) && (to === undefined || b.openTime < to));
  /** One LIMIT BUY of 2 at 95 on its first bar, and a MARKET SELL once it fills. */
  const dipBuyer = defineStrategy({
    name: 'dip-buyer',
    params: z.object({}),
    symbols: ['BTCPHP'],
    intervals: ['1m'],
    state: () => ({ placed: false }),
    onBar(ctx) {
      if (ctx.state.placed) return undefined;
      ctx.state.placed = true;
      return [place({ symbol: ctx.symbol, side: 'BUY', type: 'LIMIT', quantity: '2', price: '95', tag: 'entry' })];
    },
    onFill(ctx, fill) {
      if (fill.tag !== 'entry' || fill.orderStatus !== 'FILLED') return undefined;
      return [place({ symbol: ctx.symbol, side: 'SELL', type: 'MARKET', quantity: ctx.instrument().capQty(ctx.position().base) })];
    },
  });

  it('plays every run on the detail bars with detailed, as a backtest with --detail does', () => {
    const opts = { ...base(dipBuyer), source: detailed, from: T(100), to: T(200), startups: [10] };
    const plain = checkWarmup(opts);
    const played = checkWarmup({ ...opts, detailed: true });
    // The bar's own low fills the LIMIT and the SELL follows; its detail never reaches 95.
    expect(plain.orders.runs.map((r) => r.intents)).toEqual([2, 2]);
    expect(played.orders.runs.map((r) => r.intents)).toEqual([1, 1]);
  });
});
