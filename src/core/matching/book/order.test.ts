import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../portfolio/amount.ts';
import { Order } from './order.ts';
import { formatScaled } from '../numbers/scaled.ts';
import type { SymbolBook } from './symbol-book.ts';

/** An order shell with just what the cumulative quote reads (pd 2 + qd 6 decimals). */
function shell(): Order {
  const o = Object.create(Order.prototype) as Order;
  Object.assign(o, { cumN: 0, x: { explicitCid: null, prevSameClientId: null, quoteQty: 0n, cumBig: null }, acct: { sb: { spec: { pd: 2, qd: 6, notionalK: 10n ** 10n }, text: formatScaled } as unknown as SymbolBook } });
  return o;
}

describe('Order cumulative quote', () => {
  it('adds price * lots exactly, as a number below 2^53 and as a bigint above', () => {
    const o = shell();
    o.addQuote(10_000, 25);
    expect(o.cumQuote).toBe(250_000n * 10n ** 10n);
    expect(o.cumQuoteText).toBe('0.0025');
    o.addQuote(9_000_000_000, 1_000_000_000);
    o.addQuote(3, 7);
    const exact = 250_000n + 9_000_000_000n * 1_000_000_000n + 21n;
    expect(o.cumBig).toBe(exact);
    expect(o.cumQuote).toBe(exact * 10n ** 10n);
    expect(o.cumQuoteText).toBe(formatAmount(exact * 10n ** 10n));
  });
});
