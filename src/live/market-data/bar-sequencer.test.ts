/** BarSequencer: delivery order by open time (spec 4.4: a kline is identified by its open time), on fixed and calendar intervals. */
import { describe, expect, it } from 'vitest';
import { BarSequencer } from './bar-sequencer.ts';
import { WeightPacer } from './weight-pacer.ts';

const T0 = Date.UTC(2026, 0, 5, 10, 0);
const MIN = 60_000;

describe('BarSequencer', () => {
  it('delivers forward only: the same bar again is a duplicate, an older one late', () => {
    const s = new BarSequencer('1m', T0);
    expect(s.next).toBe(T0);
    expect(s.judge(T0)).toBe('deliver');
    s.delivered(T0);
    expect(s.judge(T0)).toBe('duplicate');
    expect(s.judge(T0 - MIN)).toBe('late');
    expect(s.next).toBe(T0 + MIN);
    expect(() => s.delivered(T0)).toThrow(RangeError);
  });

  it('a bar past the next expected one may follow a gap; the first wanted bar never does', () => {
    const s = new BarSequencer('1m', T0);
    expect(s.gapBefore(T0)).toBe(false);
    expect(s.gapBefore(T0 + MIN)).toBe(true);
    s.delivered(T0);
    expect(s.gapBefore(T0 + MIN)).toBe(false);
    expect(s.gapBefore(T0 + 3 * MIN)).toBe(true);
  });

  it('months: the next bar opens on the first of the next month', () => {
    const jan = Date.UTC(2026, 0, 1);
    const s = new BarSequencer('1M', jan);
    expect(s.next).toBe(jan);
    s.delivered(jan);
    expect(s.next).toBe(Date.UTC(2026, 1, 1));
    expect(s.gapBefore(Date.UTC(2026, 1, 1))).toBe(false);
    expect(s.gapBefore(Date.UTC(2026, 2, 1))).toBe(true);
  });
});

describe('WeightPacer', () => {
  it('takes at most its share of each pool per sliding window, then says how long to wait', () => {
    const p = new WeightPacer([{ pool: 'IP', limit: 120, windowMs: MIN, usage: 0, capacity: 120 }], 0.2);
    expect(p.limits.get('IP')).toBe(24);
    for (let i = 0; i < 24; i++) expect(p.take([{ pool: 'IP', weight: 1 }], T0 + i * 1000)).toBe(0);
    expect(p.take([{ pool: 'IP', weight: 1 }], T0 + 24_000)).toBe(36_000);
    expect(p.take([{ pool: 'IP', weight: 1 }], T0 + MIN)).toBe(0);
    expect(() => new WeightPacer([], 0)).toThrow(/pollWeightShare/);
  });
});
