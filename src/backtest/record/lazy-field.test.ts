import { describe, expect, it } from 'vitest';
import { defineLazyField, isLazyField, lazySource } from './lazy-field.ts';

describe('defineLazyField', () => {
  it('builds on first read, once, in the key position, and reads as plain data everywhere', () => {
    let built = 0;
    const o = { a: 1, list: [] as number[], z: 2 };
    const source = [1, 2, 3];
    defineLazyField(o, 'list', source, (s) => {
      built++;
      return [...s];
    });
    expect(lazySource(o, 'list')).toBe(source);
    expect(isLazyField(o, 'list')).toBe(true);
    expect(Object.keys(o)).toEqual(['a', 'list', 'z']);
    expect(built).toBe(0);
    expect(JSON.stringify(o)).toBe('{"a":1,"list":[1,2,3],"z":2}');
    expect(built).toBe(1);
    expect(isLazyField(o, 'list')).toBe(false);
    expect(lazySource(o, 'list')).toBeUndefined();
    expect(o.list).toBe(o.list);
    expect({ ...o }).toEqual({ a: 1, list: [1, 2, 3], z: 2 });
    expect(built).toBe(1);
  });

  it('an assignment replaces it without building', () => {
    let built = 0;
    const o = { list: [] as number[] };
    defineLazyField(o, 'list', [9], (s) => {
      built++;
      return s;
    });
    o.list = [4];
    expect(lazySource(o, 'list')).toBeUndefined();
    expect([o.list, built, isLazyField(o, 'list')]).toEqual([[4], 0, false]);
    expect(structuredClone(o)).toEqual({ list: [4] });
  });
});
