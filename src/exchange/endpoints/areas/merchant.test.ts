import { describe, expect, it } from 'vitest';
import { checkParams } from '../../params/check-params.ts';
import { chargesFor } from '../../rate/weights.ts';
import type { AnyEndpoint } from '../types.ts';
import { cancelInvoice, createInvoice, getInvoices, merchantEndpoints, zInvoiceOne } from './merchant.ts';

const entries = Object.entries(merchantEndpoints) as [string, AnyEndpoint][];

function failurePath(codec: AnyEndpoint['response'], body: unknown): PropertyKey[] | undefined {
  const result = codec.safeParse(body);
  expect(result.success).toBe(false);
  return result.success ? undefined : result.error.issues[0]?.path;
}

describe('merchant endpoints (spec 4.10)', () => {
  it.each(entries)('%s is keyed, named, MERCHANT-signed, weight 1', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`merchant.${key}`);
    expect(e.area).toBe('merchant');
    expect(e.security).toBe('MERCHANT');
    expect(e.path.startsWith('/merchant-api/v1/')).toBe(true);
    expect(chargesFor(e, {}, 'spec')).toEqual([{ pool: 'IP', weight: 1 }]);
    expect(e.encoding).toBe(e.method === 'GET' ? 'query' : 'json');
    expect(e.idempotent).toBe(e.method === 'GET');
  });

  it('decodes an invoice with ms strings as numbers', () => {
    const { invoice } = zInvoiceOne.parse(createInvoice.example.response);
    expect(invoice.created_at).toBe(1690453041000);
    expect(invoice.expires_in_seconds).toBe(604800);
    expect(invoice.status).toBe('pending');
    expect(zInvoiceOne.parse(cancelInvoice.example.response).invoice.status).toBe('canceled');
  });

  it('names the path of a malformed body', () => {
    const list = structuredClone(getInvoices.example.response) as { invoice: Record<string, unknown>[] };
    list.invoice[0]!.amount_due = 'a hundred';
    expect(failurePath(getInvoices.response, list)).toEqual(['invoice', 0, 'amount_due']);
    // A single invoice where a list is expected is malformed too.
    expect(failurePath(getInvoices.response, createInvoice.example.response)).toEqual(['invoice']);
  });

  it('create requires amount, currency, collectors and a transaction id; expires_at is ISO or a delta', () => {
    const missing = checkParams(createInvoice.params, undefined, {}).violations.map((v) => v.param);
    expect(missing).toEqual(['amount', 'currency', 'supported_payment_collectors', 'external_transaction_id']);
    const bad = checkParams(createInvoice.params, undefined, { ...createInvoice.example.params, expires_at: 'next week' });
    expect(bad.violations.map((v) => [v.param, v.reason])).toEqual([['expires_at', 'malformed']]);
    const wire = checkParams(createInvoice.params, undefined, createInvoice.example.params).wire;
    expect(wire).toContainEqual(['supported_payment_collectors', '["service_peso_wallet"]']);
  });

  it('get-invoices limit is at most 1000', () => {
    const over = checkParams(getInvoices.params, undefined, { limit: 1001 }).violations;
    expect(over.map((v) => [v.param, v.reason])).toEqual([['limit', 'out-of-range']]);
  });
});
