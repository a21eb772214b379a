import { describe, expect, it } from 'vitest';
import { ENGINE_MESSAGE } from '../market/index.ts';
import { DEFAULT_FILTERS, harness, instrument } from './test-support.ts';
import type { NewOrderRequest } from './types.ts';

type Req = Omit<NewOrderRequest, 'symbol'>;
const limit = (over: Partial<Req> = {}): Req => ({ side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', ...over });

describe('filter failures (spec 7.5) through the filter engine', () => {
  it('reports the venue text with every violation found', () => {
    const h = harness();
    const r = h.try('alice', limit({ price: '100.001', quantity: '0.0001' }));
    expect(r).toMatchObject({ ok: false, code: -2010, msg: 'Filter failure: PRICE_FILTER' });
    expect(!r.ok && r.violations?.map((v) => v.filterType)).toEqual(['PRICE_FILTER', 'LOT_SIZE', 'LOT_SIZE', 'NOTIONAL']);
    expect(h.try('alice', limit({ quantity: '1001' }))).toMatchObject({ msg: 'Filter failure: LOT_SIZE' });
    expect(h.try('alice', limit({ price: '1', quantity: '0.5' }))).toMatchObject({ msg: 'Filter failure: NOTIONAL' });
    expect(h.try('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '0.001', quantity: '1' })).toMatchObject({ msg: 'Filter failure: PRICE_FILTER' });
  });

  it('counts open orders for MAX_NUM_ORDERS', () => {
    const filters = DEFAULT_FILTERS.map((f) => (f['filterType'] === 'MAX_NUM_ORDERS' ? { ...f, maxNumOrders: 2 } : f));
    const h = harness({ instrument: instrument({ filters }) });
    h.place('alice', limit());
    h.place('alice', limit({ price: '99' }));
    expect(h.try('alice', limit({ price: '98' }))).toMatchObject({ ok: false, msg: 'Filter failure: MAX_NUM_ORDERS' });
    expect(h.try('bob', limit({ price: '98' })).ok).toBe(true);
  });

  it('checks filters the integer pre-check does not cover (PERCENT_PRICE_BY_SIDE against the last price)', () => {
    const filters = [...DEFAULT_FILTERS, { filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '1.1', bidMultiplierDown: '0.9', askMultiplierUp: '1.1', askMultiplierDown: '0.9' }];
    const h = harness({ instrument: instrument({ filters }) });
    expect(h.try('alice', limit({ price: '500' })).ok).toBe(true); // no last price yet: skipped
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '500', quantity: '0.1' });
    expect(h.try('alice', limit({ price: '560' }))).toMatchObject({ ok: false, msg: 'Filter failure: PERCENT_PRICE_BY_SIDE' });
    expect(h.try('alice', limit({ price: '549' })).ok).toBe(true);
  });

  it('feeds caller reference prices to PERCENT_PRICE', () => {
    const filters = [...DEFAULT_FILTERS, { filterType: 'PERCENT_PRICE', multiplierUp: '1.2', multiplierDown: '0.8', avgPriceMins: 5 }];
    const h = harness({ instrument: instrument({ filters }), marketRefs: () => ({ weightedAvgPrice: '100' }) });
    expect(h.try('alice', limit({ price: '121' }))).toMatchObject({ ok: false, msg: 'Filter failure: PERCENT_PRICE' });
    expect(h.try('alice', limit({ price: '120' })).ok).toBe(true);
  });
});

describe('matching-engine rejections (spec 7.4)', () => {
  it('Market is closed. when the symbol is not TRADING', () => {
    const h = harness({ instrument: instrument({ status: 'BREAK' }) });
    expect(h.try('alice', limit())).toEqual({ ok: false, code: -2010, msg: ENGINE_MESSAGE.marketClosed });
  });

  it('names the order type the symbol does not support', () => {
    const h = harness({ instrument: instrument({ orderTypes: ['LIMIT', 'LIMIT_MAKER'] }) });
    expect(h.try('alice', { side: 'BUY', type: 'MARKET', quantity: '1' })).toMatchObject({ msg: ENGINE_MESSAGE.marketNotSupported });
    expect(h.try('alice', { side: 'SELL', type: 'STOP_LOSS_LIMIT', quantity: '1', price: '90', stopPrice: '91' })).toMatchObject({
      msg: ENGINE_MESSAGE.stopLossLimitNotSupported,
    });
    expect(h.try('alice', { side: 'SELL', type: 'TAKE_PROFIT', quantity: '1', stopPrice: '91' })).toMatchObject({ msg: ENGINE_MESSAGE.takeProfitNotSupported });
  });

  it('Unsupported order combination for parameters the type table does not allow', () => {
    const h = harness();
    const bad: Req[] = [
      { side: 'BUY', type: 'LIMIT', quantity: '1' },
      { side: 'BUY', type: 'LIMIT', price: '100', quoteOrderQty: '100' },
      { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', stopPrice: '99' },
      { side: 'BUY', type: 'MARKET', quantity: '1', quoteOrderQty: '100' },
      { side: 'BUY', type: 'MARKET' },
      { side: 'BUY', type: 'MARKET', quantity: '1', price: '100' },
      { side: 'BUY', type: 'MARKET', quantity: '1', timeInForce: 'IOC' },
      { side: 'BUY', type: 'LIMIT_MAKER', price: '100', quantity: '1', timeInForce: 'IOC' },
      { side: 'SELL', type: 'STOP_LOSS', quantity: '1' },
      { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1', stpFlag: 'DC' as 'CB' },
    ];
    for (const req of bad) expect(h.try('alice', req)).toEqual({ ok: false, code: -2010, msg: ENGINE_MESSAGE.unsupportedCombination });
  });

  it('Account has insufficient balance for requested action.', () => {
    const h = harness({ fund: { carol: { PHP: '99.99', BTC: '0.5' } } });
    expect(h.try('carol', limit())).toEqual({ ok: false, code: -2010, msg: ENGINE_MESSAGE.insufficientBalance });
    expect(h.try('carol', limit({ side: 'SELL', quantity: '0.501' }))).toMatchObject({ msg: ENGINE_MESSAGE.insufficientBalance });
    expect(h.try('carol', limit({ quantity: '0.999' })).ok).toBe(true);
  });

  it('LIMIT_MAKER rests when it would not take, and is rejected when it would (even against its own order)', () => {
    const h = harness();
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '101', quantity: '1' });
    h.place('alice', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '1' });
    expect(h.place('alice', { side: 'BUY', type: 'LIMIT_MAKER', price: '100.99', quantity: '1' }).order).toMatchObject({ status: 'NEW', type: 'LIMIT_MAKER' });
    expect(h.try('alice', { side: 'BUY', type: 'LIMIT_MAKER', price: '101', quantity: '1' })).toEqual({ ok: false, code: -2010, msg: ENGINE_MESSAGE.wouldMatchAndTake });
    expect(h.try('alice', { side: 'SELL', type: 'LIMIT_MAKER', price: '100.99', quantity: '1' })).toMatchObject({ msg: ENGINE_MESSAGE.wouldMatchAndTake });
  });

  it('unknown symbols and malformed numbers are invalid parameters (-1025)', () => {
    const h = harness();
    expect(h.try('alice', { ...limit(), symbol: 'ETHPHP' })).toEqual({ ok: false, code: -1025, msg: "parameter 'symbol' is not valid" });
    expect(h.try('alice', limit({ price: 'abc' }))).toEqual({ ok: false, code: -1025, msg: "parameter 'price' is not valid" });
    expect(h.try('alice', limit({ quantity: '-1' }))).toEqual({ ok: false, code: -1025, msg: "parameter 'quantity' is not valid" });
    expect(h.try('alice', { side: 'BUY', type: 'MARKET', quoteOrderQty: '1e-30' })).toMatchObject({ code: -1025 });
  });

  it('rejects without side effects: no order id is consumed, no balance moves', () => {
    const h = harness();
    const a = h.place('alice', limit());
    h.try('alice', limit({ price: '100.001' }));
    const b = h.place('alice', limit({ price: '99' }));
    expect(BigInt(b.order.orderId) - BigInt(a.order.orderId)).toBe(1n);
    expect(h.balances.get('alice', 'PHP')).toEqual({ free: '999801', locked: '199' });
  });
});
