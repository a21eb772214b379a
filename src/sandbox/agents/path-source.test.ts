import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import { mulberry32 } from '../../core/synthetic/index.ts';
import { pathPoints, type PathOptions, type PathPoint } from './path-source.ts';
import type { BarSource, SourceBar } from './sources/index.ts';
import { rulesOf } from './test-support.ts';

const BARS: SourceBar[] = [
  { openTime: 0, open: '100.00', high: '101.00', low: '99.50', close: '100.50', volume: '4' },
  { openTime: 60_000, open: '100.50', high: '100.504', low: '98.00', close: '98.20', volume: '2.5' },
];
const source: BarSource = { label: 'test', intervalMs: 60_000, bars: () => BARS, close: () => undefined };
const options = (o: Partial<PathOptions> = {}): PathOptions => ({ barMs: 1000, steps: 4, rng: mulberry32(1), rules: rulesOf(), volumeScale: 1, onEnd: 'hold', ...o });
const take = (it: Iterator<PathPoint>, n: number) => Array.from({ length: n }, () => it.next()).flatMap((r) => (r.done ? [] : [r.value]));

describe('pathPoints', () => {
  it('plays each bar as timed points on the symbol grid, open first and close last', () => {
    const points = [...pathPoints(source, options())];
    expect(points.map((p) => [p.bar, p.step, p.offsetMs])).toEqual([
      [0, 0, 0],
      [0, 1, 250],
      [0, 2, 500],
      [0, 3, 750],
      [1, 0, 1000],
      [1, 1, 1250],
      [1, 2, 1500],
      [1, 3, 1750],
    ]);
    expect(points[0]!.price).toBe('100.00');
    expect(points[3]!.price).toBe('100.50');
    expect(new Set(points.slice(0, 4).map((p) => p.price))).toEqual(new Set(['100.00', '101.00', '99.50', '100.50']));
    // 100.504 is not on the 0.01 grid: rounded.
    expect(points.slice(4).map((p) => p.price)).toContain('100.50');
    expect(points.every((p) => p.units === rulesOf().units(p.price))).toBe(true);
  });

  it('splits each bar volume over its points, scaled', () => {
    const points = [...pathPoints(source, options({ volumeScale: 2, steps: 6 }))];
    const sum = (bar: number) => points.filter((p) => p.bar === bar).reduce((s, p) => s.plus(p.volume), new D(0));
    expect(sum(0).toNumber()).toBeCloseTo(8, 10);
    expect(sum(1).toNumber()).toBeCloseTo(5, 10);
  });

  it('loops the source with onEnd loop, bar numbers and times running on', () => {
    const points = take(pathPoints(source, options({ onEnd: 'loop' })), 20);
    expect(points).toHaveLength(20);
    expect(points[16]).toMatchObject({ bar: 4, step: 0, offsetMs: 4000, price: '100.00' });
  });

  it('ends on an empty source even when looping', () => {
    const empty: BarSource = { ...source, bars: () => [] };
    expect([...pathPoints(empty, options({ onEnd: 'loop' }))]).toEqual([]);
  });
});
