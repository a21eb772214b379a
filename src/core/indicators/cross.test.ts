import { describe, expect, it } from 'vitest';
import { CrossDetector, crossedAbove, crossedBelow } from './cross.ts';

describe('crossings', () => {
  it('above: now strictly above, before at or below', () => {
    expect(crossedAbove(1, 3, 2, 2)).toBe(true);
    expect(crossedAbove(2, 3, 2, 2)).toBe(true); // touching then leaving counts
    expect(crossedAbove(1, 2, 2, 2)).toBe(false); // reaching is not crossing
    expect(crossedAbove(3, 4, 2, 2)).toBe(false); // already above
    expect(crossedAbove(undefined, 4, 2, 2)).toBe(false); // warm-up
  });

  it('below mirrors above', () => {
    expect(crossedBelow(3, 1, 2, 2)).toBe(true);
    expect(crossedBelow(1, 0, 2, 2)).toBe(false);
  });

  it('detector reports each crossing once', () => {
    const d = new CrossDetector();
    const a = [1, 2, 3, 4, 3, 1];
    const b = [2, 2.5, 2.5, 2.5, 2.5, 2.5];
    expect(a.map((x, i) => d.update(x, b[i]))).toEqual([undefined, undefined, 'above', undefined, undefined, 'below']);
    expect(d.value).toBe('below');
    d.reset();
    expect(d.update(5, 1)).toBeUndefined();
  });
});
