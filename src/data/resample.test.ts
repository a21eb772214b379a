import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candle } from '../core/indicators/candle.ts';
import { canResample, PeriodStream, resampleBars } from './resample.ts';

const M = 60_000;
const T = Date.UTC(2024, 0, 1); // a Monday

function bar(openTime: number, o: string, h: string, l: string, c: string, v: string, len = M): Candle {
  return { openTime, closeTime: openTime + len - 1, open: Number(o), high: Number(h), low: Number(l), close: Number(c), volume: Number(v), exact: { open: o, high: h, low: l, close: c, volume: v } };
}

describe('resampleBars', () => {
  it('makes each period from its bars: first open, highest high, lowest low, last close, exact volume sum, the texts kept', () => {
    const src = [
      bar(T, '10.00', '10.50', '9.90', '10.20', '0.1'),
      bar(T + M, '10.20', '11.00', '10.10', '10.90', '0.2'),
      bar(T + 4 * M, '10.90', '10.95', '9.50', '9.60', '1.05'),
      bar(T + 5 * M, '9.60', '9.70', '9.55', '9.65', '2'),
      bar(T + 9 * M, '9.65', '9.66', '9.60', '9.62', '0.5'),
    ];
    const out = [...resampleBars(src, '5m')];
    expect(out).toEqual([
      { openTime: T, closeTime: T + 5 * M - 1, open: 10, high: 11, low: 9.5, close: 9.6, volume: 1.35, exact: { open: '10.00', high: '11.00', low: '9.50', close: '9.60', volume: '1.35' } },
      { openTime: T + 5 * M, closeTime: T + 10 * M - 1, open: 9.6, high: 9.7, low: 9.55, close: 9.62, volume: 2.5, exact: { open: '9.60', high: '9.70', low: '9.55', close: '9.62', volume: '2.5' } },
    ]);
    // 0.1 + 0.2 summed exactly (a double sum gives 0.30000000000000004)
    const sum = [bar(T, '1', '1', '1', '1', '0.1'), bar(T + M, '1', '1', '1', '1', '0.2'), bar(T + 2 * M, '1', '1', '1', '1', '0')];
    expect([...resampleBars(sum, '3m')][0]!.exact.volume).toBe('0.3');
  });

  it('leaves out a first period the source starts inside and a last one it ends inside', () => {
    // 16:20 .. 18:39 in minutes: the 16:00 hour lacks its first 20 minutes, the 18:00 hour its last 20.
    const H = 60 * M;
    const at = T + 16 * H;
    const src = Array.from({ length: 140 }, (_, i) => bar(at + 20 * M + i * M, String(100 + i), String(101 + i), String(99 + i), String(100.5 + i), '1'));
    const out = [...resampleBars(src, '1h')];
    expect(out).toEqual([{ openTime: at + H, closeTime: at + 2 * H - 1, open: 140, high: 200, low: 139, close: 199.5, volume: 60, exact: { open: '140', high: '200', low: '139', close: '199.5', volume: '60' } }]);
    // With the detail, the same bar and only its own minutes.
    const detailed = [...resampleBars(src, '1h', { detail: true })];
    expect(detailed.map((b) => [b.openTime, b.detail.length, b.detail[0]!.openTime, b.detail.at(-1)!.closeTime])).toEqual([[at + H, 60, at + H, at + 2 * H - 1]]);
    // A source that ends on a period's last minute keeps that period; one inside a single period makes nothing.
    expect([...resampleBars(src.slice(40, 100), '1h')].map((b) => b.openTime)).toEqual([at + H]);
    expect([...resampleBars(src.slice(40, 99), '1h')]).toEqual([]);
    expect([...resampleBars(src.slice(0, 30), '1h')]).toEqual([]);
    expect([...resampleBars([], '1h')]).toEqual([]);
  });

  it('keeps a period with bars missing in the middle of the source: made of those there are, closing at the period\'s close; a period with none makes no bar', () => {
    // 5m periods from minutes 0-4, 5 and 9 (6-8 missing), none in 10-14, 15-19.
    const src = [0, 1, 2, 3, 4, 5, 9, 15, 16, 17, 18, 19].map((i) => bar(T + i * M, String(10 + i), String(11 + i), String(9 + i), String(10 + i), '2'));
    const out = [...resampleBars(src, '5m')];
    expect(out.map((b) => [b.openTime - T, b.closeTime - T, b.exact.open, b.exact.close, b.exact.volume])).toEqual([
      [0, 5 * M - 1, '10', '14', '10'],
      [5 * M, 10 * M - 1, '15', '19', '4'],
      [15 * M, 20 * M - 1, '25', '29', '10'],
    ]);
    // Missing minutes at the start or end of a period in the middle do not make it partial: only the source's ends do.
    const holes = [0, 1, 2, 3, 4, 6, 7, 8, 10, 11, 12, 13, 14].map((i) => bar(T + i * M, '1', '1', '1', '1', '1'));
    expect([...resampleBars(holes, '5m')].map((b) => [b.openTime - T, b.exact.volume])).toEqual([
      [0, '5'],
      [5 * M, '3'],
      [10 * M, '5'],
    ]);
  });

  it('copies what it keeps: a source that reuses one candle object gives the same periods', () => {
    const bars = [bar(T, '1', '2', '0.5', '1.5', '1'), bar(T + M, '1.5', '3', '1', '2.5', '1'), bar(T + 3 * M, '2', '2', '2', '2', '1')];
    function* reused(): Generator<Candle> {
      const c = { ...bars[0]!, exact: { ...bars[0]!.exact } } as { -readonly [K in keyof Candle]: Candle[K] };
      for (const b of bars) {
        Object.assign(c, b);
        c.exact = b.exact;
        yield c;
      }
    }
    expect([...resampleBars(reused(), '3m')]).toEqual([...resampleBars(bars, '3m')]);
  });

  it('aligns weeks to Monday and months to the calendar (the partial ones at the ends left out)', () => {
    // 2023-12-29 (a Friday) .. 2024-02-06
    const days = Array.from({ length: 40 }, (_, i) => bar(T - 3 * 86_400_000 + i * 86_400_000, '1', '1', '1', '1', '1', 86_400_000));
    const weeks = [...resampleBars(days, '1w')];
    expect(weeks.map((w) => new Date(w.openTime).toISOString().slice(0, 10))).toEqual(['2024-01-01', '2024-01-08', '2024-01-15', '2024-01-22', '2024-01-29']);
    expect(weeks.map((w) => w.exact.volume)).toEqual(['7', '7', '7', '7', '7']);
    const months = [...resampleBars(days, '1M')];
    expect(months.map((m) => [new Date(m.openTime).toISOString().slice(0, 10), m.exact.volume, new Date(m.closeTime + 1).toISOString().slice(0, 10)])).toEqual([['2024-01-01', '31', '2024-02-01']]);
    // Whole calendar months of 28 to 31 days: Dec 2023 .. Feb 2024.
    const whole = Array.from({ length: 31 + 31 + 29 }, (_, i) => bar(Date.UTC(2023, 11, 1) + i * 86_400_000, '1', '1', '1', '1', '1', 86_400_000));
    expect([...resampleBars(whole, '1M')].map((m) => [new Date(m.openTime).toISOString().slice(0, 10), m.exact.volume])).toEqual([
      ['2023-12-01', '31'],
      ['2024-01-01', '31'],
      ['2024-02-01', '29'],
    ]);
  });
});

describe('canResample', () => {
  it('is true when the shorter interval tiles the longer one', () => {
    expect(canResample('1m', '5m')).toBe(true);
    expect(canResample('1m', '1M')).toBe(true);
    expect(canResample('1h', '1w')).toBe(true);
    expect(canResample('1d', '3d')).toBe(true);
    expect(canResample('3m', '15m')).toBe(true);
    expect(canResample('3m', '5m')).toBe(false);
    expect(canResample('5m', '1m')).toBe(false);
    expect(canResample('1m', '1m')).toBe(false);
    expect(canResample('3d', '1w')).toBe(false);
    expect(canResample('1w', '1M')).toBe(false);
    expect(canResample('1M', '1M')).toBe(false);
  });
});

describe('resampleBars with detail', () => {
  it('hands each bar out with copies of the bars it was made from', () => {
    const src = [bar(T, '1', '2', '0.5', '1.5', '1'), bar(T + M, '1.5', '3', '1', '2.5', '1'), bar(T + 5 * M, '2', '2', '2', '2', '1'), bar(T + 9 * M, '2', '2', '2', '2', '1')];
    const out = [...resampleBars(src, '5m', { detail: true })];
    expect(out.map((b) => b.detail.map((d) => d.openTime))).toEqual([[T, T + M], [T + 5 * M, T + 9 * M]]);
    expect(out[0]!.detail[1]).toEqual(src[1]);
    expect(out[0]!.detail[1]).not.toBe(src[1]);
    expect(out[0]!.exact.high).toBe('3');
  });
});

describe('PeriodStream', () => {
  /** Every period a stream hands out, with the index of the source bar that completed it. */
  function streamed(src: readonly Candle[], interval: '5m' | '1h'): [number, Candle][] {
    const stream = new PeriodStream(interval);
    const got: [number, Candle][] = [];
    src.forEach((c, i) => {
      const out: Candle[] = [];
      stream.push(c, out);
      for (const p of out) got.push([i, p]);
    });
    return got;
  }

  it('hands a period out with the bar that reaches its close, or, missing its last bars, with the next period\'s first bar', () => {
    const src = [
      bar(T + 2 * M, '1', '1', '1', '1', '1'), // the first 5 minutes start inside: left out
      bar(T + 4 * M, '1', '1', '1', '1', '1'),
      bar(T + 5 * M, '2', '3', '2', '2', '1'),
      bar(T + 9 * M, '2', '2', '1', '1', '2'), // closes the 5m period at T + 10m
      bar(T + 10 * M, '5', '5', '5', '5', '1'),
      bar(T + 11 * M, '5', '6', '5', '6', '1'), // the period ends short: handed out with the next bar
      bar(T + 19 * M, '7', '7', '7', '7', '1'), // alone in its period, and closing it
      bar(T + 20 * M, '8', '8', '8', '8', '1'), // still open when the source ends: never handed out
    ];
    const got = streamed(src, '5m');
    expect(got.map(([i, p]) => [i, (p.openTime - T) / M, p.exact.open, p.exact.high, p.exact.low, p.exact.close, p.exact.volume])).toEqual([
      [3, 5, '2', '3', '1', '1', '3'],
      [6, 10, '5', '6', '5', '6', '2'],
      [6, 15, '7', '7', '7', '7', '1'],
    ]);
  });

  it('hands out exactly the bars resampleBars makes, each no earlier than the bar that completes it closes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 999 })), { minLength: 1, maxLength: 300 }), fc.integer({ min: 0, max: 200 }), (steps, start) => {
        let t = T + start * M;
        const src = steps.map(([step, price]) => {
          t += step * M;
          return bar(t, String(price), String(price + 1), String(price - 0.5), String(price + 0.25), '0.5');
        });
        for (const interval of ['5m', '1h'] as const) {
          const got = streamed(src, interval);
          expect(got.map(([, p]) => p)).toEqual([...resampleBars(src, interval)]);
          // No lookahead: a period is handed out once its close has passed (at the close of the bar that completed it).
          for (const [i, p] of got) expect(src[i]!.closeTime).toBeGreaterThanOrEqual(p.closeTime);
        }
      }),
    );
  });
});
