import { describe, expect, it } from 'vitest';
import { TextMemo } from './text-memo.ts';

describe('TextMemo', () => {
  it('gives back the value of the text it holds, nothing for others, the latest per slot', () => {
    const m = new TextMemo<number>(2);
    expect(m.get('1.5')).toBeUndefined();
    m.set('1.5', 15);
    expect(m.get('1.5')).toBe(15);
    for (let i = 0; i < 20; i++) m.set(`${i}.25`, i);
    expect(m.get('19.25')).toBe(19);
    expect(m.get('')).toBeUndefined();
    expect(() => new TextMemo(3)).toThrow(RangeError);
  });
});
