import { describe, expect, it } from 'vitest';
import { zCashOutBody, zFiatDetailsBody, zSupportChannelBody } from '../../codecs/fiat.ts';
import { checkParams } from '../../params/check-params.ts';
import { chargesFor } from '../../rate/weights.ts';
import type { AnyEndpoint } from '../types.ts';
import { INTERNAL_ORDER_ID_PATTERN, cashOut, details, fiatEndpoints, historyV1, historyV2, supportChannel } from './fiat.ts';

const entries = Object.entries(fiatEndpoints) as [string, AnyEndpoint][];

function failurePath(codec: AnyEndpoint['response'], body: unknown): PropertyKey[] | undefined {
  const result = codec.safeParse(body);
  expect(result.success).toBe(false);
  return result.success ? undefined : result.error.issues[0]?.path;
}

describe('fiat endpoints (spec 4.8)', () => {
  it.each(entries)('%s is keyed, named, signed, in the status envelope, weight 1', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`fiat.${key}`);
    expect(e.area).toBe('fiat');
    expect(e.envelope).toBe('status');
    expect(e.path.startsWith('/openapi/fiat/')).toBe(true);
    expect(['TRADE', 'USER_DATA']).toContain(e.security);
    expect(chargesFor(e, {}, 'spec')).toEqual([{ pool: 'IP', weight: 1 }]);
  });

  it('support-channel and cash-out are TRADE; details and history USER_DATA', () => {
    expect([supportChannel.security, cashOut.security]).toEqual(['TRADE', 'TRADE']);
    expect([details.security, historyV1.security, historyV2.security]).toEqual(['USER_DATA', 'USER_DATA', 'USER_DATA']);
  });

  it('POSTs carry JSON bodies; details is a GET with a query', () => {
    for (const e of [supportChannel, cashOut, historyV1, historyV2]) expect([e.method, e.encoding]).toEqual(['POST', 'json']);
    expect([details.method, details.encoding]).toEqual(['GET', 'query']);
    expect(cashOut.idempotent).toBe(false);
    expect(entries.filter(([, e]) => !e.idempotent).map(([k]) => k)).toEqual(['cashOut']);
  });

  it('history v1 says it is deprecated; v2 adds externalOrderId', () => {
    expect(historyV1.summary).toMatch(/deprecated/i);
    expect(historyV1.path).toBe('/openapi/fiat/v1/history');
    expect(historyV2.path).toBe('/openapi/fiat/v2/history');
    expect(Object.keys(historyV2.params).filter((k) => !(k in historyV1.params))).toEqual(['externalOrderId']);
  });

  it.each(entries)('%s example response (the whole envelope) decodes', (_key, e) => {
    const result = e.response.safeParse(e.example.response);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });

  it('normalises channels: lower-case fee type, numeric strings', () => {
    const channel = zSupportChannelBody.parse(supportChannel.example.response).data[0]!;
    expect(channel.feeType).toBe('FIXED');
    expect(channel.precision).toBe(2);
    expect(channel.id).toBe('622');
    expect(channel.transactionType).toBe(-1);
    expect(channel.maximum).toBe('50000');
  });

  it('keeps large ids as strings and the cash-out params member', () => {
    const out = zCashOutBody.parse(cashOut.example.response);
    expect(out.data).toEqual({ externalOrderId: '1380692028693995623', internalOrderId: '1212323211' });
    expect(out.params).toBeNull();
    const order = zFiatDetailsBody.parse(details.example.response).data;
    expect(order.internalOrderId).toBe('1388420429697583896');
    expect(order.createdAt).toBe('2023-03-31T07:43:37.000+00:00');
    expect(order.dealCancel).toBe(false);
  });

  it('names the path of a malformed body', () => {
    const detail = structuredClone(details.example.response) as { data: Record<string, unknown> };
    detail.data.status = 'DONE';
    expect(failurePath(details.response, detail)).toEqual(['data', 'status']);

    const history = structuredClone(historyV2.example.response) as { data: Record<string, unknown>[] };
    history.data[1]!.fiatAmount = 'one hundred';
    expect(failurePath(historyV2.response, history)).toEqual(['data', 1, 'fiatAmount']);

    const channels = structuredClone(supportChannel.example.response) as { data: Record<string, unknown>[] };
    channels.data[0]!.feeType = 'tiered';
    expect(failurePath(supportChannel.response, channels)).toEqual(['data', 0, 'feeType']);
  });

  it('cash-out internalOrderId: digits only, no leading 0, 10 to 20 long', () => {
    expect(INTERNAL_ORDER_ID_PATTERN.test('0123456789')).toBe(false);
    expect(INTERNAL_ORDER_ID_PATTERN.test('123')).toBe(false);
    expect(INTERNAL_ORDER_ID_PATTERN.test('12345678a0')).toBe(false);
    expect(INTERNAL_ORDER_ID_PATTERN.test('1'.repeat(21))).toBe(false);
    expect(INTERNAL_ORDER_ID_PATTERN.test('1212323211')).toBe(true);
    expect(INTERNAL_ORDER_ID_PATTERN.test('1'.repeat(20))).toBe(true);
    expect(cashOut.params.internalOrderId.options.pattern).toBe(INTERNAL_ORDER_ID_PATTERN);

    const leadingZero = checkParams(cashOut.params, undefined, { ...cashOut.example.params, internalOrderId: '0123456789' });
    expect(leadingZero.violations.map((v) => [v.param, v.reason])).toEqual([['internalOrderId', 'malformed']]);
  });

  it('cash-out sends extendInfo as a JSON object, as the signing vector does', () => {
    const checked = checkParams(cashOut.params, undefined, cashOut.example.params);
    expect(checked.values.extendInfo).toEqual({ recipientName: 'sandy openapitest', recipientAccountNumber: '123456789' });
    expect(checked.violations).toEqual([]);
  });

  it('history dates take ISO 8601 or a delta; channel and status are enums', () => {
    const ok = checkParams(historyV2.params, undefined, { startDate: '1w 3d 2h 32m 5s', endDate: '2016-10-20T13:00:00.000000Z' });
    expect(ok.violations).toEqual([]);
    const bad = checkParams(historyV2.params, undefined, { startDate: 'last week', transactionChannel: 'GCASH', status: 'DONE' });
    expect(bad.violations.map((v) => v.param)).toEqual(['transactionChannel', 'status', 'startDate']);
  });
});
