import { describe, expect, it } from 'vitest';
import { zConvertHistoryBody } from '../../codecs/convert.ts';
import { checkParams } from '../../params/check-params.ts';
import { chargesFor } from '../../rate/weights.ts';
import type { AnyEndpoint } from '../types.ts';
import { acceptQuote, convertEndpoints, getQuote, getSupportedTradingPairs, queryOrderHistory } from './convert.ts';

const entries = Object.entries(convertEndpoints) as [string, AnyEndpoint][];

function failurePath(codec: AnyEndpoint['response'], body: unknown): PropertyKey[] | undefined {
  const result = codec.safeParse(body);
  expect(result.success).toBe(false);
  return result.success ? undefined : result.error.issues[0]?.path;
}

describe('convert endpoints (spec 4.6)', () => {
  it.each(entries)('%s is keyed, named, a form POST in the status envelope, weight 1', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`convert.${key}`);
    expect(e.area).toBe('convert');
    expect(e.method).toBe('POST');
    expect(e.envelope).toBe('status');
    expect(e.encoding).toBe('form');
    expect(chargesFor(e, {}, 'spec')).toEqual([{ pool: 'IP', weight: 1 }]);
    expect(chargesFor(e, {}, 'real')).toEqual([{ pool: 'IP', weight: 1 }]);
  });

  it('security: TRADE for pairs, quote and accept; USER_DATA for history', () => {
    expect([getSupportedTradingPairs, getQuote, acceptQuote].map((e) => e.security)).toEqual(['TRADE', 'TRADE', 'TRADE']);
    expect(queryOrderHistory.security).toBe('USER_DATA');
  });

  it('only accept-quote is a write', () => {
    expect(entries.filter(([, e]) => !e.idempotent).map(([k]) => k)).toEqual(['acceptQuote']);
  });

  it.each(entries)('%s example response (the whole envelope) decodes', (_key, e) => {
    const result = e.response.safeParse(e.example.response);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });

  it('decodes the history envelope with total and normalised fields', () => {
    const body = zConvertHistoryBody.parse(queryOrderHistory.example.response);
    expect(body.status).toBe(0);
    expect(body.total).toBe(1);
    expect(body.data[0]?.createdAt).toBe(1671797993000);
    expect(body.data[0]?.id).toBe('');
    expect(body.data[0]?.targetAmount).toBe('4466.89275956');
  });

  it('decodes the quote expiry as seconds', () => {
    const body = getQuote.response.parse(getQuote.example.response) as { data: { expiry: number } };
    expect(body.data.expiry).toBe(10);
  });

  it('names the path of a malformed body', () => {
    const pairs = structuredClone(getSupportedTradingPairs.example.response) as { data: Record<string, unknown>[] };
    pairs.data[1]!.minSourceAmount = 'lots';
    expect(failurePath(getSupportedTradingPairs.response, pairs)).toEqual(['data', 1, 'minSourceAmount']);

    const accepted = structuredClone(acceptQuote.example.response) as { data: Record<string, unknown> };
    accepted.data.status = 'DONE';
    expect(failurePath(acceptQuote.response, accepted)).toEqual(['data', 'status']);

    const history = structuredClone(queryOrderHistory.example.response) as Record<string, unknown>;
    delete history.total;
    expect(failurePath(queryOrderHistory.response, history)).toEqual(['total']);
  });

  it('get-quote takes exactly one of sourceAmount and targetAmount', () => {
    expect(getQuote.rules).toContainEqual({ kind: 'exactlyOne', params: ['sourceAmount', 'targetAmount'] });
    const base = { sourceCurrency: 'BTC', targetCurrency: 'PHP' };
    const both = checkParams(getQuote.params, getQuote.rules, { ...base, sourceAmount: '0.1', targetAmount: '5999' });
    expect(both.violations.map((v) => v.reason)).toEqual(['conflict']);
    const none = checkParams(getQuote.params, getQuote.rules, base);
    expect(none.violations.map((v) => v.reason)).toEqual(['missing']);
    expect(checkParams(getQuote.params, getQuote.rules, { ...base, targetAmount: '5999', type: 'OTC' }).violations).toEqual([]);
  });

  it('history status requires startTime', () => {
    expect(queryOrderHistory.rules).toContainEqual({ kind: 'requires', param: 'status', requires: 'startTime' });
    const v = checkParams(queryOrderHistory.params, queryOrderHistory.rules, { status: 'SUCCESS' }).violations;
    expect(v.map((x) => [x.param, x.reason])).toEqual([['startTime', 'missing']]);
    const bad = checkParams(queryOrderHistory.params, queryOrderHistory.rules, { startTime: 1, status: 'DONE' }).violations;
    expect(bad.map((x) => x.param)).toContain('status');
  });
});
