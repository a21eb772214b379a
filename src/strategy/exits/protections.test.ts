import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Candle } from '../../core/indicators/candle.ts';
import { D } from '../../core/money/decimal.ts';
import { defineStrategy } from '../define.ts';
import { exits } from './exits.ts';
import type { IntentInput } from '../intents/intents.ts';
import { place } from '../intents/intents.ts';
import { formatDuration, formatUtc, protections, ProtectionsConfigError } from './protections.ts';
import type { Protections, ProtectionsConfig } from './protections.ts';
import { StrategyRunner } from '../runner.ts';
import { candlesFromCloses, FakeStateView, runOnRegime, StrategyHarness, testInstrument } from '../testing/index.ts';

const START = Date.UTC(2024, 0, 1); // candlesFromCloses' default start: 2024-01-01 00:00 UTC
const MIN = 60_000;

interface ProbeOptions {
  /** Buy `qty` at MARKET on each bar it is flat and not locked, sell it all the bar after, tagged `exitTag` (or what it returns for the bar). */
  readonly flip?: { readonly qty?: string; readonly exitTag?: string | ((bar: number) => string) };
  /** Intents to return on the bars named (bar numbers from 0, the first onBar). */
  readonly script?: Record<number, IntentInput[]>;
}

/**
 * A strategy holding one protections() helper: it records, bar by bar, whether entries were
 * locked and which bars it entered on. `helper()` is the instance's helper.
 */
interface ProbeState {
  bar: number;
  readonly guard: Protections;
  /** Whether entries were locked on each bar. */
  readonly locked: boolean[];
  /** The bars it entered on. */
  readonly entries: number[];
}

function probe(config: ProtectionsConfig, opts: ProbeOptions = {}) {
  let made: ProbeState | undefined;
  const def = defineStrategy({
    name: 'probe',
    params: z.object({}),
    symbols: ['BTCPHP'],
    state: (): ProbeState => (made = { bar: 0, guard: protections(config), locked: [], entries: [] }),
    onBar(ctx, bar) {
      const s = ctx.state;
      s.guard.onBar(ctx, bar);
      const i = s.bar++;
      const locked = s.guard.locked(ctx);
      s.locked.push(locked);
      if (opts.script) return opts.script[i] ?? [];
      const flip = opts.flip ?? {};
      const position = ctx.position();
      if (!position.flat) {
        const tag = typeof flip.exitTag === 'function' ? flip.exitTag(i) : (flip.exitTag ?? 'exit');
        return [place({ symbol: ctx.symbol, side: 'SELL', type: 'MARKET', quantity: ctx.instrument().capQty(position.base), tag })];
      }
      if (locked) return [];
      s.entries.push(i);
      return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quantity: flip.qty ?? '1', tag: 'entry' })];
    },
    onFill: (ctx, fill) => ctx.state.guard.onFill(ctx, fill),
  });
  return { def, helper: () => (made as ProbeState).guard, probed: () => made as ProbeState };
}

function harness(def: ReturnType<typeof probe>['def']) {
  const h = new StrategyHarness(def, { instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '100000' } });
  h.start();
  return h;
}

/** Run the closes through the strategy; the harness, the helper and its probe state. */
function play(config: ProtectionsConfig, closes: number[], opts: ProbeOptions = {}) {
  const { def, helper, probed } = probe(config, opts);
  const h = harness(def);
  h.bars(candlesFromCloses(closes));
  expect(h.failures).toEqual([]);
  expect(h.denials).toEqual([]);
  const state = probed();
  return { h, guard: helper(), locked: state.locked, entries: state.entries, logs: h.logs.map((l) => l.message) };
}

const at = (minutes: number) => formatUtc(START + minutes * MIN);

describe('protections(): cooldown', () => {
  it('after an exit blocks entries for N bars, then allows them; each lock is logged once', () => {
    const flat = Array<number>(12).fill(100);
    const free = play({}, flat, { flip: {} });
    expect(free.entries).toEqual([0, 2, 4, 6, 8, 10]); // in on one bar, out on the next, in again
    const r = play({ cooldown: { bars: 3 } }, flat, { flip: {} });
    // The exit goes out on bar 1's close (00:02): bars 2 and 3 are locked, bar 4 closes at 00:05, 3 bars on.
    expect(r.entries).toEqual([0, 4, 8]);
    expect(r.locked.slice(0, 9)).toEqual([false, false, true, true, false, false, true, true, false]);
    expect(r.logs).toEqual([
      `protections: cooldown: 3 bars after the exit at ${at(2)}, locked until ${at(5)}`,
      `protections: cooldown: 3 bars after the exit at ${at(6)}, locked until ${at(9)}`,
      `protections: cooldown: 3 bars after the exit at ${at(10)}, locked until ${at(13)}`,
    ]);
    expect(r.h.logs[0]?.data).toEqual({ protection: 'cooldown', since: START + 2 * MIN, until: START + 5 * MIN });
  });

  it('in ms: the lock ends that long after the exit; lockedUntil and reason say so while it is on', () => {
    const { def, helper, probed } = probe({ cooldown: { ms: 150_000 } }, { flip: {} });
    const h = harness(def);
    const bars = candlesFromCloses(Array<number>(5).fill(100));
    const ctx = () => ({ now: () => h.view.now() }) as Parameters<Protections['locked']>[0];
    h.bars(bars.slice(0, 2)); // in, out at 00:02
    expect(helper().lockedUntil(ctx())).toBe(START + 4.5 * MIN);
    expect(helper().reason(ctx())).toBe(`cooldown: 2m30s after the exit at ${at(2)}, locked until 2024-01-01 00:04:30 UTC`);
    h.bars(bars.slice(2));
    expect(probed().entries).toEqual([0, 4]);
    expect([helper().locked(ctx()), helper().lockedUntil(ctx()), helper().reason(ctx())]).toEqual([false, undefined, undefined]);
  });

  it('in bars, after a stop filled inside a bar, ends on the bar grid: N whole bars after the exit', () => {
    const entry = place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'entry' });
    const { def, helper } = probe({ cooldown: { bars: 2 } }, { script: { 0: [entry], 1: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', price: '101', quantity: '1', tag: 'tp' })] } });
    const h = harness(def);
    h.bars(candlesFromCloses([100, 100]));
    h.advance(25_000); // 00:02:25
    h.fill('tp');
    expect(h.fills.map((f) => `${f.side} ${f.price} ${f.tag}`)).toEqual(['BUY 100 entry', 'SELL 101 tp']);
    // 00:02:25 + 2 bars = 00:04:25, up to the next bar boundary.
    expect(helper().state.locks.cooldown).toMatchObject({ since: START + 145_000, until: START + 5 * MIN });
    expect(helper().state.trades).toEqual([]); // nothing kept: no trade lookback configured
  });
});

describe('protections(): stoploss guard', () => {
  const losing = Array.from({ length: 40 }, (_, i) => 100 - i); // every trip loses 1

  it('locks after N losing stop-loss exits within the window, for lockMs', () => {
    const r = play({ stoplossGuard: { tradeLimit: 3, lookbackMs: 10 * MIN, lockMs: 30 * MIN } }, losing, { flip: { exitTag: 'sl' } });
    // Exits at 00:02, 00:04, 00:06: locked until 00:36, the close of bar 35.
    expect(r.entries).toEqual([0, 2, 4, 35, 37, 39]);
    expect(r.logs).toEqual([`protections: stoploss guard: 3 stop-loss exits (sl, trail) in 10m, locked until ${at(36)}`]);
    // The trades kept: those within the lookback (exits at 00:37 and 00:39).
    expect(r.guard.state.trades.map((t) => [t.exitTime, t.exitTag, t.pnl])).toEqual([
      [START + 37 * MIN, 'sl', '-1'],
      [START + 39 * MIN, 'sl', '-1'],
    ]);
  });

  it('does not lock when they are spread out over more than the window', () => {
    const r = play({ stoplossGuard: { tradeLimit: 3, lookbackMs: 3 * MIN, lockMs: 30 * MIN } }, losing, { flip: { exitTag: 'sl' } });
    expect(r.entries).toEqual(Array.from({ length: 20 }, (_, i) => 2 * i));
    expect(r.logs).toEqual([]);
    expect(r.guard.state.trades.length).toBeLessThanOrEqual(2); // older trades are dropped
  });

  it('counts only losing exits by one of exitTags: a take-profit, or a trailing stop that locked a gain, is no stop-loss', () => {
    const tags = (i: number) => ['sl', 'tp', 'sl', 'trail'][Math.floor(i / 2) % 4] as string;
    const guard = { tradeLimit: 3, lookbackMs: 60 * MIN, lockMs: 30 * MIN };
    // Losing trips: sl, tp, sl, trail, sl... the third of sl/trail (a trail at a loss) locks at 00:08.
    // Once it ends, the next stop-loss exit (00:39) finds 4 in the hour: locked again (Freqtrade's way).
    expect(play({ stoplossGuard: guard }, losing, { flip: { exitTag: tags } }).logs).toEqual([
      `protections: stoploss guard: 3 stop-loss exits (sl, trail) in 1h, locked until ${at(38)}`,
      `protections: stoploss guard: 4 stop-loss exits (sl, trail) in 1h, locked until ${at(69)}`,
    ]);
    // Winning trips: nothing counts.
    const winning = Array.from({ length: 40 }, (_, i) => 100 + i);
    expect(play({ stoplossGuard: guard }, winning, { flip: { exitTag: tags } }).logs).toEqual([]);
    // Its own tags (exits({ tagPrefix: 'btc-' })).
    const own = play({ stoplossGuard: { ...guard, exitTags: ['btc-sl'] } }, losing, { flip: { exitTag: (i) => (i % 4 === 1 ? 'btc-sl' : 'sl') } });
    expect(own.logs).toEqual([`protections: stoploss guard: 3 stop-loss exits (btc-sl) in 1h, locked until ${at(40)}`]);
  });

  it("composes with exits(): the stops exits() places and the venue fills are what it counts", () => {
    let guardOf: Protections | undefined;
    let entries = 0;
    const def = defineStrategy({
      name: 'stopped',
      params: z.object({}),
      symbols: ['BTCPHP'],
      state: () => ({ exit: exits({ stopLoss: 0.02 }), guard: (guardOf = protections({ stoplossGuard: { tradeLimit: 2, lookbackMs: 60 * MIN, lockMs: 20 * MIN } })) }),
      onBar(ctx, bar) {
        ctx.state.guard.onBar(ctx, bar);
        const out = ctx.state.exit.onBar(ctx, bar);
        if (out.length || !ctx.state.exit.flat(ctx) || ctx.state.guard.locked(ctx) || ctx.openOrders().length) return out;
        entries++;
        return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quantity: '1', tag: 'entry' })];
      },
      onFill(ctx, fill) {
        ctx.state.guard.onFill(ctx, fill);
        return ctx.state.exit.onFill(ctx, fill);
      },
      onOrderUpdate: (ctx, update) => ctx.state.exit.onOrderUpdate(ctx, update),
      onDenial: (ctx, denial) => ctx.state.exit.onDenial(ctx, denial),
    });
    const h = harness(def as unknown as ReturnType<typeof probe>['def']);
    // Down 3% a bar: each entry's stop (2% under) is triggered by the next bar and filled at its price.
    h.bars(candlesFromCloses(Array.from({ length: 12 }, (_, i) => 1000 * 0.97 ** i).map((p) => p.toFixed(2))));
    expect(h.failures).toEqual([]);
    const sells = h.fills.filter((f) => f.side === 'SELL');
    expect(sells.map((f) => f.tag)).toEqual(['sl', 'sl']);
    expect(guardOf?.state.trades.map((t) => t.exitTag)).toEqual(['sl', 'sl']);
    expect(guardOf?.state.locks.stoplossGuard?.reason).toMatch(/^stoploss guard: 2 stop-loss exits \(sl, trail\) in 1h, locked until /);
    expect(entries).toBe(2);
  });
});

describe('protections(): max drawdown', () => {
  const buyAll = place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '900', tag: 'entry' });
  const sellAll = place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '900', tag: 'exit' });

  it('locks once the equity falls more than maxDrawdown under its high in the window, and unlocks after lockMs', () => {
    // 900 BTC at 100 and 10 000 PHP: 100 000. At 94: 94 600, 5.4% under it.
    const closes = [100, 99, 98, 97, 96, 95, 94, 94, ...Array<number>(20).fill(94)];
    const r = play({ maxDrawdown: { maxDrawdown: 0.05, lookbackMs: 60 * MIN, lockMs: 10 * MIN } }, closes, { script: { 0: [buyAll], 7: [sellAll] } });
    // Bar 6 closes at 00:07: locked until 00:17 (the close of bar 16), then free: the window starts afresh at the lock.
    expect(r.locked.map((l, i) => (l ? i : -1)).filter((i) => i >= 0)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(r.logs).toEqual([`protections: max drawdown: equity 94600 PHP is 5.4% under its 1h high of 100000, locked until ${at(17)}`]);
    expect(r.guard.state.highs).toEqual([{ time: START + 28 * MIN, equity: '94600' }]);
  });

  it('does not lock on a fall within the limit, nor on one spread over more than the window', () => {
    const slow = [100, 99, 98, 97, 96, 95, 94, 93, 92];
    expect(play({ maxDrawdown: { maxDrawdown: 0.09, lookbackMs: 60 * MIN, lockMs: 10 * MIN } }, slow, { script: { 0: [buyAll] } }).logs).toEqual([]);
    expect(play({ maxDrawdown: { maxDrawdown: 0.05, lookbackMs: 3 * MIN, lockMs: 10 * MIN } }, slow, { script: { 0: [buyAll] } }).logs).toEqual([]);
    expect(play({ maxDrawdown: { maxDrawdown: 0.05, lookbackMs: 8 * MIN, lockMs: 10 * MIN } }, slow, { script: { 0: [buyAll] } }).logs).toHaveLength(1);
  });
});

describe('protections(): low profit', () => {
  it('locks once the trades in the window made less than requiredProfit, summed; a win in between can keep it off', () => {
    // Trips (in at one close, out at the next): -1%, +2.02%, -0.99%: sum +0.03%; then -1.01% more: below 0.
    const closes = [100, 99, 99, 101, 101, 100, 100, 99, 99, 99, 99, 99];
    const r = play({ lowProfit: { tradeLimit: 2, lookbackMs: 60 * MIN, lockMs: 20 * MIN } }, closes, { flip: {} });
    expect(r.guard.state.trades.map((t) => t.pnl)).toEqual(['-1', '2', '-1', '-1']);
    expect(r.logs).toEqual([`protections: low profit: 4 trades in 1h made -0.97% (required 0%), locked until ${at(28)}`]);
    expect(r.entries).toEqual([0, 2, 4, 6]);
  });

  it('with tradeLimit 1 (the default) one losing trade locks; requiredProfit raises the bar', () => {
    expect(play({ lowProfit: { lookbackMs: 60 * MIN, lockMs: 20 * MIN } }, [100, 99, 99, 99], { flip: {} }).logs).toEqual([`protections: low profit: 1 trade in 1h made -1% (required 0%), locked until ${at(22)}`]);
    expect(play({ lowProfit: { requiredProfit: 0.05, lookbackMs: 60 * MIN, lockMs: 20 * MIN } }, [100, 102, 102], { flip: {} }).logs).toEqual([`protections: low profit: 1 trade in 1h made 2% (required 5%), locked until ${at(22)}`]);
  });
});

describe('protections(): trades', () => {
  /** Flip on the regime with a lowProfit that never locks (every trade kept a year); the run and the helper's trades. */
  function flipped(options: Parameters<typeof runOnRegime>[3] = {}) {
    const { def, helper } = probe({ lowProfit: { lookbackMs: 365 * 24 * 60 * MIN, lockMs: 1, requiredProfit: -1 } }, { flip: {} });
    const r = runOnRegime(def, 'upThenDown', {}, { bars: 200, ...options });
    expect(r.run.strategyFailures).toEqual([]);
    expect(r.run.trades.length).toBeGreaterThan(50);
    return { r, mine: helper().state.trades };
  }

  /** The helper's trades are run.trades: the same PnL (unrounded), ratio, times and exit tag. */
  function expectSame({ r, mine }: ReturnType<typeof flipped>) {
    expect(mine.map((t) => new D(t.pnl as string).toDecimalPlaces(12).toFixed())).toEqual(r.run.trades.map((t) => new D(t.pnl).toFixed()));
    expect(mine.map((t) => t.ratio)).toEqual(r.run.trades.map((t) => t.returnRatio));
    expect(mine.map((t) => [t.entryTime, t.exitTime, t.exitTag])).toEqual(r.run.trades.map((t) => [t.entryTime, t.exitTime, t.exitTag]));
  }

  it("are run.trades': the same PnL per trade, commissions in base and quote included", () => {
    expectSame(flipped());
  });

  it("carry the dust a base commission leaves into the next trade at its cost, as run.trades' do", () => {
    // Steps of 0.01: 1 BTC bought at 0.2% leaves 0.998, of which 0.99 can be sold; the 0.008 left
    // is sold with the next trade's BTC, and charged what it cost then (first in, first out).
    const dusty = flipped({ instrument: testInstrument({ stepSize: '0.01', minNotional: '1' }), fees: { maker: '0.002', taker: '0.002' } });
    const sells = dusty.r.fills.filter((f) => f.side === 'SELL').map((f) => f.qty);
    expect(sells.slice(0, 6)).toEqual(['0.99', '1', '1', '1', '1', '0.99']);
    expectSame(dusty);
  });

  it('a sell while flat (base the helper did not count) is no trade', () => {
    const { def, helper } = probe({ lowProfit: { lookbackMs: 60 * MIN, lockMs: 10 * MIN } }, { script: { 0: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '2', tag: 'exit' })] } });
    const h = new StrategyHarness(def, { instruments: [testInstrument({ minNotional: '1' })], balances: { BTC: '2' } });
    h.view.setPosition('BTCPHP', '0');
    h.start();
    h.bars(candlesFromCloses([100, 100]));
    expect(h.fills.map((f) => `${f.side} ${f.qty}`)).toEqual(['SELL 2']);
    expect(helper().state.trades).toEqual([]);
    expect(h.logs).toEqual([]);
  });

  it('count a position held before the first bar as a trade at its average entry price', () => {
    const { def, helper } = probe({ lowProfit: { lookbackMs: 60 * MIN, lockMs: 10 * MIN } }, { script: { 0: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '2', tag: 'exit' })] } });
    const h = new StrategyHarness(def, { instruments: [testInstrument({ minNotional: '1' })], balances: { BTC: '2' } });
    h.view.setPosition('BTCPHP', '2', '105');
    h.start();
    h.bars(candlesFromCloses([100, 100]));
    expect(helper().state.trades).toEqual([{ entryTime: START + MIN, exitTime: START + MIN, exitTag: 'exit', pnl: '-10', ratio: -10 / 210 }]);
    expect(h.logs.map((l) => l.message)).toEqual([`protections: low profit: 1 trade in 1h made -4.76% (required 0%), locked until ${at(11)}`]);
  });
});

describe('protections(): config', () => {
  const bad = (config: unknown) => () => protections(config as ProtectionsConfig);

  it('is checked, each problem naming its field', () => {
    expect(bad({ cooldown: { bars: 0 } })).toThrow("protections(): 'cooldown.bars' must be a whole number of bars >= 1, got number 0");
    expect(bad({ cooldown: {} })).toThrow("'cooldown' must be an object with bars or ms, not both, got neither");
    expect(bad({ cooldown: { bars: 2, ms: 1000 } })).toThrow('got both');
    expect(bad({ cooldown: { candles: 2 } })).toThrow("unknown option 'cooldown.candles' (known: bars, ms)");
    expect(bad({ stoplossGuard: { tradeLimit: 3, lookbackMs: 3600_000 } })).toThrow("protections(): 'stoplossGuard.lockMs' must be a whole number of milliseconds > 0, got nothing");
    expect(bad({ stoplossGuard: { tradeLimit: 1.5, lookbackMs: -1, lockMs: 1, exitTags: ['sl', ''] } })).toThrow(
      "protections(): 'stoplossGuard.tradeLimit' must be a whole number of stop-loss exits >= 1, got number 1.5; 'stoplossGuard.lookbackMs' must be a whole number of milliseconds > 0, got number -1; 'stoplossGuard.exitTags[1]' must be an exit tag (a string of 1 or more characters), got \"\"",
    );
    expect(bad({ stoplossGuard: { tradeLimit: 1, lookbackMs: 1, lockMs: 1, exitTags: [] } })).toThrow("'stoplossGuard.exitTags' must be a non-empty list of exit tags (default ['sl', 'trail']), got an array of 0");
    expect(bad({ maxDrawdown: { maxDrawdown: 5, lookbackMs: 1, lockMs: 1 } })).toThrow("'maxDrawdown.maxDrawdown' must be a fraction of the equity > 0 and < 1 (0.05: 5% under its high), got number 5");
    expect(bad({ lowProfit: { requiredProfit: Infinity, lookbackMs: 1, lockMs: 1 } })).toThrow("'lowProfit.requiredProfit' must be a finite number");
    expect(bad({ maxDrawDown: {} })).toThrow("unknown option 'maxDrawDown' (known: cooldown, stoplossGuard, maxDrawdown, lowProfit, symbol)");
    expect(bad({ cooldown: 5 })).toThrow("'cooldown' must be an object with bars or ms, not both, got number 5");
    expect(bad(null)).toThrow('protections(): expected a config object such as { cooldown: { bars: 5 } }, got null');
    expect(bad({ cooldown: { ms: 1 }, symbol: '' })).toThrow(ProtectionsConfigError);
    expect(() => protections({})).not.toThrow();
  });

  it('made in state() with a bad config stops the strategy at its start, saying why', () => {
    const { def } = probe({ cooldown: { bars: -1 } });
    const runner = new StrategyRunner(def, { state: new FakeStateView({ instruments: [testInstrument()] }) });
    runner.start();
    expect(runner.failure?.message).toContain("'cooldown.bars' must be a whole number of bars >= 1");
  });

  it('refuses a cooldown in bars on an interval of no fixed length (1M) at the first bar', () => {
    const def = defineStrategy({
      name: 'monthly',
      params: z.object({}),
      symbols: ['BTCPHP'],
      intervals: ['1M'],
      state: () => ({ guard: protections({ cooldown: { bars: 1 } }) }),
      onBar: (ctx, bar) => ctx.state.guard.onBar(ctx, bar),
    });
    const h = new StrategyHarness(def, { instruments: [testInstrument()] });
    h.start();
    h.bar(candlesFromCloses([100], { intervalMs: 31 * 24 * 60 * MIN })[0] as Candle);
    expect(h.failures[0]?.message).toBe("protections(): 'cooldown.bars' needs an interval of fixed length, and '1M' has none: give cooldown.ms");
  });
});

describe('protections(): formatting', () => {
  it('says times in UTC and durations in units', () => {
    expect(formatUtc(Date.UTC(2024, 2, 1, 14))).toBe('2024-03-01 14:00 UTC');
    expect(formatUtc(Date.UTC(2024, 2, 1, 14, 0, 30))).toBe('2024-03-01 14:00:30 UTC');
    expect(formatUtc(Date.UTC(2024, 2, 1, 14, 0, 30, 5))).toBe('2024-03-01 14:00:30.005 UTC');
    expect([6 * 3600_000, 5400_000, 2 * 86_400_000, 45_000, 250].map(formatDuration)).toEqual(['6h', '1h30m', '2d', '45s', '250ms']);
  });
});
