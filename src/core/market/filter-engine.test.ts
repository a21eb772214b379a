import { describe, expect, it } from 'vitest';
import { checkOrder } from './filter-engine.ts';
import { parseInstrument } from './instrument.ts';
import { levels, market, order } from './test-support.ts';

const instrument = parseInstrument({
  symbol: 'BTCPHP',
  status: 'TRADING',
  baseAsset: 'BTC',
  quoteAsset: 'PHP',
  baseAssetPrecision: '8',
  quoteAssetPrecision: '2',
  orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '10000000', tickSize: '0.01' },
    { filterType: 'PERCENT_PRICE', multiplierUp: '1.1', multiplierDown: '0.9', avgPriceMins: 5 },
    { filterType: 'PERCENT_PRICE_ORDER_SIZE', multiplierUp: '1.05', multiplierDown: '0.95' },
    { filterType: 'LOT_SIZE', minQty: '0.000001', maxQty: '1000', stepSize: '0.000001' },
    { filterType: 'NOTIONAL', minNotional: '100', maxNotional: '10000000' },
    { filterType: 'MAX_NUM_ORDERS', maxNumOrders: '200' },
    { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
    { filterType: 'TRAILING_DELTA', minTrailingAboveDelta: 10 },
  ],
});
const full = market({ weightedAvgPrice: '3000000', asks: levels(['3000000', '1']), bids: levels(['2999999', '1']), openOrders: 3, openAlgoOrders: 0 });

describe('checkOrder', () => {
  it('passes a valid order, complete except for the unknown filter', () => {
    const r = checkOrder(instrument, order({ price: '3000000', quantity: '0.001' }), full);
    expect(r).toMatchObject({ ok: true, complete: false, violations: [], rejections: [], skipped: [] });
    expect(r.unknownFilters).toEqual(['TRAILING_DELTA']);
  });
  it('returns every violation at once, each with its 7.5 text', () => {
    const r = checkOrder(instrument, order({ price: '0.015', quantity: '0.0000015' }), { ...full, openOrders: 200 });
    expect(r.ok).toBe(false);
    expect(r.violations.map((v) => [v.message, v.reason])).toEqual([
      ['Filter failure: PRICE_FILTER', 'off-tick'],
      ['Filter failure: PERCENT_PRICE', 'below-min'],
      ['Filter failure: LOT_SIZE', 'off-step'],
      ['Filter failure: NOTIONAL', 'below-min'],
      ['Filter failure: MAX_NUM_ORDERS', 'too-many'],
    ]);
  });
  it('counts a new algo order against both order limits', () => {
    const r = checkOrder(instrument, order({ type: 'STOP_LOSS_LIMIT', price: '3000000', stopPrice: '3000000', quantity: '0.001' }), {
      ...full,
      openOrders: 200,
      openAlgoOrders: 5,
    });
    expect(r.violations.map((v) => v.message)).toEqual(['Filter failure: MAX_NUM_ORDERS', 'Filter failure: MAX_ALGO_ORDERS']);
  });
  it('lists checks it could not run instead of passing them silently', () => {
    const r = checkOrder(instrument, order({ type: 'MARKET', quantity: '0.001' }));
    expect(r.ok).toBe(true);
    expect(r.complete).toBe(false);
    expect(r.skipped).toEqual([
      { filterType: 'PERCENT_PRICE_ORDER_SIZE', why: 'bestAsk unknown' },
      { filterType: 'NOTIONAL', why: 'MARKET order notional needs quoteOrderQty, lastPrice or weightedAvgPrice' },
      { filterType: 'MAX_NUM_ORDERS', why: 'openOrders unknown' },
    ]);
  });
  it('reports spec 7.4 rejections beside filter violations', () => {
    const r = checkOrder(instrument, order({ type: 'TAKE_PROFIT', stopPrice: '3000000.001', quantity: '1' }), full);
    expect(r.rejections.map((x) => x.message)).toEqual(['Take profit orders are not supported for this symbol.']);
    expect(r.violations.map((v) => [v.field, v.reason])).toEqual([['stopPrice', 'off-tick']]);
    expect(r.ok).toBe(false);
  });
  it('refuses an order for another symbol', () => {
    expect(() => checkOrder(instrument, order({ symbol: 'ETHPHP', price: '1', quantity: '1' }))).toThrow(RangeError);
  });
});
