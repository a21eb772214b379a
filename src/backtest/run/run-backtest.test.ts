import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instrument } from '../../core/orders/test-support.ts';
import { D } from '../../core/money/decimal.ts';
import { defineStrategy } from '../../strategy/define.ts';
import { cancel, place } from '../../strategy/intents/intents.ts';
import type { IntentInput } from '../../strategy/intents/intents.ts';
import { computeMetrics, startEquityOf } from '../metrics/metrics.ts';
import { periodReturns } from '../metrics/period-returns.ts';
import { formatSummary } from '../output/summary.ts';
import { resampleBars } from '../../data/resample.ts';
import { runBacktest } from './run-backtest.ts';
import type { BacktestOptions } from './run-backtest.ts';
import type { BacktestBar } from '../types.ts';

const inst = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
    { filterType: 'NOTIONAL', minNotional: '10', maxNotional: '0' },
  ],
});

const T0 = Date.UTC(2024, 0, 1);
/** Bars from [open, high, low, close, volume?] rows, one minute apart. */
const bars = (...rows: [string, string, string, string, string?][]): BacktestBar[] =>
  rows.map(([open, high, low, close, volume], i) => ({ openTime: T0 + i * 60_000, closeTime: T0 + (i + 1) * 60_000 - 1, open, high, low, close, volume: volume ?? '100' }));

/** Returns batch i on the i-th bar; records what it hears. */
function scripted(batches: Record<number, IntentInput[]>, log: string[] = []) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    symbols: ['BTCPHP'],
    state: () => ({ i: 0 }),
    onBar: (ctx) => batches[ctx.state.i++],
    onFill: (ctx, f) => void log.push(`fill ${f.tag} ${f.side} ${f.qty.toFixed()}@${f.price.toFixed()} t+${(ctx.now() - T0) / 1000}s`),
    onOrderUpdate: (_ctx, u) => void log.push(`${u.tag} ${u.status}${u.reason ? ` ${u.reason}` : ''}`),
  });
}

const base = (strategy: BacktestOptions['strategy'], b: BacktestBar[], over: Partial<BacktestOptions> = {}): BacktestOptions => ({
  strategy,
  symbol: 'BTCPHP',
  interval: '1m',
  bars: b,
  instrument: inst,
  fees: { maker: '0.001', taker: '0.002' },
  balances: { PHP: '10000' },
  ...over,
});

const ROWS: [string, string, string, string][] = [
  ['100', '101', '99', '100'],
  ['102', '104', '98', '103'], // up bar: 102 -> 98 -> 104 -> 103
  ['103', '107', '95', '96'], // down bar: 103 -> 107 -> 95 -> 96
  ['96', '97', '94', '95'],
];

describe('runBacktest: longer intervals the strategy declares beside the run\'s', () => {
  /** Minute bars from T0 + start minutes, closes 100, 101, ... (high +1, low -1). */
  const minutes = (n: number, start = 0): BacktestBar[] =>
    Array.from({ length: n }, (_, k) => {
      const i = start + k;
      const c = String(100 + i);
      return { openTime: T0 + i * 60_000, closeTime: T0 + (i + 1) * 60_000 - 1, open: c, high: String(101 + i), low: String(99 + i), close: c, volume: '1' };
    });
  /** Logs each onBar: its interval, its bar's open (minutes from T0), and the last 5m bar the 1m onBar can read. */
  function watcher(log: string[], intervals: string[] = ['1m', '5m']) {
    return defineStrategy({
      name: 'watcher',
      params: z.object({}),
      symbols: ['BTCPHP'],
      intervals: intervals as never,
      onBar(ctx, bar) {
        const five = ctx.bars('BTCPHP', '5m').last;
        log.push(`${bar.interval}@${(bar.openTime - T0) / 60_000} now+${(ctx.now() - T0) / 1000}s 5m:${five === undefined ? '-' : `${(five.openTime - T0) / 60_000} ${five.exact.open}/${five.exact.high}/${five.exact.low}/${five.exact.close} v${five.exact.volume}`}`);
      },
    });
  }

  it('hands each 5m bar over when the minute that completes it has closed, before that minute, made as resampleBars makes it', () => {
    const log: string[] = [];
    const run = runBacktest(base(watcher(log), minutes(12)));
    expect(log.filter((l) => l.startsWith('5m'))).toEqual(['5m@0 now+300s 5m:0 100/105/99/104 v5', '5m@5 now+600s 5m:5 105/110/104/109 v5']);
    // The minute closing at 5:00 reads the 0:00 bar it completed; the one before it, nothing yet.
    expect(log.slice(3, 6)).toEqual(['1m@3 now+240s 5m:-', '5m@0 now+300s 5m:0 100/105/99/104 v5', '1m@4 now+300s 5m:0 100/105/99/104 v5']);
    // The 10:00 period is still open when the bars end: never handed out. The run's own figures are the 1m bars'.
    expect(run.barCount).toBe(12);
    expect(run.longerIntervals).toEqual(['5m']);
    expect(JSON.parse(JSON.stringify(runBacktest(base(watcher([]), minutes(12))))) as object).toEqual(JSON.parse(JSON.stringify(run)) as object);
  });

  it('longest first when several close together; none handed out for a period the bars start inside', () => {
    const log: string[] = [];
    runBacktest(base(watcher(log, ['1m', '5m', '15m']), minutes(40, 2)));
    // 0:00-0:05 starts at 0:02 in the bars: left out (as resampleBars leaves it out). At 0:15 the 15m
    // period 0:00 also started inside the bars: left out too; at 0:30 both close: 15m, then 5m, then 1m.
    expect(log.filter((l) => !l.startsWith('1m')).map((l) => l.split(' ')[0])).toEqual(['5m@5', '5m@10', '5m@15', '5m@20', '15m@15', '5m@25', '5m@30', '5m@35']);
    const at30 = log.findIndex((l) => l.startsWith('15m@15'));
    expect(log.slice(at30 - 1, at30 + 3).map((l) => l.split(' ')[0])).toEqual(['1m@28', '15m@15', '5m@25', '1m@29']);
  });

  it('makes them from the history before the range too (a period the history ends inside is completed by the run)', () => {
    const log: string[] = [];
    runBacktest(base(watcher(log), minutes(8, 7), { history: minutes(7) }));
    // History 0:00-0:06: the 0:00 period comes from it; the 0:05 one is completed by the run's 0:09 minute.
    expect(log[0]).toBe('1m@7 now+480s 5m:0 100/105/99/104 v5');
    expect(log).toContain('5m@5 now+600s 5m:5 105/110/104/109 v5');
  });

  it('refuses an interval the run\'s bars cannot make, saying what would run', () => {
    expect(() => runBacktest(base(watcher([], ['5m', '1m']), minutes(12), { interval: '5m' }))).toThrow(
      "strategy 'watcher' declares 1m bars beside the run's 5m, which cannot be made from 5m bars: a backtest makes the longer intervals 5m bars tile; run on 1m or on an interval that tiles every one it declares",
    );
  });
});

describe('runBacktest: what the strategy plots (ctx.plot)', () => {
  const plotter = (plot: (ctx: Parameters<NonNullable<Parameters<typeof defineStrategy>[0]['onBar']>>[0], i: number) => void) =>
    defineStrategy({ name: 'plotter', params: z.object({}), symbols: ['BTCPHP'], state: () => ({ i: 0 }), onBar: (ctx) => void plot(ctx, ctx.state.i++) });

  it('records each name as a line of [time, value] after the equity, when asked; a second value at one time replaces the first', () => {
    const s = plotter((ctx, i) => {
      ctx.plot('close', ctx.bars().last!.close);
      ctx.plot('half', i === 1 ? undefined : new D(ctx.bars().last!.exact.close).div(2), { pane: 'below', color: '#123456' });
      ctx.plot('half', i === 2 ? NaN : i, { pane: 'price' }); // the first options stay; NaN leaves the earlier value
    });
    const run = runBacktest(base(s, bars(...ROWS), { recordPlots: true }));
    const t = (i: number) => T0 + (i + 1) * 60_000;
    expect(run.plots).toEqual([
      { name: 'close', pane: 'price', points: [[t(0), 100], [t(1), 103], [t(2), 96], [t(3), 95]] },
      { name: 'half', pane: 'below', color: '#123456', points: [[t(0), 0], [t(1), 1], [t(2), 48], [t(3), 3]] },
    ]);
    const keys = Object.keys(JSON.parse(JSON.stringify(run)) as object);
    expect(keys[keys.indexOf('equity') + 1]).toBe('plots');
    // Not asked: no plots, the run as if the strategy plotted nothing.
    const plain = runBacktest(base(s, bars(...ROWS)));
    expect('plots' in plain).toBe(false);
    expect(JSON.stringify(plain)).toBe(JSON.stringify(runBacktest(base(plotter(() => undefined), bars(...ROWS)))).replace('"strategy":"plotter"', '"strategy":"plotter"'));
  });

  it('refuses bad arguments by stopping the strategy with what is wrong, where plots are recorded; costs nothing where they are not', () => {
    const cases: [string, (ctx: Parameters<Parameters<typeof plotter>[0]>[0]) => void, RegExp][] = [
      ['name', (ctx) => ctx.plot('', 1), /plot: the name must be 1 to 40 letters/],
      ['value', (ctx) => ctx.plot('x', '1' as unknown as number), /plot 'x': the value must be a number, a Decimal or undefined \(got string\)/],
      ['pane', (ctx) => ctx.plot('x', 1, { pane: 'left' as 'price' }), /plot 'x': pane must be 'price' or 'below' \(got "left"\)/],
      ['color', (ctx) => ctx.plot('x', 1, { color: 'red' }), /plot 'x': color must be a hex colour such as '#2563eb' \(got "red"\)/],
      ['option', (ctx) => ctx.plot('x', 1, { width: 2 } as never), /plot 'x': unknown option 'width' \(pane, color\)/],
    ];
    for (const [what, plot, message] of cases) {
      const run = runBacktest(base(plotter((ctx) => plot(ctx)), bars(...ROWS), { recordPlots: true }));
      expect(run.strategyFailures.map((f) => f.message).join(), what).toMatch(message);
      expect(runBacktest(base(plotter((ctx) => plot(ctx)), bars(...ROWS))).strategyFailures, `${what}, not recorded`).toEqual([]);
    }
  });

  it('at most 32 names: a name made per bar is refused', () => {
    const run = runBacktest(base(plotter((ctx, i) => { for (let k = 0; k <= i * 20; k++) ctx.plot(`n${k}`, k); }), bars(...ROWS), { recordPlots: true }));
    expect(run.strategyFailures[0]?.message).toMatch(/plot 'n32': a strategy may plot at most 32 names \(it plotted n0, n1, n2, \.\.\.\)/);
  });
});

describe('runBacktest: history before the range (startup bars)', () => {
  it('gives the strategy its warmup from bars before the first, which are never traded: onBar runs from the first bar', () => {
    const seen: number[] = [];
    const s = defineStrategy({ name: 'warm', params: z.object({}), symbols: ['BTCPHP'], warmup: 3, onBar: (ctx) => void seen.push((ctx.now() - T0) / 60_000) });
    const all = bars(['100', '101', '99', '100'], ['100', '101', '99', '100'], ['100', '101', '99', '100'], ['100', '101', '99', '100'], ['100', '101', '99', '100']);
    const cold = runBacktest(base(s, all.slice(2)));
    expect(seen).toEqual([5]); // warmup 3 of the run's own 3 bars: onBar on the last only
    expect(cold.notices).toHaveLength(1);
    seen.length = 0;
    const warm = runBacktest(base(s, all.slice(2), { history: all.slice(0, 2) }));
    expect(seen).toEqual([3, 4, 5]);
    expect([warm.barCount, warm.from, warm.startupBars, warm.warmup, warm.notices]).toEqual([3, T0 + 2 * 60_000, 2, 3, []]);
    expect(warm.equity).toHaveLength(3);
    expect(formatSummary(warm, computeMetrics(warm))).toMatch(/^Warmup {4}3 bars, 2 of them from before the range: onBar ran from the first bar$/m);
    expect(JSON.stringify(cold)).not.toContain('startupBars');
  });
});

describe('runBacktest', () => {
  it('fills a MARKET order decided on bar N at bar N+1 open, as taker, with fees in the asset received', () => {
    const log: string[] = [];
    const run = runBacktest(base(scripted({ 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'm' })] }, log), bars(...ROWS)));
    expect(run.fills).toEqual([
      expect.objectContaining({ time: T0 + 60_000, side: 'BUY', price: '102', qty: '1', quoteQty: '102', commission: '0.002', commissionAsset: 'BTC', isMaker: false }),
    ]);
    expect(log).toEqual(['m NEW', 'fill m BUY 1@102 t+60s', 'm FILLED']);
    expect(run.endBalances).toEqual({ BTC: '0.998', PHP: '9898' });
    expect(run.equity.map((p) => p.equity)).toEqual([10000, 9898 + 0.998 * 103, 9898 + 0.998 * 96, 9898 + 0.998 * 95]);
    expect(run.equity[1]).toMatchObject({ time: T0 + 2 * 60_000 - 1, position: 0.998 });
  });

  it('keeps the first open and the last close: buy and hold over the same bars', () => {
    const run = runBacktest(base(scripted({}), bars(...ROWS)));
    expect(run.market).toEqual({ open: '100', close: '95' });
    expect(computeMetrics(run).marketReturnPct).toBeCloseTo(-5, 12);
    const from = runBacktest(base(scripted({}), bars(...ROWS), { from: T0 + 60_000, to: T0 + 3 * 60_000 }));
    expect(from.market).toEqual({ open: '102', close: '96' });
  });

  it('with detailed bars, plays the fills on the shorter bars while the strategy sees the longer ones', () => {
    // Two 5-minute bars made from 1-minute ones; the second's low (95) comes in its fourth minute.
    const minute = (i: number, o: string, h: string, l: string, c: string) => ({ openTime: T0 + i * 60_000, closeTime: T0 + (i + 1) * 60_000 - 1, open: Number(o), high: Number(h), low: Number(l), close: Number(c), volume: 10, exact: { open: o, high: h, low: l, close: c, volume: '10' } });
    const fine = [minute(0, '100', '101', '99', '100'), minute(1, '100', '100', '99', '100'), minute(2, '100', '100', '99', '100'), minute(3, '100', '100', '99', '100'), minute(4, '100', '100', '99', '100'), minute(5, '100', '100', '98', '99'), minute(6, '99', '99', '97', '98'), minute(7, '98', '98', '96', '97'), minute(8, '97', '97', '95', '96'), minute(9, '96', '97', '96', '97')];
    const bars5 = [...resampleBars(fine, '5m', { detail: true })];
    const s = defineStrategy({
      name: 'limit-once',
      params: z.object({}),
      symbols: ['BTCPHP'],
      intervals: ['5m'],
      state: () => ({ i: 0 }),
      onBar: (ctx) => (ctx.state.i++ === 0 ? [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '95.5', timeInForce: 'GTC', tag: 'l' })] : undefined),
    });
    const opts = (detailed: boolean): BacktestOptions => ({ ...base(s, []), bars: bars5, interval: '5m', ...(detailed ? { detailed: true } : {}) });
    const detailed = runBacktest(opts(true));
    expect(detailed.fills).toHaveLength(1);
    // filled in the minute that traded through 95.5 (minute 8), not at the 5-minute bar's low point
    expect(detailed.fills[0]!.time).toBeGreaterThanOrEqual(T0 + 8 * 60_000);
    expect(detailed.fills[0]!.time).toBeLessThan(T0 + 9 * 60_000);
    expect(detailed.barCount).toBe(2);
    const coarse = runBacktest(opts(false));
    expect(coarse.fills).toHaveLength(1);
    expect(coarse.fills[0]!.time).not.toBe(detailed.fills[0]!.time);
  });

  it('moves MARKET prices against the order by the slippage, onto the tick', () => {
    const s = scripted({ 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' })], 1: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.5' })] });
    const run = runBacktest(base(s, bars(...ROWS), { fillModel: { slippageBps: 7 } }));
    expect(run.fills.map((f) => f.price)).toEqual(['102.08', '102.92']); // 102 * 1.0007 = 102.0714 up; 103 * 0.9993 = 102.9279 down
    expect(run.fillModel).toEqual({ marketFill: 'next-open', slippageBps: 7, limitFill: 'through', volumeShare: null });
  });

  it('moves triggered stop-market prices against them by the slippage too, from the price that triggered them', () => {
    const P = (o: Omit<Parameters<typeof place>[0], 'symbol'>) => place({ symbol: 'BTCPHP', ...o } as Parameters<typeof place>[0]);
    const entry = { 0: [P({ side: 'BUY', type: 'MARKET', quantity: '1' })] };
    const slip = { fillModel: { slippageBps: 100 } };
    const sl = runBacktest(base(scripted({ ...entry, 1: [P({ side: 'SELL', type: 'STOP_LOSS', quantity: '0.998', stopPrice: '96' })] }), bars(...ROWS), slip));
    expect(sl.fills.map((f) => f.price)).toEqual(['103.02', '95.04']); // 102 * 1.01; triggered at 96: 96 * 0.99
    const gap = runBacktest(base(scripted({ ...entry, 1: [P({ side: 'SELL', type: 'STOP_LOSS', quantity: '0.998', stopPrice: '96' })] }), bars(ROWS[0]!, ROWS[1]!, ['94', '95', '90', '91']), slip));
    expect(gap.fills.map((f) => f.price)).toEqual(['103.02', '93.06']); // triggered by the open, 94 * 0.99
    // A BUY pays more, onto the tick against it (95 * 1.0007 = 95.0665); a stop-limit's limit protects it: no slippage.
    const tp = runBacktest(base(scripted({ 0: [P({ side: 'BUY', type: 'TAKE_PROFIT', quantity: '1', stopPrice: '95', tag: 'tp' }), P({ side: 'BUY', type: 'TAKE_PROFIT_LIMIT', quantity: '1', stopPrice: '95', price: '95.5', timeInForce: 'GTC', tag: 'tpl' })] }), bars(['100', '100', '100', '100'], ['100', '101', '90', '92']), { fillModel: { slippageBps: 7 } }));
    expect(tp.fills.map((f) => `${f.tag} ${f.price}`)).toEqual(['tp 95.07', 'tpl 95']);
  });

  it('slips only the stop\'s own fill: the last price and the other orders stay at the print', () => {
    const P = (o: Omit<Parameters<typeof place>[0], 'symbol'>) => place({ symbol: 'BTCPHP', ...o } as Parameters<typeof place>[0]);
    const log: string[] = [];
    const s = scripted({ 0: [P({ side: 'BUY', type: 'MARKET', quantity: '1' })], 1: [P({ side: 'SELL', type: 'STOP_LOSS', quantity: '0.5', stopPrice: '96', tag: 'a' }), P({ side: 'SELL', type: 'STOP_LOSS', quantity: '0.4', stopPrice: '95.5', tag: 'b' })] }, log);
    // The down bar 100 -> 101 -> 96 -> 99 reaches 96, never 95.5: only a fills (at 95.04); b waits.
    const run = runBacktest(base(s, bars(['100', '100', '100', '100'], ['100', '100', '100', '100'], ['100', '101', '96', '99'], ['99', '99', '99', '99']), { fillModel: { slippageBps: 100 } }));
    expect(run.fills.map((f) => `${f.tag} ${f.price}`)).toEqual(['undefined 101', 'a 95.04']);
    expect(log.filter((l) => l.startsWith('b '))).toEqual(['b NEW']);
  });

  it('fills a resting LIMIT when the path trades through it (or touches it), as maker at its price', () => {
    const buyAt = (price: string) => scripted({ 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price, tag: 'l' })] });
    expect(runBacktest(base(buyAt('98'), bars(...ROWS))).fills.map((f) => `${f.price} ${f.time - T0}`)).toEqual(['98 160000']); // bar 1 only touches 98; bar 2 trades through it at its low, two thirds in
    const touch = runBacktest(base(buyAt('98'), bars(...ROWS), { fillModel: { limitFill: 'touch' } }));
    expect(touch.fills.map((f) => `${f.price} ${f.time - T0} ${f.isMaker}`)).toEqual(['98 80000 true']); // the low, a third into bar 1
    expect(runBacktest(base(buyAt('105'), bars(...ROWS))).fills.map((f) => `${f.price} ${f.isMaker}`)).toEqual(['102 false']); // marketable: taker at the open
  });

  it('caps what resting orders fill per bar at the volume share', () => {
    const s = scripted({ 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '5', price: '99.5', tag: 'l' })] });
    const rows: [string, string, string, string, string][] = [['100', '101', '99', '100', '10'], ['100', '100', '99', '99', '20'], ['99', '99', '98', '98', '20'], ['98', '98', '97', '97', '20']];
    const run = runBacktest(base(s, bars(...rows), { fillModel: { volumeShare: 0.1 } }));
    expect(run.fills.map((f) => f.qty)).toEqual(['2', '2', '1']);
  });

  it('caps every fill of a bar at the volume share, taker fills too: a marketable LIMIT rests the rest, a MARKET expires it', () => {
    const P = (o: Omit<Parameters<typeof place>[0], 'symbol'>) => place({ symbol: 'BTCPHP', ...o } as Parameters<typeof place>[0]);
    const big = scripted({ 0: [P({ side: 'BUY', type: 'LIMIT', quantity: '50', price: '105', tag: 'big' })] });
    const thin: [string, string, string, string, string][] = [['100', '100', '100', '100', '10'], ['100', '101', '99', '100', '10'], ['100', '101', '99', '100', '10']];
    const capped = runBacktest(base(big, bars(...thin), { fillModel: { volumeShare: 0.1 } }));
    // 1 a bar: at bar 1's open as taker; the rest rests at 105 and fills from the next bar's prints, as maker.
    expect(capped.fills.map((f) => `${f.qty}@${f.price} ${f.time - T0} ${f.isMaker ? 'maker' : 'taker'}`)).toEqual(['1@100 60000 taker', '1@105 120000 maker']);
    expect(runBacktest(base(big, bars(...thin))).fills.map((f) => `${f.qty}@${f.price}`)).toEqual(['50@100']); // no cap: as before
    const log: string[] = [];
    const market = runBacktest(base(scripted({ 0: [P({ side: 'BUY', type: 'MARKET', quantity: '5', tag: 'm' })] }, log), bars(...thin), { fillModel: { volumeShare: 0.1 } }));
    expect(market.fills.map((f) => f.qty)).toEqual(['1']);
    expect(log.at(-1)).toMatch(/^m EXPIRED/);
  });

  it('shares one cap per bar between the orders taking at a point and those resting', () => {
    const P = (o: Omit<Parameters<typeof place>[0], 'symbol'>) => place({ symbol: 'BTCPHP', ...o } as Parameters<typeof place>[0]);
    const s = scripted({ 0: [P({ side: 'BUY', type: 'MARKET', quantity: '1.5', tag: 'm' }), P({ side: 'BUY', type: 'LIMIT', quantity: '2', price: '99.5', tag: 'l' })] });
    const rows: [string, string, string, string, string][] = [['100', '101', '99', '100', '10'], ['100', '100', '99', '99', '20'], ['99', '99', '98', '98', '20']];
    const run = runBacktest(base(s, bars(...rows), { fillModel: { volumeShare: 0.1 } }));
    // Bar 1's cap is 2: 1.5 to the MARKET at the open, 0.5 to the LIMIT at the low; the LIMIT's last 1.5 at bar 2's open.
    expect(run.fills.map((f) => `${f.tag} ${f.qty}@${f.price} ${f.time - T0}`)).toEqual(['m 1.5@100 60000', 'l 0.5@99.5 100000', 'l 1.5@99.5 120000']);
  });

  it('triggers stops on the path: a stop-market the path moves through fills at its stop price', () => {
    const s = scripted({
      0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' })],
      1: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'STOP_LOSS', quantity: '0.998', stopPrice: '96', tag: 'sl' })],
    });
    const run = runBacktest(base(s, bars(...ROWS)));
    expect(run.fills.map((f) => `${f.side} ${f.price} ${f.time - T0}`)).toEqual(['BUY 102 60000', 'SELL 96 160000']); // bar 2: 103 -> 107 -> 95 passes 96 (by two thirds in), not the low
    expect(run.trades).toHaveLength(1);
  });

  it('fills a take-profit at its stop price, not at the extreme the path reaches beyond it', () => {
    const P = (o: Omit<Parameters<typeof place>[0], 'symbol'>) => place({ symbol: 'BTCPHP', ...o } as Parameters<typeof place>[0]);
    const flat: [string, string, string, string] = ['100', '100', '100', '100'];
    // SELL 105 on the up bar 100 -> 99 -> 106 -> 101: the rise from 99 to 106 passes 105.
    const sell = runBacktest(base(scripted({ 0: [P({ side: 'BUY', type: 'MARKET', quantity: '1' })], 1: [P({ side: 'SELL', type: 'TAKE_PROFIT', quantity: '0.998', stopPrice: '105', tag: 'tp' })] }), bars(flat, flat, ['100', '106', '99', '101'], flat)));
    expect(sell.fills.map((f) => `${f.side} ${f.price} ${f.time - T0} ${f.isMaker ? 'maker' : 'taker'}`)).toEqual(['BUY 100 60000 taker', 'SELL 105 160000 taker']);
    // BUY 95 on the down bar 100 -> 101 -> 90 -> 92: the fall from 101 to 90 passes 95.
    const buy = runBacktest(base(scripted({ 0: [P({ side: 'BUY', type: 'TAKE_PROFIT', quantity: '1', stopPrice: '95', tag: 'tpb' })] }), bars(flat, ['100', '101', '90', '92'])));
    expect(buy.fills.map((f) => `${f.side} ${f.price} ${f.time - T0}`)).toEqual(['BUY 95 100000']);
  });

  it('fills a stop the open gapped past at the open, and stops the path passes in the order it reaches them', () => {
    const P = (o: Omit<Parameters<typeof place>[0], 'symbol'>) => place({ symbol: 'BTCPHP', ...o } as Parameters<typeof place>[0]);
    const entry = { 0: [P({ side: 'BUY', type: 'MARKET', quantity: '1' })] };
    // Bar 1 closes at 103; bar 2 opens at 94, beyond the stop: it fills at the open, the first price it could.
    const gap = runBacktest(base(scripted({ ...entry, 1: [P({ side: 'SELL', type: 'STOP_LOSS', quantity: '0.998', stopPrice: '96', tag: 'sl' })] }), bars(ROWS[0]!, ROWS[1]!, ['94', '95', '90', '91'])));
    expect(gap.fills.map((f) => `${f.side} ${f.price} ${f.time - T0}`)).toEqual(['BUY 102 60000', 'SELL 94 120000']);
    // Two stops and a stop-limit on the fall 107 -> 95: 98 first, then 96 (the stop-limit becomes a LIMIT 95.5 there and takes at 96).
    const log: string[] = [];
    const many = scripted(
      {
        ...entry,
        1: [
          P({ side: 'SELL', type: 'STOP_LOSS', quantity: '0.3', stopPrice: '96', tag: 'sl96' }),
          P({ side: 'SELL', type: 'STOP_LOSS', quantity: '0.3', stopPrice: '98', tag: 'sl98' }),
          P({ side: 'SELL', type: 'STOP_LOSS_LIMIT', quantity: '0.3', stopPrice: '96', price: '95.5', timeInForce: 'GTC', tag: 'sll' }),
        ],
      },
      log,
    );
    const run = runBacktest(base(many, bars(...ROWS)));
    expect(run.fills.map((f) => `${f.tag} ${f.price} ${f.time - T0} ${f.isMaker ? 'maker' : 'taker'}`)).toEqual(['undefined 102 60000 taker', 'sl98 98 160000 taker', 'sl96 96 160000 taker', 'sll 96 160000 taker']);
  });

  it('takes the market before the account\'s own orders beyond it: no self-trade with an own order the market never reached', () => {
    const P = (o: Omit<Parameters<typeof place>[0], 'symbol'>) => place({ symbol: 'BTCPHP', ...o } as Parameters<typeof place>[0]);
    const flat: [string, string, string, string] = ['100', '100', '100', '100'];
    const holding = { balances: { PHP: '10000', BTC: '1' } };
    // A MARKET BUY while the account's own SELL LIMIT rests at 120: it fills at the open, the ask stays.
    const log: string[] = [];
    const buy = runBacktest(base(scripted({ 0: [P({ side: 'SELL', type: 'LIMIT', quantity: '0.5', price: '120', tag: 'ask' }), P({ side: 'BUY', type: 'MARKET', quantity: '0.5', tag: 'm' })] }, log), bars(flat, flat, flat), holding));
    expect(buy.fills.map((f) => `${f.tag} ${f.side} ${f.qty}@${f.price}`)).toEqual(['m BUY 0.5@100']);
    expect(log.filter((l) => l.includes('CANCELED'))).toEqual([]);
    // A STOP_LOSS SELL at 96 beside the account's own BUY LIMIT at 90: the fall 101 -> 95 triggers it at 96, where it fills.
    const log2: string[] = [];
    const stop = runBacktest(base(scripted({ 0: [P({ side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '90', tag: 'bid' }), P({ side: 'SELL', type: 'STOP_LOSS', quantity: '0.5', stopPrice: '96', tag: 'sl' })] }, log2), bars(flat, ['100', '101', '95', '99'], flat), holding));
    expect(stop.fills.map((f) => `${f.tag} ${f.side} ${f.qty}@${f.price} ${f.time - T0}`)).toEqual(['sl SELL 0.5@96 100000']);
    expect(log2.filter((l) => l.includes('CANCELED'))).toEqual([]);
    // At a tie (an own bid at 100, resting since the open at 101, that 'through' prints at 100 never fill), a MARKET SELL takes the market at 100 too.
    const up: [string, string, string, string] = ['101', '101', '101', '101'];
    const tie = runBacktest(base(scripted({ 0: [P({ side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '100', tag: 'bid' })], 1: [P({ side: 'SELL', type: 'MARKET', quantity: '0.5', tag: 'm' })] }), bars(up, ['101', '101', '100', '100'], flat), holding));
    expect(tie.fills.map((f) => `${f.tag} ${f.side} ${f.qty}@${f.price}`)).toEqual(['m SELL 0.5@100']);
  });

  it('denies before the venue, records the denial, and reports it to the strategy', () => {
    const log: string[] = [];
    const s = scripted({ 1: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.05', price: '100', tag: 'tiny' })] }, log);
    const run = runBacktest(base(s, bars(...ROWS)));
    expect(run.denials).toEqual([{ time: T0 + 2 * 60_000, symbol: 'BTCPHP', tag: 'tiny', reasons: ['Filter failure: NOTIONAL: notional 5 (price 100 * quantity 0.05) is below minNotional 10'] }]);
    // The strategy's update names the context helper that avoids the denial; the run's record keeps the reason alone.
    expect(log).toEqual([`tiny DENIED ${run.denials[0]!.reasons[0]} (hint: ctx.instrument().meetsMinimums() says whether an order is large enough)`]);
    expect(run.fills).toEqual([]);
  });

  it('stops a strategy that throws, reports it, and completes the run; its orders are cancelled', () => {
    const boom = defineStrategy({
      name: 'boom',
      params: z.object({}),
      symbols: ['BTCPHP'],
      state: () => ({ i: 0 }),
      onBar(ctx) {
        if (ctx.state.i++ === 0) return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '50' })];
        throw new Error('bad maths');
      },
    });
    const run = runBacktest(base(boom, bars(...ROWS)));
    // `at`: where it threw, this file's line (the summary prints it)
    expect(run.strategyFailures).toEqual([{ time: T0 + 2 * 60_000, handler: 'onBar', message: 'bad maths', at: expect.stringMatching(/run-backtest\.test\.ts:\d+:\d+$/) }]);
    expect(run.barCount).toBe(4);
    expect(run.equity).toHaveLength(4);
    expect(run.endBalances).toEqual({ PHP: '10000' }); // the resting buy was cancelled: nothing locked
  });

  it('runs onStop cancels after the last bar and leaves nothing locked', () => {
    const s = defineStrategy({
      name: 'rest',
      params: z.object({}),
      symbols: ['BTCPHP'],
      warmup: 1,
      state: () => ({ placed: false }),
      onBar(ctx) {
        if (ctx.state.placed) return;
        ctx.state.placed = true;
        return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '50', tag: 'low' })];
      },
      onStop: () => [cancel({ symbol: 'BTCPHP', tag: 'low' })],
    });
    const run = runBacktest(base(s, bars(...ROWS)));
    expect(run.endBalances).toEqual({ PHP: '10000' });
  });

  it('gives a byte-identical result for the same input', () => {
    const s = () => scripted({ 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' })], 2: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.998' })] });
    expect(JSON.stringify(runBacktest(base(s(), bars(...ROWS))))).toBe(JSON.stringify(runBacktest(base(s(), bars(...ROWS)))));
  });

  it('refuses what it cannot run, saying why', () => {
    const s = scripted({});
    expect(() => runBacktest(base(s, []))).toThrow('no bars for BTCPHP 1m');
    expect(() => runBacktest(base(s, bars(...ROWS), { from: T0 + 3_600_000 }))).toThrow('no bars for BTCPHP 1m in the range asked');
    expect(() => runBacktest(base(s, bars(...ROWS), { symbol: 'ETHPHP' }))).toThrow('the instrument is BTCPHP, the backtest trades ETHPHP');
    expect(() => runBacktest(base(s, bars(...ROWS), { interval: '5m' }))).toThrow("strategy 'scripted' trades BTCPHP on 1m, not BTCPHP 5m: run on 1m (--interval 1m), or set its interval param");
    const eth = runBacktest.bind(null, base(s, bars(...ROWS), { symbol: 'ETHPHP', instrument: { ...inst, symbol: 'ETHPHP' } as typeof inst }));
    expect(eth).toThrow("strategy 'scripted' trades BTCPHP on 1m, not ETHPHP 1m: run on BTCPHP, or set its symbol param");
    expect(() => runBacktest(base(s, [...bars(...ROWS)].reverse()))).toThrow(/not after the previous bar/);
    expect(() => runBacktest(base(s, bars(...ROWS), { fillModel: { volumeShare: 2 } }))).toThrow(/volumeShare/);
  });

  it('honours from / to on open times', () => {
    const run = runBacktest(base(scripted({}), bars(...ROWS), { from: T0 + 60_000, to: T0 + 180_000 }));
    expect([run.barCount, run.from, run.to]).toEqual([2, T0 + 60_000, T0 + 180_000]);
  });

  it('checks orders against the last price the market showed: the last close, or a later fill\'s price', () => {
    // A resting BUY 0.1 @ 150 fills at bar 2's open (bar 1 closed at 200); the strategy buys 0.09
    // more at market as it hears of the fill, with 15 PHP left. Funds for a MARKET order are
    // estimated at the last price: the fill's 150 (13.5 PHP) passes, bar 1's close (18) would not.
    const log: string[] = [];
    const s = defineStrategy({
      name: 'last-price',
      params: z.object({}),
      symbols: ['BTCPHP'],
      state: () => ({ i: 0 }),
      onBar: (ctx) => (ctx.state.i++ === 0 ? [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '150', quantity: '0.1', tag: 'in' })] : undefined),
      onFill: (_ctx, f) => (f.tag === 'in' ? [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '0.09', tag: 'more' })] : undefined),
      onOrderUpdate: (_ctx, u) => void log.push(`${u.tag} ${u.status}`),
    });
    const run = runBacktest(base(s, bars(['100', '100', '100', '100'], ['200', '210', '190', '200'], ['140', '145', '140', '145'], ['145', '145', '145', '145']), { balances: { PHP: '30' } }));
    expect(run.denials, JSON.stringify(run.denials)).toEqual([]);
    expect(run.fills.map((f) => `${f.side} ${f.qty}@${f.price}`)).toEqual(['BUY 0.1@150', 'BUY 0.09@140']);
    expect(log).toContain('more FILLED');
  });

  it('makes the fill and trade lists on first read: metrics from the records equal those of the printed lists', () => {
    const run = runBacktest(base(scripted({ 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'a' })], 2: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.998', tag: 'b' })] }), bars(...ROWS)));
    const unmade = () => ['fills', 'trades', 'equity'].filter((k) => Object.getOwnPropertyDescriptor(run, k)?.get !== undefined);
    expect(unmade()).toEqual(['fills', 'trades', 'equity']);
    const fromRecords = computeMetrics(run);
    expect(unmade()).toEqual(['fills', 'trades', 'equity']); // metrics made none of them
    const printed = JSON.parse(JSON.stringify(run)) as typeof run;
    expect(unmade()).toEqual([]);
    expect(printed.trades).toHaveLength(1);
    expect(Object.keys(printed.fills[0]!)).toEqual(['time', 'symbol', 'side', 'price', 'qty', 'quoteQty', 'commission', 'commissionAsset', 'orderId', 'clientOrderId', 'tradeId', 'isMaker', 'tag']);
    expect(computeMetrics(printed)).toEqual(fromRecords);
    expect(Object.keys(run).indexOf('trades')).toBe(Object.keys(printed).indexOf('trades'));
  });
});


describe('runBacktest: the position held at the end', () => {
  it('is the run\'s openTrade, valued at the last close, in the JSON after the trades; a trip closed before it is a trade', () => {
    const run = runBacktest(
      base(
        scripted({
          0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'a' })],
          1: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.998', tag: 'b' })],
          2: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '2', tag: 'c' })],
        }),
        bars(...ROWS),
      ),
    );
    expect(run.trades).toHaveLength(1);
    // Bought 2 at bar 3's open (96), 0.004 BTC of it paid as the taker fee (0.2%); the first trip sold all it got.
    expect(run.openTrade).toEqual({
      symbol: 'BTCPHP',
      direction: 'LONG',
      entryTime: T0 + 3 * 60_000,
      qty: '1.996',
      cost: '192',
      entryPrice: '96.192384769539',
      markPrice: '95',
      value: '189.62',
      unrealizedPnl: '-2.38',
      realizedPnl: '0',
      fees: '0.384',
      // Held at bar 3's close, the last: one bar, as the closed trip held at bar 1's close counts one.
      barsHeld: 1,
      entryTag: 'c',
    });
    expect(run.trades[0]).toMatchObject({ entryTag: 'a', exitTag: 'b', barsHeld: 1 });
    const keys = Object.keys(JSON.parse(JSON.stringify(run)) as object);
    expect(keys.slice(keys.indexOf('trades'), keys.indexOf('trades') + 3)).toEqual(['trades', 'openTrade', 'equity']);
  });

  it('counts its bars as a closed trip does: base held from the start through every bar is held for all of them', () => {
    const idle = defineStrategy({ name: 'idle', params: z.object({}), symbols: ['BTCPHP'], onBar: () => undefined });
    const all = runBacktest(base(idle, bars(...ROWS), { balances: { BTC: '1', PHP: '0' } }));
    expect(all.openTrade).toMatchObject({ entryTime: T0, qty: '1', barsHeld: 4 });
    const one = runBacktest(base(idle, bars(...ROWS.slice(0, 1)), { balances: { BTC: '1', PHP: '0' } }));
    expect(one.openTrade).toMatchObject({ entryTime: T0, qty: '1', barsHeld: 1 });
  });

  it('carries what partial exits realized while it stayed open: trades, realized and unrealized add up to net PnL', () => {
    // Base held at the start, sold in part and bought back, never flat (a grid around its base).
    const s = scripted({
      0: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.5', tag: 'out' })],
      1: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '0.3', tag: 'back' })],
      2: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.4', tag: 'out' })],
    });
    const run = runBacktest(base(s, bars(...ROWS), { balances: { BTC: '1', PHP: '0' } }));
    expect(run.fills).toHaveLength(3);
    expect(run.trades).toHaveLength(0);
    const open = run.openTrade!;
    expect(Number(open.realizedPnl)).not.toBe(0);
    const m = computeMetrics(run);
    const parts = new D(open.realizedPnl).plus(open.unrealizedPnl);
    expect(parts.minus(m.netPnl).abs().lte('1e-9'), `${parts.toFixed()} vs ${m.netPnl}`).toBe(true);
  });

  it('is absent when the run ended flat (and the JSON has no openTrade key)', () => {
    const run = runBacktest(
      base(
        scripted({
          0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'a' })],
          1: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.998', tag: 'b' })],
        }),
        bars(...ROWS),
      ),
    );
    expect(run.trades).toHaveLength(1);
    expect(run.openTrade).toBeUndefined();
    expect(JSON.stringify(run)).not.toContain('openTrade');
  });
});

describe('runBacktest: the metrics of a run', () => {
  it('counts a bar as exposed when it holds at least the symbol\'s minimum quantity (LOT_SIZE), whatever the fills\' quantities', () => {
    // 1 BTC bought at bar 1's open; 0.998 held after the base fee from bar 1's close on: 3 bars of 4.
    // The fills' quantity ("1") has no decimals: a threshold taken from it would be ~1 BTC, and 0%.
    const run = runBacktest(base(scripted({ 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' })] }), bars(...ROWS)));
    expect(run.lot).toEqual({ minQty: '0.001', stepSize: '0.001' });
    expect(run.equity.map((p) => p.position)).toEqual([0, 0.998, 0.998, 0.998]);
    expect(computeMetrics(run).exposurePct).toBe(75);
    // The same from the run read back from its JSON (the points, not the columns).
    expect(computeMetrics(JSON.parse(JSON.stringify(run)) as typeof run).exposurePct).toBe(75);
  });

  it('does not count the dust a base commission leaves below the minimum quantity', () => {
    // Bought 0.5 (0.4995 after the 0.1% fee), sold 0.499 at bar 2's open: 0.0005 BTC left, under minQty 0.001.
    const run = runBacktest(
      base(
        scripted({ 0: [place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '0.5' })], 1: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.499' })] }),
        bars(...ROWS),
        { fees: { maker: '0.001', taker: '0.001' } },
      ),
    );
    expect(run.equity.map((p) => p.position)).toEqual([0, 0.4995, 0.0005, 0.0005].map((x) => expect.closeTo(x, 12)));
    expect(run.trades).toHaveLength(1);
    expect(computeMetrics(run).exposurePct).toBe(25);
  });
  it('values base held at the start at the first open, as the trade list costs it: net PnL agrees with the trade', () => {
    // 1 BTC and no PHP; bar 0 opens 100 and closes 110; sold at bar 1's open (110), 0.2% taker fee in PHP.
    const run = runBacktest(
      base(scripted({ 0: [place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '1' })] }), bars(['100', '110', '100', '110'], ['110', '110', '110', '110']), {
        balances: { BTC: '1', PHP: '0' },
      }),
    );
    expect(run.trades.map((t) => t.pnl)).toEqual(['9.78']); // 109.78 - 100
    const m = computeMetrics(run);
    expect(m.startEquity).toBe(100);
    expect(m.netPnl).toBeCloseTo(9.78, 9); // was -0.22: the start taken at bar 0's close (110)
  });

  it('gives holding the base from the start the market\'s return, and the first bar\'s return to Sharpe and Sortino', () => {
    const hold = runBacktest(base(scripted({}), bars(['100', '110', '100', '110'], ['110', '120', '110', '120']), { balances: { BTC: '1', PHP: '0' } }));
    const m = computeMetrics(hold);
    expect({ start: m.startEquity, pnl: m.netPnl, ret: m.returnPct }).toEqual({ start: 100, pnl: 20, ret: 20 }); // were 110, 10, 9.09%
    expect(m.marketReturnPct).toBeCloseTo(20, 12);
    // Closes 110, 99, 118.8 from the open 100: bar returns +10%, -10%, +20%.
    const run = runBacktest(base(scripted({}), bars(['100', '110', '100', '110'], ['110', '110', '99', '99'], ['99', '120', '99', '118.8']), { balances: { BTC: '1', PHP: '0' } }));
    const r = [0.1, -0.1, 0.2];
    const mean = (0.1 - 0.1 + 0.2) / 3;
    const sd = Math.sqrt(r.reduce((a, x) => a + (x - mean) ** 2, 0) / 2);
    const perYear = 365 * 24 * 60;
    const s = computeMetrics(run);
    expect(s.sharpe).toBeCloseTo((mean / sd) * Math.sqrt(perYear), 6);
    expect(s.sortino).toBeCloseTo((mean / Math.sqrt(0.01 / 3)) * Math.sqrt(perYear), 6);
    expect(s.maxDrawdownPct).toBeCloseTo(10, 9);
  });

  it('has every reader of the start equity agree: metrics, the report\'s drawdown, returns by day, the summary', () => {
    // 1 BTC held from the open 100 down to the close 95: 5% below the start, from the run's first moment.
    const run = runBacktest(base(scripted({}), bars(['100', '101', '94', '95']), { balances: { BTC: '1', PHP: '0' } }));
    const m = computeMetrics(run);
    expect(startEquityOf(run)).toBe(m.startEquity);
    expect(m.returnPct).toBeCloseTo(-5, 12);
    expect(periodReturns(run, m.startEquity, '1d').map((d) => d.returnPct)).toEqual([expect.closeTo(m.returnPct, 12)]);
    expect(formatSummary(run, m)).toMatch(/^Drawdown {2}deepest 5\.00% from 2024-01-01 00:00 UTC \(100\.00 PHP\) to 2024-01-01 00:01 UTC \(95\.00 PHP\)$/m);
  });
  it('compounds CAGR over the run\'s time, first open to last close: two daily bars are two days', () => {
    // 1 BTC held from the open 100 to the closes 110 and 121: +21% over 2 days (10% a day).
    const day = 86_400_000;
    const daily = [['100', '110', '100', '110'], ['110', '121', '110', '121']].map(([open, high, low, close], i) => ({ openTime: T0 + i * day, closeTime: T0 + (i + 1) * day - 1, open: open!, high: high!, low: low!, close: close!, volume: '100' }));
    const hold = defineStrategy({ name: 'hold', params: z.object({}), symbols: ['BTCPHP'], intervals: ['1d'], onBar: () => undefined });
    const run = runBacktest(base(hold, daily, { interval: '1d', balances: { BTC: '1', PHP: '0' } }));
    expect(run.to - run.from).toBe(2 * day);
    const m = computeMetrics(run);
    expect(m.returnPct).toBeCloseTo(21, 9);
    // Taken from the first close to the last (1 day), it was 1.21^365 - 1; a one-bar run read 0.
    expect(m.cagrPct / ((1.1 ** 365 - 1) * 100)).toBeCloseTo(1, 9);
    const one = computeMetrics(runBacktest(base(hold, daily.slice(0, 1), { interval: '1d', balances: { BTC: '1', PHP: '0' } })));
    expect(one.cagrPct / ((1.1 ** 365 - 1) * 100)).toBeCloseTo(1, 9);
  });
});

describe('runBacktest: what became of the orders sent (run.orders)', () => {
  it('counts each order that reached the venue by how it ended, the open ones by their status, denials apart', () => {
    const P = (o: Omit<Parameters<typeof place>[0], 'symbol'>) => place({ symbol: 'BTCPHP', ...o } as Parameters<typeof place>[0]);
    const strategy = scripted({
      0: [
        P({ side: 'BUY', type: 'MARKET', quantity: '1', tag: 'm' }),
        P({ side: 'BUY', type: 'LIMIT', quantity: '1', price: '50', timeInForce: 'GTC', tag: 'far' }),
        P({ side: 'BUY', type: 'LIMIT', quantity: '1', price: '51', timeInForce: 'GTC', tag: 'open' }),
        P({ side: 'BUY', type: 'LIMIT', quantity: '1', price: '52', timeInForce: 'IOC', tag: 'ioc' }),
        // Under the minimum notional: denied, never sent.
        P({ side: 'BUY', type: 'MARKET', quantity: '0.001', tag: 'tiny' }),
      ],
      2: [cancel({ symbol: 'BTCPHP', tag: 'far' })],
    });
    const run = runBacktest(base(strategy, bars(...ROWS)));
    expect(run.orders).toEqual({ FILLED: 1, CANCELED: 1, EXPIRED: 1, NEW: 1 });
    expect(run.denials).toHaveLength(1);
    expect(formatSummary(run, computeMetrics(run))).toContain('\nOrders    4 sent to the venue: 1 filled, 1 canceled, 1 expired, 1 open\n');
  });
});
