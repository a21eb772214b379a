import { describe, expect, it } from 'vitest';
import { NumberWindow } from './window.ts';

describe('NumberWindow', () => {
  it('push returns what fell out once full, undefined while filling', () => {
    const w = new NumberWindow(3);
    expect([1, 2, 3].map((v) => w.push(v))).toEqual([undefined, undefined, undefined]);
    expect(w.full).toBe(true);
    expect(w.push(4)).toBe(1);
    expect(w.push(5)).toBe(2);
    expect([0, 1, 2].map((i) => w.get(i))).toEqual([3, 4, 5]);
    expect(w.sum()).toBe(12);
  });

  it('shift leaves the value that fell out in `out` (0 while filling), as push returns it', () => {
    const a = new NumberWindow(4);
    const b = new NumberWindow(4);
    const values = [5, -1.5, 7, 0.25, 3, 9, -2, 11, 4];
    for (const v of values) {
      const pushed = a.push(v);
      b.shift(v);
      expect(b.out).toBe(pushed ?? 0);
    }
    expect(b.sum()).toBe(a.sum());
    expect(b.length).toBe(4);
  });

  it('clear empties it; the next shifts fill again', () => {
    const w = new NumberWindow(2);
    w.shift(1);
    w.shift(2);
    w.shift(3);
    expect(w.out).toBe(1);
    w.clear();
    w.shift(8);
    expect(w.out).toBe(0);
    expect(w.length).toBe(1);
    expect(w.sum()).toBe(8);
  });
});

describe('NumberWindow.shiftAt', () => {
  it('appends values[i], as shift(values[i]) does', () => {
    const a = new NumberWindow(3);
    const b = new NumberWindow(3);
    const values = Float64Array.from([2, 4, 8, 16, 32, 64]);
    for (let i = 0; i < values.length; i++) {
      a.shift(values[i] as number);
      b.shiftAt(values, i);
      expect(b.out).toBe(a.out);
    }
    expect(b.sum()).toBe(16 + 32 + 64);
  });
});
