/** callback-event.ts: the spec 6.1 body read strictly, the event's key normalised. */
import { describe, expect, it } from 'vitest';
import { readCallback } from './callback-event.ts';

const body = (data: Record<string, unknown>, name = 'invoice.updated') => ({ event: { name, data: { id: '1539174220746990336', currency: 'PHP', amount: '100', amount_received: '40', external_transaction_id: 'o-1', ...data } } });

describe('readCallback', () => {
  it('reads an event; the amount received is the key in one notation', () => {
    const a = readCallback(body({ amount_received: '40.00' }));
    expect(a.ok && a.event).toMatchObject({ name: 'invoice.updated', invoiceId: '1539174220746990336', amountReceived: '40', statusUnknown: true, observation: { status: undefined } });
    const paid = readCallback(body({ amount_received: '100' }, 'invoice.fully_paid'));
    expect(paid.ok && paid.event).toMatchObject({ statusUnknown: false, observation: { status: 'fully_paid' } });
    const ref = readCallback(body({}, 'invoice.payment_reference_number_generated'));
    expect(ref.ok && ref.event.statusUnknown).toBe(false);
  });

  it.each([
    [{ event: {} }, /^event\.name: /],
    [body({ id: '' }), /^event\.data\.id: /],
    [body({ id: 12 }), /^event\.data\.id: /],
    [body({ amount: '1e3' }), /^event\.data\.amount: must be a decimal number/],
    [body({ amount_received: '-1' }), /^event\.data\.amount_received: /],
    [body({ amount_received: 40 }), /^event\.data\.amount_received: /],
    [[], /^body: /],
  ])('refuses %j by field', (raw, reason) => {
    const r = readCallback(raw);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(reason);
  });
});
