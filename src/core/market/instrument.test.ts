import { describe, expect, it } from 'vitest';
import { InstrumentParseError } from './parse-fields.ts';
import { parseInstrument, parseInstruments } from './instrument.ts';

/** The spec 4.1 exchangeInfo example (copied: core may not import the exchange layer). */
const btcphp = () => ({
  symbol: 'BTCPHP',
  status: 'TRADING',
  baseAsset: 'BTC',
  baseAssetPrecision: '8',
  quoteAsset: 'PHP',
  quoteAssetPrecision: '2',
  orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '10000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.000001', maxQty: '1000', stepSize: '0.000001' },
    { filterType: 'NOTIONAL', minNotional: '100', maxNotional: '10000000' },
    { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
    { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
  ] as Record<string, unknown>[],
});
const info = (...symbols: unknown[]) => ({ timezone: 'UTC', serverTime: 1538323200000, exchangeFilters: [], symbols });

describe('parseInstrument', () => {
  it('parses the spec example with typed filters', () => {
    const i = parseInstrument(btcphp());
    expect(i).toMatchObject({ symbol: 'BTCPHP', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'PHP' });
    expect([i.baseAssetPrecision, i.quoteAssetPrecision]).toEqual([8, 2]);
    expect(i.filters.map((f) => f.filterType)).toEqual(['PRICE_FILTER', 'LOT_SIZE', 'NOTIONAL', 'MAX_NUM_ORDERS', 'MAX_NUM_ALGO_ORDERS']);
    expect(i.filter('PRICE_FILTER')?.tickSize.toFixed()).toBe('0.01');
    expect(i.filter('MAX_NUM_ORDERS')?.maxNumOrders).toBe(200);
    expect(i.filter('PERCENT_PRICE')).toBeUndefined();
    expect(i.unknownFilters).toEqual([]);
  });
  it('accepts numbers where the wire sends strings and the reverse', () => {
    const raw = { ...btcphp(), baseAssetPrecision: 8, quoteAssetPrecision: 2 };
    raw.filters = [{ filterType: 'PRICE_FILTER', minPrice: 0.01, maxPrice: 10000000, tickSize: 0.01 }, { filterType: 'MAX_NUM_ORDERS', maxNumOrders: '200' }];
    const i = parseInstrument(raw);
    expect(i.baseAssetPrecision).toBe(8);
    expect(i.filter('PRICE_FILTER')?.minPrice.toFixed()).toBe('0.01');
    expect(i.filter('MAX_NUM_ORDERS')?.maxNumOrders).toBe(200);
  });
  it('keeps unknown filter types to report, in order', () => {
    const raw = btcphp();
    raw.filters.push({ filterType: 'ICEBERG_PARTS', limit: 10 }, { filterType: 'TRAILING_DELTA', minTrailingAboveDelta: 10 });
    const i = parseInstrument(raw);
    expect(i.unknownFilters).toEqual(['ICEBERG_PARTS', 'TRAILING_DELTA']);
    expect(i.filters).toHaveLength(5);
  });
  it('is frozen: its filters and order types cannot be changed by whoever holds it (a strategy, through ctx.instrument())', () => {
    const i = parseInstrument({ ...btcphp(), orderTypes: ['LIMIT', 'MARKET'] });
    const n = i.filters.length;
    expect(Object.isFrozen(i)).toBe(true);
    expect(() => ((i.filters as unknown[]).length = 0)).toThrow(TypeError);
    expect(() => (i.orderTypes as string[]).push('STOP_LOSS')).toThrow(TypeError);
    expect(() => Object.assign(i.filters[0] as object, { filterType: 'X' })).toThrow(TypeError);
    expect(i.filters).toHaveLength(n);
    expect(i.filter('PRICE_FILTER')).toBeDefined();
  });

  it('keeps orderTypes undefined when absent', () => {
    const { orderTypes: _drop, ...raw } = btcphp();
    expect(parseInstrument(raw).orderTypes).toBeUndefined();
  });
  it('rounds with the symbol grids, from minPrice and minQty', () => {
    const raw = btcphp();
    raw.filters[0] = { filterType: 'PRICE_FILTER', minPrice: '0.005', maxPrice: '0', tickSize: '0.01' };
    const i = parseInstrument(raw);
    expect(i.roundPrice('1.0124').toFixed()).toBe('1.015');
    expect(i.roundPrice('1.0124', 'down').toFixed()).toBe('1.005');
    expect(i.roundQty('0.12345678').toFixed()).toBe('0.123456');
    expect(i.roundQty('0.1234561', 'up').toFixed()).toBe('0.123457');
    const bare = parseInstrument({ ...btcphp(), filters: [] });
    expect(bare.roundPrice('1.0124').toFixed()).toBe('1.0124');
    expect(bare.roundQty(0.5).toFixed()).toBe('0.5');
  });
});

describe('parse errors name the field path', () => {
  const fails = (mutate: (raw: ReturnType<typeof btcphp>) => unknown, message: string) => {
    const raw = btcphp();
    const bad = mutate(raw) ?? raw;
    expect(() => parseInstruments(info(btcphp(), bad))).toThrow(message);
    try {
      parseInstruments(info(btcphp(), bad));
    } catch (e) {
      expect(e).toBeInstanceOf(InstrumentParseError);
    }
  };
  it('in filters', () => {
    fails((r) => void (r.filters[2] = { filterType: 'NOTIONAL', minNotional: 'abc', maxNotional: '1' }), 'symbols[1].filters[2].minNotional: "abc" is not a decimal');
    fails((r) => void (r.filters[0] = { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1', tickSize: 'abc' }), 'symbols[1].filters[0].tickSize: "abc" is not a decimal');
    fails((r) => void (r.filters[1] = { minQty: '1' }), 'symbols[1].filters[1].filterType is missing');
    fails((r) => void (r.filters[3] = { filterType: 'MAX_NUM_ORDERS', maxNumOrders: -1 }), 'symbols[1].filters[3].maxNumOrders: -1 is not a non-negative integer');
    fails((r) => ({ ...r, filters: 'none' }), 'symbols[1].filters: "none" is not an array');
    fails((r) => void (r.filters[4] = 7 as unknown as Record<string, unknown>), 'symbols[1].filters[4]: 7 is not an object');
  });
  it('in symbol fields', () => {
    fails((r) => ({ ...r, baseAssetPrecision: 'eight' }), 'symbols[1].baseAssetPrecision: "eight" is not a non-negative integer');
    fails((r) => ({ ...r, symbol: undefined }), 'symbols[1].symbol is missing');
    fails((r) => ({ ...r, orderTypes: ['LIMIT', 3] }), 'symbols[1].orderTypes[1]: 3 is not a string');
  });
  it('in the response and for a repeated symbol', () => {
    expect(() => parseInstruments({ symbols: {} })).toThrow('symbols: {} is not an array');
    expect(() => parseInstruments(null)).toThrow('exchangeInfo: null is not an object');
    expect(() => parseInstruments(info(btcphp(), btcphp()))).toThrow('symbols[1].symbol: "BTCPHP" is listed twice');
  });
  it('without a prefix when parsing one symbol', () => {
    expect(() => parseInstrument({ ...btcphp(), quoteAsset: '' })).toThrow('quoteAsset: "" is not a non-empty string');
  });
});

describe('parseInstruments', () => {
  it('maps symbols', () => {
    const map = parseInstruments(info(btcphp(), { ...btcphp(), symbol: 'ETHPHP', baseAsset: 'ETH' }));
    expect([...map.keys()]).toEqual(['BTCPHP', 'ETHPHP']);
    expect(map.get('ETHPHP')?.baseAsset).toBe('ETH');
  });
});
