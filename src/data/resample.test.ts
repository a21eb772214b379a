import { describe, expect, it } from 'vitest';
import type { Candle } from '../core/indicators/candle.ts';
import { canResample, resampleBars } from './resample.ts';

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
    ];
    const out = [...resampleBars(src, '5m')];
    expect(out).toEqual([
      { openTime: T, closeTime: T + 5 * M - 1, open: 10, high: 11, low: 9.5, close: 9.6, volume: 1.35, exact: { open: '10.00', high: '11.00', low: '9.50', close: '9.60', volume: '1.35' } },
      { openTime: T + 5 * M, closeTime: T + 10 * M - 1, open: 9.6, high: 9.7, low: 9.55, close: 9.65, volume: 2, exact: { open: '9.60', high: '9.70', low: '9.55', close: '9.65', volume: '2' } },
    ]);
    // 0.1 + 0.2 summed exactly (a double sum gives 0.30000000000000004)
    expect([...resampleBars(src.slice(0, 2), '5m')][0]!.exact.volume).toBe('0.3');
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

  it('aligns weeks to Monday and months to the calendar', () => {
    const days = Array.from({ length: 40 }, (_, i) => bar(T - 3 * 86_400_000 + i * 86_400_000, '1', '1', '1', '1', '1', 86_400_000));
    const weeks = [...resampleBars(days, '1w')];
    expect(weeks.map((w) => new Date(w.openTime).toISOString().slice(0, 10))).toEqual(['2023-12-25', '2024-01-01', '2024-01-08', '2024-01-15', '2024-01-22', '2024-01-29', '2024-02-05']);
    expect(weeks[0]!.exact.volume).toBe('3'); // Dec 29-31
    const months = [...resampleBars(days, '1M')];
    expect(months.map((m) => [new Date(m.openTime).toISOString().slice(0, 10), m.exact.volume, new Date(m.closeTime + 1).toISOString().slice(0, 10)])).toEqual([
      ['2023-12-01', '3', '2024-01-01'],
      ['2024-01-01', '31', '2024-02-01'],
      ['2024-02-01', '6', '2024-03-01'],
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
    const src = [bar(T, '1', '2', '0.5', '1.5', '1'), bar(T + M, '1.5', '3', '1', '2.5', '1'), bar(T + 5 * M, '2', '2', '2', '2', '1')];
    const out = [...resampleBars(src, '5m', { detail: true })];
    expect(out.map((b) => b.detail.map((d) => d.openTime))).toEqual([[T, T + M], [T + 5 * M]]);
    expect(out[0]!.detail[1]).toEqual(src[1]);
    expect(out[0]!.detail[1]).not.toBe(src[1]);
    expect(out[0]!.exact.high).toBe('3');
  });
});
