import { describe, expect, it } from 'vitest';
import { intOption, numberOption } from './options.ts';

describe('numberOption', () => {
  const share = (text: string | undefined) => numberOption('--volume-share', text, 'a number in (0, 1]', (n) => n > 0 && n <= 1);

  it('reads a plain decimal in range; absent is undefined', () => {
    expect(share('0.5')).toBe(0.5);
    expect(share(' 1 ')).toBe(1);
    expect(share(undefined)).toBeUndefined();
  });

  it('refuses other text naming the flag, what it takes, and the text as typed', () => {
    for (const t of ['abc', '', '0x1', '1e-1', 'NaN', '2']) expect(() => share(t)).toThrowError(`--volume-share: expected a number in (0, 1], got '${t}'`);
    expect(() => intOption('--folds', '1.5', 1)).toThrowError("--folds: expected a whole number >= 1, got '1.5'");
    expect(intOption('--workers', '0', 0)).toBe(0);
  });
});
