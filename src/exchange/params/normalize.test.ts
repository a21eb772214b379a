import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import { checkParams } from './check-params.ts';
import { p } from './dsl.ts';
import { normalizeParam } from './normalize.ts';

const amount = p.decimal();

describe('DECIMAL parameters (never a float on the order path)', () => {
  it('take decimal strings and Decimal instances, sent in plain form', () => {
    expect(normalizeParam('quantity', amount, '0.3', { decimalNumbers: 'refuse' })).toEqual({ ok: true, value: '0.3', wire: '0.3' });
    expect(normalizeParam('quantity', amount, '1E-8', { decimalNumbers: 'refuse' })).toEqual({ ok: true, value: '0.00000001', wire: '0.00000001' });
    expect(normalizeParam('quantity', amount, new D('0.1').plus('0.2'), { decimalNumbers: 'refuse' })).toEqual({ ok: true, value: '0.3', wire: '0.3' });
  });

  it('the client refuses a JS number, naming the parameter, the float and the plain text', () => {
    const r = normalizeParam('quantity', amount, 0.1 + 0.2, { decimalNumbers: 'refuse' });
    expect(r).toMatchObject({ ok: false, reason: 'malformed' });
    expect(!r.ok && r.message).toBe(
      "parameter 'quantity' must be a decimal string or a Decimal, not the number 0.30000000000000004: a float cannot carry an exact amount (write '0.30000000000000004' if that is the amount meant)",
    );
    expect(normalizeParam('price', amount, 1e-8, { decimalNumbers: 'refuse' })).toMatchObject({ ok: false, message: expect.stringContaining("write '0.00000001'") });
    const checked = checkParams({ quantity: amount }, undefined, { quantity: 1 }, { decimalNumbers: 'refuse' });
    expect(checked.violations).toMatchObject([{ param: 'quantity', code: -1025 }]);
  });

  it('the sandbox (default) still reads JSON-body numbers as written', () => {
    expect(normalizeParam('amount', amount, 50)).toEqual({ ok: true, value: '50', wire: '50' });
  });
});
