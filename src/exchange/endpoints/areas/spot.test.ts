import { isSafeNumber, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { hasOrderState, isFullResponse, zAccountTrade, zOrder } from '../../codecs/order.ts';
import type { ParamRule } from '../../params/dsl.ts';
import type { WeightSpec } from '../types.ts';
import { historyOrdersWeight, orderTypeRules, spotEndpoints } from './spot.ts';

const parseLossless = (t: string) => parse(t, null, (v) => (isSafeNumber(v) ? Number(v) : v));

const charge = (w: WeightSpec, params: Record<string, unknown>) =>
  typeof w === 'function' ? w(params) : typeof w === 'number' ? [{ pool: 'IP', weight: w }] : w;

/** The first `check` rule that objects, as the client and sandbox will apply them. */
const firstViolation = (rules: readonly ParamRule[], values: Record<string, unknown>) => {
  for (const rule of rules) {
    if (rule.kind !== 'check') continue;
    const v = rule.test(values);
    if (v) return v;
  }
  return undefined;
};

const BIG = '1375445991893797391';

describe('spot endpoint rows', () => {
  const rows = Object.entries(spotEndpoints);

  it.each(rows)('%s: key, id, area and name agree; query encoding', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`spot.${key}`);
    expect(e.area).toBe('spot');
    expect(e.encoding).toBe('query');
    expect(e.idempotent).toBe(e.method === 'GET' || key === 'testOrder');
  });

  it('security types follow the spec table', () => {
    const trade = ['newOrder', 'testOrder', 'cancelOrder', 'cancelOpenOrders', 'cancelReplace'];
    for (const [key, e] of rows) expect(e.security).toBe(trade.includes(key) ? 'TRADE' : 'USER_DATA');
  });

  it('order placements count against the order rate', () => {
    const counted = rows.filter(([, e]) => e.countsAsOrder).map(([key]) => key);
    expect(counted).toEqual(['newOrder', 'testOrder', 'cancelReplace']);
  });

  it('ids are p.id(): strings in code', () => {
    expect(spotEndpoints.queryOrder.params.orderId.kind).toBe('ID');
    expect(spotEndpoints.cancelOrder.params.orderId.kind).toBe('ID');
    expect(spotEndpoints.cancelReplace.params.cancelOrderId.kind).toBe('ID');
    expect(spotEndpoints.myTrades.params.fromId.kind).toBe('ID');
  });

  it('query and cancel need orderId or origClientOrderId; myTrades orderId requires symbol', () => {
    for (const e of [spotEndpoints.queryOrder, spotEndpoints.cancelOrder]) {
      expect(e.rules).toEqual([{ kind: 'atLeastOne', params: ['orderId', 'origClientOrderId'] }]);
    }
    expect(spotEndpoints.myTrades.rules).toEqual([{ kind: 'requires', param: 'orderId', requires: 'symbol' }]);
  });

  it('cancelReplace needs one of the cancel ids, else -1108', () => {
    expect(spotEndpoints.cancelReplace.rules?.[0]).toEqual({
      kind: 'atLeastOne',
      params: ['cancelOrigClientOrderId', 'cancelOrderId'],
      code: -1108,
      message: 'cancelOrigClientOrderId or cancelOrderId must be provided',
    });
    expect(spotEndpoints.cancelReplace.params.cancelReplaceMode.required).toBe(true);
  });
});

describe('new order type rules', () => {
  const base = { symbol: 'BTCPHP', side: 'BUY' };
  const check = (values: Record<string, unknown>) => firstViolation(orderTypeRules, { ...base, ...values });

  it('LIMIT and LIMIT_MAKER need quantity and price', () => {
    expect(check({ type: 'LIMIT', quantity: '1', price: '2' })).toBeUndefined();
    expect(check({ type: 'LIMIT', quantity: '1' })).toMatchObject({ param: 'price', reason: 'missing' });
    expect(check({ type: 'LIMIT_MAKER', price: '2' })).toMatchObject({ param: 'quantity', reason: 'missing' });
  });

  it('MARKET needs quantity or quoteOrderQty, not both', () => {
    expect(check({ type: 'MARKET', quantity: '1' })).toBeUndefined();
    expect(check({ type: 'MARKET', quoteOrderQty: '100' })).toBeUndefined();
    expect(check({ type: 'MARKET' })).toMatchObject({ param: 'quantity', reason: 'missing' });
    expect(check({ type: 'MARKET', quantity: '1', quoteOrderQty: '100' })).toMatchObject({ param: 'quoteOrderQty', reason: 'conflict' });
  });

  it('STOP_LOSS and TAKE_PROFIT need an amount and stopPrice', () => {
    expect(check({ type: 'STOP_LOSS', quantity: '1', stopPrice: '5' })).toBeUndefined();
    expect(check({ type: 'TAKE_PROFIT', quoteOrderQty: '100', stopPrice: '5' })).toBeUndefined();
    expect(check({ type: 'STOP_LOSS', quantity: '1' })).toMatchObject({ param: 'stopPrice', reason: 'missing' });
    expect(check({ type: 'TAKE_PROFIT', stopPrice: '5' })).toMatchObject({ param: 'quantity', reason: 'missing' });
  });

  it('STOP_LOSS_LIMIT and TAKE_PROFIT_LIMIT need quantity, price and stopPrice', () => {
    expect(check({ type: 'STOP_LOSS_LIMIT', quantity: '1', price: '2', stopPrice: '3' })).toBeUndefined();
    expect(check({ type: 'TAKE_PROFIT_LIMIT', quantity: '1', price: '2' })).toMatchObject({ param: 'stopPrice', reason: 'missing' });
  });

  it('stopPrice is not taken by LIMIT, MARKET or LIMIT_MAKER', () => {
    expect(check({ type: 'LIMIT', quantity: '1', price: '2', stopPrice: '3' })).toMatchObject({ param: 'stopPrice', reason: 'not-allowed' });
    expect(check({ type: 'MARKET', quantity: '1', stopPrice: '3' })).toMatchObject({ param: 'stopPrice', reason: 'not-allowed' });
  });

  it('empty wire values count as absent; unknown types are left to the enum check', () => {
    expect(check({ type: 'LIMIT', quantity: '1', price: '' })).toMatchObject({ param: 'price', reason: 'missing' });
    expect(check({ type: 'MARKET', quantity: '1', quoteOrderQty: '' })).toBeUndefined();
    expect(check({ type: 'ICEBERG' })).toBeUndefined();
  });

  it('new order, test order and cancelReplace share the type rules', () => {
    for (const e of [spotEndpoints.newOrder, spotEndpoints.testOrder, spotEndpoints.cancelReplace]) {
      for (const rule of orderTypeRules) expect(e.rules).toContain(rule);
    }
  });
});

describe('spot decoding', () => {
  it('decodes a FULL response from a raw body with ids above 2^53 exact', () => {
    const body = `{"symbol":"BTCPHP","orderId":${BIG},"clientOrderId":"c1","transactTime":1538323200012,"price":"3425000","origQty":"0.001","executedQty":"0.001","cummulativeQuoteQty":"3425","status":"FILLED","timeInForce":"GTC","type":"LIMIT","side":"BUY","stopPrice":"0","origQuoteOrderQty":"0","fills":[{"price":"3425000","qty":"0.001","commission":"0.000001","commissionAsset":"BTC","tradeId":1375445991893797400}]}`;
    const r = spotEndpoints.newOrder.response.parse(parseLossless(body));
    expect(r.orderId).toBe(BIG);
    expect(isFullResponse(r) && r.fills[0]?.tradeId).toBe('1375445991893797400');
  });

  it('picks the most specific of FULL, RESULT and ACK', () => {
    const full = spotEndpoints.newOrder.response.parse(spotEndpoints.newOrder.example.response);
    expect(isFullResponse(full) && full.fills.map((f) => f.tradeId)).toEqual(['1375445991893797400', '1375445991893797401']);
    const ack = spotEndpoints.newOrder.response.parse(parseLossless(`{"symbol":"BTCPHP","orderId":${BIG},"clientOrderId":"c1","transactTime":1538323200012}`));
    expect(ack).toEqual({ symbol: 'BTCPHP', orderId: BIG, clientOrderId: 'c1', transactTime: 1538323200012 });
    expect(isFullResponse(ack) || hasOrderState(ack)).toBe(false);
    const { fills: _fills, ...resultBody } = spotEndpoints.newOrder.example.response as Record<string, unknown>;
    const result = spotEndpoints.newOrder.response.parse(resultBody);
    expect(result).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.0004' });
    expect(hasOrderState(result) && !isFullResponse(result)).toBe(true);
    expect('fills' in result).toBe(false);
  });

  it('accepts the pre-2022 string order id and times', () => {
    const r = spotEndpoints.newOrder.response.parse({ symbol: 'BTCPHP', orderId: BIG, clientOrderId: 'c1', transactTime: '1538323200012' });
    expect(r.transactTime).toBe(1538323200012);
  });

  it('queryOrder answers an object or an array', () => {
    const one = spotEndpoints.queryOrder.response.parse(spotEndpoints.queryOrder.example.response);
    expect(Array.isArray(one)).toBe(false);
    const body = `[{"symbol":"BTCPHP","orderId":${BIG},"clientOrderId":"dup","price":"1","origQty":"1","executedQty":"0","cummulativeQuoteQty":"0","status":"NEW","timeInForce":"GTC","type":"LIMIT","side":"SELL","stopPrice":"0","origQuoteOrderQty":"0","time":1538323200012,"updateTime":1538323200012,"isWorking":true}]`;
    const many = spotEndpoints.queryOrder.response.parse(parseLossless(body));
    expect(Array.isArray(many) && many[0]?.orderId).toBe(BIG);
  });

  it('decodes account trades with exact ids from a raw body', () => {
    const body = `[{"symbol":"BTCPHP","id":1375445991893797400,"orderId":${BIG},"price":"3425000","qty":"0.0006","quoteQty":"2055","commission":"0.0000006","commissionAsset":"BTC","time":1538323200012,"isBuyer":true,"isMaker":false,"isBestMatch":true}]`;
    const [t] = spotEndpoints.myTrades.response.parse(parseLossless(body));
    expect(t).toMatchObject({ id: '1375445991893797400', orderId: BIG, time: 1538323200012 });
  });

  it('decodes the notes 6 cancelReplace sample verbatim', () => {
    const body =
      '{"cancelResult":"SUCCESS","newOrderResult":"SUCCESS","cancelResponse":{"symbol":"BTCUSDT","orderId":1205324142243592448,"clientOrderId":"oldClientOrderId","transactTime":1658307188627,"price":"2","origQty":"10","executedQty":"8","origQuoteOrderQty":"0","cummulativeQuoteQty":"16","status":"CANCELED","timeInForce":"GTC","type":"LIMIT","side":"SELL","stpFlag":"CB","stopPrice":"0"},"newOrderResponse":{"symbol":"BTCUSDT","orderId":1205324142243592555,"clientOrderId":"newClientOrderId","transactTime":1658307188800}}';
    const r = spotEndpoints.cancelReplace.response.parse(parseLossless(body));
    expect(r.cancelResponse).toMatchObject({ orderId: '1205324142243592448', status: 'CANCELED' });
    expect(r.newOrderResponse).toMatchObject({ orderId: '1205324142243592555' });
  });

  it('decodes the data of a failed cancelReplace: error legs and a null new order', () => {
    const data = parseLossless('{"cancelResult":"FAILURE","newOrderResult":"NOT_ATTEMPTED","cancelResponse":{"code":-2011,"msg":"CANCEL_REJECTED"},"newOrderResponse":null}');
    const r = spotEndpoints.cancelReplace.response.parse(data);
    expect(r.cancelResponse).toEqual({ code: -2011, msg: 'CANCEL_REJECTED' });
    expect(r.newOrderResponse).toBeNull();
  });

  it('fails a malformed order with an error naming the path', () => {
    const body = { ...(spotEndpoints.queryOrder.example.response as Record<string, unknown>), price: {} };
    const result = zOrder.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['price']);
    expect(spotEndpoints.queryOrder.response.safeParse(body).success).toBe(false);
  });

  it('fails a fractional or non-numeric id with an error naming the path', () => {
    const [trade] = spotEndpoints.myTrades.example.response as Record<string, unknown>[];
    expect(zAccountTrade.safeParse({ ...trade, id: 1.5 }).error?.issues[0]?.path).toEqual(['id']);
    expect(zAccountTrade.safeParse({ ...trade, orderId: 'abc' }).error?.issues[0]?.path).toEqual(['orderId']);
  });
});

describe('spot weights', () => {
  it('historyOrders: 10 with a symbol, 40 without', () => {
    expect(historyOrdersWeight({ symbol: 'BTCPHP' })).toEqual([{ pool: 'IP', weight: 10 }]);
    expect(historyOrdersWeight({})).toEqual([{ pool: 'IP', weight: 40 }]);
    expect(historyOrdersWeight({ symbol: '' })).toEqual([{ pool: 'IP', weight: 40 }]);
  });

  it('fixed weights follow the spec table', () => {
    const expected = { newOrder: 1, testOrder: 1, queryOrder: 2, cancelOrder: 1, cancelOpenOrders: 1, openOrders: 10, myTrades: 10, tradeFee: 1, cancelReplace: 1 };
    for (const [key, weight] of Object.entries(expected)) {
      const e = spotEndpoints[key as keyof typeof expected];
      expect(charge(e.weight, { symbol: 'BTCPHP' })).toEqual([{ pool: 'IP', weight }]);
      expect(e.weightReal).toBeUndefined();
    }
  });
});
