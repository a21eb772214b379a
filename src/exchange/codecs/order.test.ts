import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../transport/lossless-json.ts';
import { hasOrderState, isFullResponse, zCancelReplaceResult, zNewOrderResponse } from './order.ts';

const RESULT = {
  symbol: 'BTCPHP',
  orderId: 1375445991893797391n,
  clientOrderId: 'c',
  transactTime: 1,
  price: '1',
  origQty: '2',
  executedQty: '2',
  cummulativeQuoteQty: '2',
  status: 'FILLED',
  timeInForce: 'GTC',
  type: 'LIMIT',
  side: 'BUY',
  stopPrice: '0',
  origQuoteOrderQty: '0',
};
/** A body as the wire carries it (bigints written as bare integers). */
const wire = (body: Record<string, unknown>, fills?: string) =>
  parseJsonLossless(JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(/"@@(\d+)@@"/g, '$1').replace(/}$/, fills === undefined ? '}' : `,"fills":${fills}}`));

describe('zNewOrderResponse picks the shape by the keys present (spec 4.5)', () => {
  it('FULL: fills decode, numbers normalised (tradeId as a number, notes 5.5; 1e-8 as plain text)', () => {
    const r = zNewOrderResponse.parse(wire(RESULT, '[{"price":1e-8,"qty":"1","commission":0.1,"commissionAsset":"BTC","tradeId":123}]'));
    expect(isFullResponse(r)).toBe(true);
    expect(r).toMatchObject({ orderId: '1375445991893797391', fills: [{ price: '0.00000001', qty: '1', commission: '0.1', commissionAsset: 'BTC', tradeId: '123' }] });
  });

  it('one odd fill is a decode error naming it, never a FULL body passed through as RESULT with raw fills', () => {
    const r = zNewOrderResponse.safeParse(
      wire(RESULT, '[{"price":1e-8,"qty":"1","commission":0.1,"commissionAsset":"BTC","tradeId":123},{"price":"1","qty":"1","commission":"0","commissionAsset":null,"tradeId":"124"}]'),
    );
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path)).toEqual([['fills', 1, 'commissionAsset']]);
  });

  it('a fill with an unreadable tradeId or price names that field', () => {
    const r = zNewOrderResponse.safeParse(wire(RESULT, '[{"price":"abc","qty":"1","commission":"0","commissionAsset":"BTC","tradeId":"x1"}]'));
    expect(r.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['fills.0.price', 'fills.0.tradeId']);
  });

  it('RESULT and ACK', () => {
    const result = zNewOrderResponse.parse(wire(RESULT));
    expect(hasOrderState(result) && !isFullResponse(result)).toBe(true);
    const ack = zNewOrderResponse.parse(wire({ symbol: 'BTCPHP', orderId: 1n, clientOrderId: 'c', transactTime: 1 }));
    expect(ack).toEqual({ symbol: 'BTCPHP', orderId: '1', clientOrderId: 'c', transactTime: 1 });
    expect(hasOrderState(ack)).toBe(false);
  });

  it('a body with status is held to RESULT: a missing order field is named, not decoded as ACK', () => {
    const { executedQty: _dropped, ...partial } = RESULT;
    const r = zNewOrderResponse.safeParse(wire(partial));
    expect(r.error?.issues.map((i) => i.path)).toEqual([['executedQty']]);
  });
});

describe('zCancelReplaceResult legs (notes 6)', () => {
  it('decodes order legs and {code,msg} legs; a bad fill inside the new order is named', () => {
    const legs = zCancelReplaceResult.parse({
      cancelResult: 'FAILURE',
      newOrderResult: 'SUCCESS',
      cancelResponse: { code: -2011, msg: 'CANCEL_REJECTED' },
      newOrderResponse: { symbol: 'BTCPHP', orderId: '1205324142243592555', clientOrderId: 'n', transactTime: 1 },
    });
    expect(legs.cancelResponse).toEqual({ code: -2011, msg: 'CANCEL_REJECTED' });
    expect(zCancelReplaceResult.parse({ ...legs, newOrderResponse: null }).newOrderResponse).toBeNull();
    const bad = zCancelReplaceResult.safeParse({ ...legs, newOrderResponse: { ...RESULT, orderId: '1', fills: [{ price: '1', qty: '1', commission: '0', commissionAsset: null, tradeId: '1' }] } });
    expect(bad.error?.issues.map((i) => i.path)).toEqual([['newOrderResponse', 'fills', 0, 'commissionAsset']]);
  });
});
