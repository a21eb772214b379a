/** invoice-state.ts: knowledge of an invoice only moves forward, whatever order observations come in. */
import { describe, expect, it } from 'vitest';
import { advance, type KnownInvoice, type Observation } from './invoice-state.ts';

const obs = (o: Partial<Observation>): Observation => ({ invoiceId: '1', currency: 'PHP', amount: '100', amountReceived: '0', status: undefined, externalTransactionId: 'x', ...o });

function run(list: Observation[]): KnownInvoice | undefined {
  let k: KnownInvoice | undefined;
  for (const o of list) k = advance(k, o) ?? k;
  return k;
}

describe('advance', () => {
  it('a first observation without a status reads as pending; amounts are normalised decimal text', () => {
    expect(advance(undefined, obs({ amountReceived: '40.50' }))).toMatchObject({ status: 'pending', amountReceived: '40.5', amount: '100' });
  });

  it('a final status never moves and the amount received never decreases (late, repeated, out of order)', () => {
    const k = run([obs({ status: 'pending' }), obs({ amountReceived: '100', status: 'fully_paid' }), obs({ status: 'pending' }), obs({ amountReceived: '40' }), obs({ status: 'canceled' })]);
    expect(k).toMatchObject({ status: 'fully_paid', amountReceived: '100' });
  });

  it('a repeat changes nothing (undefined); the creation time is learned once', () => {
    const k = advance(undefined, obs({ amountReceived: '5' }))!;
    expect(advance(k, obs({ amountReceived: '5.0' }))).toBeUndefined();
    expect(advance(k, obs({ amountReceived: '5', createdAt: 7 }))).toMatchObject({ createdAt: 7, amountReceived: '5' });
  });

  it('an observation that shows no status keeps the known one', () => {
    const k = run([obs({ status: 'pending' }), obs({ amountReceived: '30' })]);
    expect(k).toMatchObject({ status: 'pending', amountReceived: '30' });
    expect(run([obs({ status: 'expired' }), obs({ amountReceived: '0' })])?.status).toBe('expired');
  });
});
