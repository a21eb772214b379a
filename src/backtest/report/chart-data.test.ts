import { describe, expect, it } from 'vitest';
import type { Candle } from '../../core/indicators/candle.ts';
import type { BacktestBar, BacktestFill } from '../types.ts';
import { buildChartData, chooseBucket, toCandles, toCurves, toMarkers, toPlots } from './chart-data.ts';
import { demoBars, demoRun } from './demo-run.ts';

const MIN = 60_000;
const bar = (i: number, o: string, h: string, l: string, c: string): BacktestBar => ({ openTime: i * MIN, closeTime: (i + 1) * MIN - 1, open: o, high: h, low: l, close: c, volume: '1' });

describe('candles', () => {
  it('keeps one candle per bar when under the cap, in seconds', () => {
    expect(toCandles([bar(0, '1', '2', '0.5', '1.5')], 0)).toEqual([{ time: 0, open: 1, high: 2, low: 0.5, close: 1.5 }]);
  });

  it('aggregates into time-aligned buckets: first open, max high, min low, last close', () => {
    const bars = [bar(0, '10', '12', '9', '11'), bar(1, '11', '15', '10', '14'), bar(2, '14', '14', '8', '9'), bar(3, '9', '10', '9', '10')];
    expect(toCandles(bars, 3 * MIN)).toEqual([
      { time: 0, open: 10, high: 15, low: 8, close: 9 },
      { time: 180, open: 9, high: 10, low: 9, close: 10 },
    ]);
  });

  it('picks the smallest standard interval that fits the cap', () => {
    const bars = Array.from({ length: 20_000 }, (_, i) => bar(i, '1', '1', '1', '1'));
    expect(chooseBucket('1m', bars, 5_000)).toEqual({ ms: 5 * MIN, name: '5m' });
    expect(chooseBucket('1m', bars.slice(0, 100), 5_000)).toEqual({ ms: 0, name: '1m' });
    const year = [bar(0, '1', '1', '1', '1'), bar(525_599, '1', '1', '1', '1')];
    expect(chooseBucket('1m', [...year, ...Array.from({ length: 5_000 }, () => year[1]!)], 5_000).name).toBe('2h');
  });
});

describe('markers', () => {
  const fill = (time: number, side: 'BUY' | 'SELL'): BacktestFill => ({ time, symbol: 'X', side, price: '1', qty: '1', quoteQty: '1', commission: '0', commissionAsset: 'Q', orderId: '1', clientOrderId: 'c', tradeId: '1', isMaker: false });

  it('sit on the candle holding the fill, one per candle and side, with a count', () => {
    const candles = toCandles([bar(0, '1', '1', '1', '1'), bar(1, '1', '1', '1', '1'), bar(2, '1', '1', '1', '1')], 0);
    const markers = toMarkers([fill(30_000, 'BUY'), fill(90_000, 'SELL'), fill(100_000, 'SELL'), fill(130_000, 'BUY')], candles);
    expect(markers.map((m) => [m.time, m.text, m.position, m.shape])).toEqual([
      [0, 'B', 'belowBar', 'arrowUp'],
      [60, 'S×2', 'aboveBar', 'arrowDown'],
      [120, 'B', 'belowBar', 'arrowUp'],
    ]);
  });
});

describe('buildChartData', () => {
  it('thins a long run under the cap and keeps the deepest drawdown of each bucket', () => {
    const bars = demoBars(12_000, 2);
    const run = demoRun({ barsData: bars, fast: 20, slow: 60 });
    const data = buildChartData(run, bars, 1_000);
    expect(data.candles.length).toBeLessThanOrEqual(1_000);
    expect(data.equity.length).toBeLessThanOrEqual(1_000);
    expect(data.markers.length).toBeGreaterThan(0);
    for (let i = 1; i < data.candles.length; i++) expect(data.candles[i]!.time).toBeGreaterThan(data.candles[i - 1]!.time);
    for (let i = 1; i < data.equity.length; i++) expect(data.equity[i]!.time).toBeGreaterThan(data.equity[i - 1]!.time);
    const full = buildChartData(run, bars, 100_000);
    const deepest = (pts: { value: number }[]) => Math.min(...pts.map((p) => p.value));
    expect(deepest(data.drawdown)).toBeCloseTo(deepest(full.drawdown), 10);
    expect(data.pricePrecision).toBe(2);
  });

  it('reads a stream of reused Candles (a journal replay) as it reads the run\'s bars', () => {
    const bars = demoBars(12_000, 2);
    const run = demoRun({ barsData: bars, fast: 20, slow: 60 });
    function* stream(): Generator<Candle> {
      // One object for every bar, as journalBars yields: nothing may be kept from it.
      const c = { openTime: 0, closeTime: 0, open: 0, high: 0, low: 0, close: 0, volume: 0, exact: { open: '', high: '', low: '', close: '', volume: '' } };
      for (const b of bars) {
        Object.assign(c, { openTime: b.openTime, closeTime: b.closeTime, open: Number(b.open), high: Number(b.high), low: Number(b.low), close: Number(b.close), volume: Number(b.volume) });
        c.exact = { open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume };
        yield c;
      }
    }
    for (const max of [1_000, 100_000]) expect(buildChartData(run, stream(), max)).toEqual(buildChartData(run, bars, max));
  });

  it('puts each equity and drawdown point on its candle\'s time: the candle the bar belongs to, not its close a bar later', () => {
    const bars = demoBars(300, 4);
    const run = demoRun({ barsData: bars });
    const data = buildChartData(run, bars);
    expect(data.candles.length).toBe(300);
    // The run records equity at each bar's close (59.999 s after a 1m bar's open).
    expect(run.equity[0]!.time).toBe(bars[0]!.closeTime);
    expect(data.equity.map((p) => p.time)).toEqual(data.candles.map((c) => c.time));
    expect(data.drawdown.map((p) => p.time)).toEqual(data.candles.map((c) => c.time));
    expect(data.equity.map((p) => p.value)).toEqual(run.equity.map((p) => p.equity));
  });

  it('thinned, keeps one point per candle: the equity at the close of its last bar, the deepest drawdown of its bars', () => {
    const bars = demoBars(12_000, 2);
    const run = demoRun({ barsData: bars, fast: 20, slow: 60 });
    const data = buildChartData(run, bars, 1_000);
    expect(data.candleInterval).toBe('15m');
    expect(data.equity.map((p) => p.time)).toEqual(data.candles.map((c) => c.time));
    expect(data.drawdown.map((p) => p.time)).toEqual(data.candles.map((c) => c.time));
    const ms = 15 * MIN;
    const lastIn = new Map<number, number>();
    for (const p of run.equity) lastIn.set(Math.floor(p.time / ms) * ms / 1000, p.equity);
    expect(data.equity.map((p) => p.value)).toEqual(data.candles.map((c) => lastIn.get(c.time)));
  });

  it('without candles, keeps the points at their close times, at most `max` of them, the first, the last and the extremes among them', () => {
    const bars = demoBars(300, 4);
    const run = demoRun({ barsData: bars });
    const { equity, drawdown } = toCurves(run, [], 100);
    expect(equity.length).toBeLessThanOrEqual(100);
    expect(equity.length).toBeGreaterThan(50);
    const at = (i: number) => ({ time: Math.floor(bars[i]!.closeTime / 1000), value: run.equity[i]!.equity });
    expect(equity[0]).toEqual(at(0));
    expect(equity[equity.length - 1]).toEqual(at(299));
    const values = run.equity.map((p) => p.equity);
    expect(Math.min(...equity.map((p) => p.value))).toBe(Math.min(...values));
    expect(Math.max(...equity.map((p) => p.value))).toBe(Math.max(...values));
    // The deepest drawdown of the whole run is a point of the thinned one.
    const full = toCurves(run, toCandles(bars, 0), 1_000).drawdown;
    expect(Math.min(...drawdown.map((p) => p.value))).toBe(Math.min(...full.map((p) => p.value)));
  });
});

describe('plots', () => {
  it('put a value plotted at a bar\'s onBar (its close + 1 ms) on that bar\'s candle; a thinned candle keeps the last; palette colours for lines without one', () => {
    const bars = demoBars(10, 2);
    const run = demoRun({ barsData: bars });
    const at = (i: number) => bars[i]!.closeTime + 1;
    const plots = [
      { name: 'a', pane: 'price' as const, points: bars.map((_, i): [number, number] => [at(i), i]) },
      { name: 'b', pane: 'below' as const, color: '#010203', points: [[at(3), 7]] as [number, number][] },
    ];
    const perBar = toPlots({ ...run, plots }, toCandles(bars, 0));
    expect(perBar[0]!.points).toEqual(bars.map((b, i) => ({ time: Math.floor(b.openTime / 1000), value: i })));
    expect(perBar.map((p) => [p.name, p.pane, p.color])).toEqual([['a', 'price', '#f59e0b'], ['b', 'below', '#010203']]);
    // Five-minute candles: the last value of the minutes in each.
    const fives = toCandles(bars, 5 * 60_000);
    const thinned = toPlots({ ...run, plots }, fives);
    expect(thinned[0]!.points.map((p) => p.value)).toEqual(fives.map((_, k) => Math.min(9, 5 * k + 4 - (Math.floor(bars[0]!.openTime / 60_000) % 5))));
    expect(thinned[0]!.points.map((p) => p.time)).toEqual(fives.map((c) => c.time));
    expect(buildChartData({ ...run, plots }, bars).plots).toEqual(perBar);
    expect(buildChartData(run, bars).plots).toEqual([]);
  });
});
