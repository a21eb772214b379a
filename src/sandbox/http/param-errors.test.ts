import { describe, expect, it } from 'vitest';
import { findEndpoint } from '../../exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import { checkParams } from '../../exchange/params/check-params.ts';
import { violationToError } from './param-errors.ts';

function answer(id: string, values: Record<string, unknown>) {
  const def = findEndpoint(id) as AnyEndpoint;
  const v = checkParams(def.params, def.rules, values, { unknown: 'pass' }).violations[0];
  if (!v) return undefined;
  const e = violationToError(id, v);
  return { code: e.code, msg: e.message };
}

describe('parameter violations -> venue answers (spec 7.3)', () => {
  it('missing: -1105', () => {
    expect(answer('market.klines', { interval: '1m' })).toEqual({ code: -1105, msg: "parameter 'symbol' is required" });
    expect(answer('spot.queryOrder', {})).toEqual({ code: -1105, msg: "parameter 'orderId' or 'origClientOrderId' is required" });
  });

  it('invalid or out of range: -1025 naming the parameter', () => {
    expect(answer('market.klines', { symbol: 'BTCPHP', interval: '1m', limit: '5000' })).toEqual({ code: -1025, msg: "parameter 'limit' is not valid: must be <= 1000" });
    expect(answer('market.klines', { symbol: 'BTCPHP', interval: '2m' })?.code).toBe(-1025);
  });

  it('conflict: -1107; cancelReplace ids: -1108; cancel without ids: -2011 with the spec 7.4 text', () => {
    expect(answer('general.exchangeInfo', { symbol: 'A', symbols: 'B' })).toEqual({ code: -1107, msg: "parameter 'symbol' and 'symbols' should not be both set" });
    const cr = { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1', cancelReplaceMode: 'STOP_ON_FAILURE' };
    expect(answer('spot.cancelReplace', cr)).toEqual({ code: -1108, msg: 'cancelOrigClientOrderId or cancelOrderId must be provided' });
    expect(answer('spot.cancelOrder', {})).toEqual({ code: -2011, msg: 'Cancel order is invalid. Check origClOrdId and orderId.' });
  });

  it('not allowed: -1106', () => {
    expect(answer('spot.newOrder', { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1', stopPrice: '2' })?.code).toBe(-1106);
  });
});
