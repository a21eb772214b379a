import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInstrument } from '../../market/instrument.ts';
import type { OrderType } from '../../market/types.ts';
import { dec } from '../../money/decimal.ts';
import { cmpPlainInt, readPlainInt, readPlainIntDown } from '../../money/plain-int.ts';
import { preTradeCheck } from './pre-trade.ts';
import { quickPreTrade } from './quick-pre-trade.ts';
import type { QuickContext } from './quick-pre-trade.ts';
import { instrument } from '../test-support.ts';
import type { OrderFields } from '../types.ts';

/** a * 10^-k written with k decimals (trailing zeros kept): values meet the bounds, grids and balances often. */
const scaled = (maxA: number, maxK: number) => fc.tuple(fc.integer({ min: 0, max: maxA }), fc.integer({ min: 0, max: maxK })).map(([a, k]) => (a / 10 ** k).toFixed(k));
const amount = fc.oneof(
  { arbitrary: scaled(3000, 4), weight: 6 },
  { arbitrary: scaled(99_999_999, 8), weight: 2 },
  fc.constantFrom('0', '0.0', '1', '1.0', '0.0010', '1.123456789', '01.10', '9007199254740991', '9007199254740993', '123456789012.345678', '99997.59215314216', '1e2', '.5', '1.', '-1', '', 'abc'),
);
const bound = fc.oneof({ arbitrary: scaled(300, 3), weight: 4 }, fc.constantFrom('0', '0.00000001', '100000000000000000000'));
const maxBound = fc.oneof({ arbitrary: fc.constant('0'), weight: 1 }, { arbitrary: scaled(100_000, 1), weight: 3 }, fc.constantFrom('100000000000000000000'));
const balance = fc.oneof(scaled(99_999_999, 2), scaled(99_999, 0), amount.filter((a) => /^\d+(\.\d+)?$/.test(a)), fc.constantFrom('99997.59215314216', '123456789012345678901234567890.5'));
const tick = fc.constantFrom('0', '0.01', '0.05', '0.001', '0.1', '1', '0.25', '0.000001');
const price = bound;

const filters = fc.record({
  price: fc.option(fc.record({ filterType: fc.constant('PRICE_FILTER'), minPrice: price, maxPrice: maxBound, tickSize: tick }), { nil: undefined }),
  lot: fc.option(fc.record({ filterType: fc.constant('LOT_SIZE'), minQty: price, maxQty: maxBound, stepSize: tick }), { nil: undefined }),
  notional: fc.option(fc.record({ filterType: fc.constant('NOTIONAL'), minNotional: price, maxNotional: maxBound }), { nil: undefined }),
  minNotional: fc.option(fc.record({ filterType: fc.constant('MIN_NOTIONAL'), minNotional: price }), { nil: undefined }),
  maxOrders: fc.option(fc.record({ filterType: fc.constant('MAX_NUM_ORDERS'), maxNumOrders: fc.integer({ min: 0, max: 3 }) }), { nil: undefined }),
  algo: fc.option(fc.record({ filterType: fc.constant('MAX_NUM_ALGO_ORDERS'), maxNumAlgoOrders: fc.integer({ min: 0, max: 2 }) }), { nil: undefined }),
  // Mostly none: a filter the fast path does not restate turns it off for the symbol.
  other: fc.oneof({ arbitrary: fc.constant(undefined), weight: 10 }, fc.constantFrom({ filterType: 'PERCENT_PRICE', multiplierUp: '5', multiplierDown: '0.2', avgPriceMins: 5 }, { filterType: 'SOMETHING_NEW' })),
});

const TYPES: readonly OrderType[] = ['MARKET', 'LIMIT', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT'];

describe('quickPreTrade', () => {
  it('approves only what preTradeCheck approves, with the same reserve', () => {
    let approved = 0;
    fc.assert(
      fc.property(
        filters,
        fc.constantFrom('TRADING', 'TRADING', 'TRADING', 'TRADING', 'BREAK'),
        fc.oneof(fc.constant(undefined), fc.subarray([...TYPES], { minLength: 1 })),
        fc.oneof(
          // The shapes the fast path takes, then anything.
          fc.record({ side: fc.constantFrom('BUY', 'SELL'), type: fc.constant('MARKET'), quoteOrderQty: amount }),
          fc.record({ side: fc.constantFrom('BUY', 'SELL'), type: fc.constant('MARKET'), quantity: amount }),
          fc.record({ side: fc.constantFrom('BUY', 'SELL'), type: fc.constant('LIMIT'), price: amount, quantity: amount }),
          fc.record({
            side: fc.constantFrom('BUY', 'SELL'),
            type: fc.constantFrom(...TYPES),
            quantity: fc.option(amount, { nil: undefined }),
            quoteOrderQty: fc.option(amount, { nil: undefined }),
            price: fc.option(amount, { nil: undefined }),
            stopPrice: fc.option(amount, { nil: undefined }),
          }),
        ),
        fc.option(fc.oneof(scaled(3000, 2), fc.constantFrom('0.0001', '99999.123456', '0', '1e3')), { freq: 6, nil: undefined }),
        fc.record({ PHP: fc.option(balance, { nil: undefined }), BTC: fc.option(balance, { nil: undefined }) }),
        fc.nat(2),
        fc.boolean(),
        (f, status, orderTypes, o, lastText, free, openOrders, requireComplete) => {
          const inst = parseInstrument({
            symbol: 'BTCPHP',
            status,
            baseAsset: 'BTC',
            baseAssetPrecision: 8,
            quoteAsset: 'PHP',
            quoteAssetPrecision: 2,
            ...(orderTypes === undefined ? {} : { orderTypes }),
            filters: Object.values(f).filter((x) => x !== undefined),
          });
          const order = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as unknown as OrderFields;
          const freeText = (asset: string) => (asset === 'PHP' || asset === 'BTC' ? (free[asset] ?? '0') : '0');
          const ctx: QuickContext = { openOrders, lastText, freeText };
          const quick = quickPreTrade('BTCPHP', order, inst, ctx);
          if (quick === undefined) return;
          approved++;
          const general = preTradeCheck('BTCPHP', order, {
            instrument: inst,
            market: { lastPrice: lastText === undefined ? undefined : dec(lastText), openOrders, openAlgoOrders: 0 },
            available: (asset) => dec(freeText(asset)),
            requireComplete,
          });
          expect(general.ok).toBe(true);
          if (!general.ok) return;
          expect(quick.asset).toBe(general.reserve.asset);
          expect(quick.estimated).toBe(general.reserve.estimated);
          expect(quick.amount.toFixed()).toBe(general.reserve.amount.toFixed());
        },
      ),
      { numRuns: 4000 },
    );
    // The generator reaches the fast path's approvals, not only its refusals.
    expect(approved).toBeGreaterThan(40);
  });

  it('agrees at the bounds: notional, lot, tick and funds met exactly or missed by one unit', () => {
    const inst = parseInstrument({
      symbol: 'BTCPHP',
      status: 'TRADING',
      baseAsset: 'BTC',
      baseAssetPrecision: 8,
      quoteAsset: 'PHP',
      quoteAssetPrecision: 2,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000', tickSize: '0.01' },
        { filterType: 'LOT_SIZE', minQty: '0.000001', maxQty: '100', stepSize: '0.000001' },
        { filterType: 'NOTIONAL', minNotional: '49.995', maxNotional: '20000.005' },
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
      ],
    });
    const near = fc.constantFrom('50', '50.00', '49.99', '49.995', '49.9950', '20000.005', '20000.004', '49.999999', '50.000001', '20000', '20000.0', '20000.01', '100', '100.000001', '99.999999', '0.000001', '0.0000009', '0.5', '0.05', '1000', '1000.005', '100000', '100000.01', '2');
    const last = fc.constantFrom('1000', '1000.5', '0.5', '50', '20000', '0.01');
    let approved = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ side: fc.constantFrom('BUY', 'SELL'), type: fc.constant('MARKET'), quoteOrderQty: near }),
          fc.record({ side: fc.constantFrom('BUY', 'SELL'), type: fc.constant('MARKET'), quantity: near }),
          fc.record({ side: fc.constantFrom('BUY', 'SELL'), type: fc.constant('LIMIT'), price: near, quantity: near }),
        ),
        last,
        near,
        (order, lastText, free) => {
          const quick = quickPreTrade('BTCPHP', order as OrderFields, inst, { openOrders: 0, lastText, freeText: () => free });
          const general = preTradeCheck('BTCPHP', order as OrderFields, { instrument: inst, market: { lastPrice: dec(lastText), openOrders: 0, openAlgoOrders: 0 }, available: () => dec(free) });
          if (quick === undefined) return;
          approved++;
          expect(general.ok).toBe(true);
          if (general.ok) expect([quick.asset, quick.estimated, quick.amount.toFixed()]).toEqual([general.reserve.asset, general.reserve.estimated, general.reserve.amount.toFixed()]);
        },
      ),
      { numRuns: 3000 },
    );
    expect(approved).toBeGreaterThan(100);
  });

  it('takes the common orders, and leaves failures, pending claims and other shapes to the general check', () => {
    const inst = instrument();
    const ctx = (over: Partial<QuickContext> = {}): QuickContext => ({ openOrders: 0, lastText: '100', freeText: () => '1000', ...over });
    const buy: OrderFields = { side: 'BUY', type: 'MARKET', quoteOrderQty: '500' };
    const r = quickPreTrade('BTCPHP', buy, inst, ctx());
    // Seen as the plain reserve it stands for: keys in order, the amount a value.
    expect(r).toEqual({ asset: 'PHP', amount: dec('500'), estimated: false });
    expect(Object.keys({ ...r })).toEqual(['asset', 'amount', 'estimated']);
    expect(JSON.stringify(r)).toBe('{"asset":"PHP","amount":"500","estimated":false}');
    expect(quickPreTrade('BTCPHP', { side: 'SELL', type: 'MARKET', quantity: '2.5' }, inst, ctx())?.amount.toFixed()).toBe('2.5');
    expect(quickPreTrade('BTCPHP', { side: 'BUY', type: 'MARKET', quantity: '2.5' }, inst, ctx())?.amount.toFixed()).toBe('250');
    expect(quickPreTrade('BTCPHP', { side: 'BUY', type: 'LIMIT', price: '99.5', quantity: '2' }, inst, ctx())?.amount.toFixed()).toBe('199');
    // Funds short, a claim by a pending order, three open orders already, no last price, an off-step quantity, another symbol.
    expect(quickPreTrade('BTCPHP', buy, inst, ctx({ freeText: () => '499.99' }))).toBeUndefined();
    expect(quickPreTrade('BTCPHP', buy, inst, ctx({ freeText: () => undefined }))).toBeUndefined();
    expect(quickPreTrade('BTCPHP', buy, inst, ctx({ openOrders: 3 }))).toBeUndefined();
    expect(quickPreTrade('BTCPHP', { side: 'SELL', type: 'MARKET', quantity: '2.5' }, inst, ctx({ lastText: undefined }))).toBeUndefined();
    expect(quickPreTrade('BTCPHP', { side: 'SELL', type: 'MARKET', quantity: '2.5001' }, inst, ctx())).toBeUndefined();
    expect(quickPreTrade('ETHPHP', buy, inst, ctx())).toBeUndefined();
  });
});

describe('plain-int', () => {
  const out = { v: 0, s: 0 };
  it('reads plain texts exactly, refuses the rest', () => {
    expect(readPlainInt('1.10', out) && [out.v, out.s]).toEqual([110, 2]);
    expect(readPlainInt('9007199254740991', out)).toBe(true);
    for (const t of ['9007199254740992', '', '1.', '.5', '-1', '+1', '1e2', '1.2.3', ' 1']) expect(readPlainInt(t, out)).toBe(false);
  });

  it('truncates fraction digits past a safe integer when asked, never the integer part', () => {
    expect(readPlainIntDown('99997.59215314216', out) && [out.v, out.s]).toEqual([999975921531421, 10]);
    expect(readPlainIntDown('12.5', out) && [out.v, out.s]).toEqual([125, 1]);
    expect(readPlainIntDown('90071992547409921', out)).toBe(false);
    expect(readPlainIntDown('1.x', out)).toBe(false);
  });

  it('compares across scales, unknown when aligning overflows', () => {
    expect(cmpPlainInt(15, 1, 150, 2)).toBe(0);
    expect(cmpPlainInt(1, 0, 99, 2)).toBe(1);
    expect(cmpPlainInt(9007199254740991, 0, 1, 1)).toBeUndefined();
    fc.assert(
      fc.property(fc.nat(1e9), fc.integer({ min: 0, max: 9 }), fc.nat(1e9), fc.integer({ min: 0, max: 9 }), (a, sa, b, sb) => {
        const c = cmpPlainInt(a, sa, b, sb);
        if (a * 10 ** Math.abs(sa - sb) <= Number.MAX_SAFE_INTEGER && b * 10 ** Math.abs(sa - sb) <= Number.MAX_SAFE_INTEGER) expect(c).toBe(dec(`${a}e-${sa}`).cmp(dec(`${b}e-${sb}`)));
      }),
    );
  });
});
