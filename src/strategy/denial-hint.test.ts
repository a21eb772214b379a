import { describe, expect, it } from 'vitest';
import { denialHint, withDenialHint } from './denial-hint.ts';

describe('withDenialHint', () => {
  it('adds the helper that avoids a filter denial', () => {
    expect(withDenialHint('Filter failure: LOT_SIZE: quantity 1.0000001 is not a multiple of stepSize 0.000001 above minQty 0.000001')).toBe(
      'Filter failure: LOT_SIZE: quantity 1.0000001 is not a multiple of stepSize 0.000001 above minQty 0.000001 (hint: ctx.instrument().roundQty() puts a quantity on the step)',
    );
    expect(withDenialHint('Filter failure: LOT_SIZE: quantity 500 is above maxQty 100')).toMatch(/\(hint: ctx\.instrument\(\)\.capQty\(\)/);
  });

  it('leaves a reason no helper avoids as it is', () => {
    const reason = 'Account has insufficient balance for requested action: needs 10 PHP';
    expect(withDenialHint(reason)).toBe(reason);
    expect(denialHint([reason])).toBeUndefined();
  });
});
