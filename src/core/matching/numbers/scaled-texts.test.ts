import { describe, expect, it } from 'vitest';
import { formatScaled } from './scaled.ts';
import { ScaledTexts } from './scaled-texts.ts';

describe('ScaledTexts', () => {
  it('gives formatScaled for every value, colliding slots included', () => {
    const t = new ScaledTexts(2);
    const values = [0, 1, 10_000, 10_000 + 4096, 2 ** 40 + 5, 5, 10_000, -3, 2 ** 52 + 4096];
    for (let round = 0; round < 2; round++) for (const v of values) expect(t.get(v)).toBe(formatScaled(v, 2));
  });
});
