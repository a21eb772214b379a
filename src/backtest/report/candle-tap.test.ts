import { describe, expect, it } from 'vitest';
import type { BarInput } from '../sources/bar-input.ts';
import { buildChartData } from './chart-data.ts';
import { bucketForRange, CandleTap } from './candle-tap.ts';
import { demoBars, demoRun } from './demo-run.ts';

/** The bars as a stream (not an array): the report then chooses its bucket from the run, as for a journal's bars. */
function* stream(bars: readonly BarInput[]): Generator<BarInput> {
  yield* bars;
}

describe('CandleTap: the report\'s candles gathered while the run reads the bars', () => {
  // More bars than the report's 5,000 candles: they are gathered into 3-minute candles.
  const bars = demoBars(12_000);
  const run = demoRun({ barsData: bars });
  const range = { first: bars[0]!.openTime, last: bars.at(-1)!.openTime, count: bars.length };

  it('chooses before the run the bucket the report chooses from the run', () => {
    expect(bucketForRange('1m', range)).toEqual({ ms: 3 * 60_000, name: '3m' });
    expect(bucketForRange('1m', { first: range.first, last: range.first + 99 * 60_000 })).toEqual({ ms: 0, name: '1m' });
    expect(bucketForRange('7m', range)).toBeUndefined();
  });

  it('gives the report the chart data reading the bars again would give, without reading them again', () => {
    let rereads = 0;
    const tap = new CandleTap(stream(bars), () => (rereads++, stream(bars)), bucketForRange('1m', range)!);
    // The run's pass: every bar handed on, in order.
    expect([...tap]).toEqual(bars);
    expect(buildChartData(run, tap)).toEqual(buildChartData(run, stream(bars)));
    expect(rereads).toBe(0);
    expect(buildChartData(run, tap).candles).toHaveLength(4_000);
  });

  it('reads the bars again when the run stopped before their end, or when the report chose another bucket', () => {
    let rereads = 0;
    const cut = new CandleTap(stream(bars), () => (rereads++, stream(bars)), bucketForRange('1m', range)!);
    const it = cut[Symbol.iterator]();
    for (let i = 0; i < 100; i++) it.next();
    it.return?.();
    expect(buildChartData(run, cut)).toEqual(buildChartData(run, stream(bars)));
    expect(rereads).toBe(1);
    const other = new CandleTap(stream(bars), () => (rereads++, stream(bars)), { ms: 5 * 60_000, name: '5m' });
    expect([...other]).toHaveLength(bars.length);
    expect(buildChartData(run, other)).toEqual(buildChartData(run, stream(bars)));
    expect(rereads).toBe(2);
  });

  it('hands on the source\'s size hint, which the run sizes its columns by', () => {
    const source = Object.assign(stream(bars), { sizeHint: 12_345 });
    expect(new CandleTap(source, () => stream(bars), { ms: 0, name: '1m' }).sizeHint).toBe(12_345);
  });
});
