import { describe, expect, it } from 'vitest';
import { checkParams } from '../../params/check-params.ts';
import { chargesFor } from '../../rate/weights.ts';
import type { AnyEndpoint } from '../types.ts';
import {
  TIME_TEXT_PATTERN,
  createPaymentRequest,
  getPaymentRequests,
  paymentRequestEndpoints,
  paymentRequestReminder,
  zPaymentRequestOne,
} from './payment-request.ts';

const entries = Object.entries(paymentRequestEndpoints) as [string, AnyEndpoint][];

function failurePath(codec: AnyEndpoint['response'], body: unknown): PropertyKey[] | undefined {
  const result = codec.safeParse(body);
  expect(result.success).toBe(false);
  return result.success ? undefined : result.error.issues[0]?.path;
}

describe('payment request endpoints (spec 4.3)', () => {
  it.each(entries)('%s is keyed, named and signed USER_DATA with weight 1', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`paymentRequest.${key}`);
    expect(e.area).toBe('paymentRequest');
    expect(e.security).toBe('USER_DATA');
    expect(chargesFor(e, {}, 'spec')).toEqual([{ pool: 'IP', weight: 1 }]);
    expect(e.encoding).toBe(e.method === 'GET' ? 'query' : 'form');
    expect(e.idempotent).toBe(e.method === 'GET');
  });

  it('normalises the payment request: ms strings to numbers, collectors kept as JSON text', () => {
    const decoded = zPaymentRequestOne.parse(createPaymentRequest.example.response);
    const pr = decoded['payment-request'];
    expect(pr.created_at).toBe(1685603661217);
    expect(pr.id).toBe('1433341829953096704');
    expect(JSON.parse(pr.supported_payment_collectors)).toEqual(['service_peso_wallet']);
  });

  it('sends supported_payment_collectors as JSON array text', () => {
    const checked = checkParams(createPaymentRequest.params, undefined, createPaymentRequest.example.params);
    expect(checked.wire).toContainEqual(['supported_payment_collectors', '["service_peso_wallet"]']);
  });

  it('names the path of a malformed body', () => {
    const body = structuredClone(createPaymentRequest.example.response) as { 'payment-request': Record<string, unknown> };
    body['payment-request'].amount = 'twenty';
    expect(failurePath(createPaymentRequest.response, body)).toEqual(['payment-request', 'amount']);
    body['payment-request'].amount = '20';
    body['payment-request'].status = 'paid';
    expect(failurePath(createPaymentRequest.response, body)).toEqual(['payment-request', 'status']);
  });

  it('accepts a list under payment-request for the list query', () => {
    const one = (getPaymentRequests.example.response as { 'payment-request': unknown })['payment-request'];
    expect(getPaymentRequests.response.safeParse({ 'payment-request': [one, one] }).success).toBe(true);
  });

  it('reminder answers the bare JSON value true', () => {
    expect(paymentRequestReminder.response.parse(true)).toBe(true);
    expect(failurePath(paymentRequestReminder.response, { result: true })).toEqual([]);
  });

  it('expires_at takes ISO 8601 or a w/d/h/m/s delta', () => {
    for (const ok of ['1w', '3d', '2h', '32m', '5s', '2016-10-20T13:00:00.000000Z', '2024-01-02']) {
      expect(TIME_TEXT_PATTERN.test(ok), ok).toBe(true);
    }
    for (const bad of ['1y', 'tomorrow', '', 'w1', '2016-10-20 13:00']) {
      expect(TIME_TEXT_PATTERN.test(bad), bad).toBe(false);
    }
    const bad = checkParams(createPaymentRequest.params, undefined, { ...createPaymentRequest.example.params, expires_at: '1y' });
    expect(bad.violations.map((v) => [v.param, v.reason])).toEqual([['expires_at', 'malformed']]);
  });

  it('limit is at most 1000', () => {
    const over = checkParams(getPaymentRequests.params, undefined, { limit: 1001 });
    expect(over.violations.map((v) => [v.param, v.reason])).toEqual([['limit', 'out-of-range']]);
    expect(checkParams(getPaymentRequests.params, undefined, { limit: 1000 }).violations).toEqual([]);
  });

  it('create requires payer, account, amount and message', () => {
    const missing = checkParams(createPaymentRequest.params, undefined, {}).violations.map((v) => v.param);
    expect(missing).toEqual(['payer_contact_info', 'receiving_account', 'amount', 'message']);
  });
});
