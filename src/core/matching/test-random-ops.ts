/**
 * Random engine operations for the property tests (properties.test.ts, restore.test.ts): three
 * accounts, every order type, prices in half-units around 100 on BTCPHP. Test support only.
 */
import fc from 'fast-check';
import type { NewOrderRequest } from './types.ts';

export const ACCOUNTS = ['a', 'b', 'c'] as const;
const TYPES = ['LIMIT', 'LIMIT', 'LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const;

/** A price `ticks` half-units from 100. */
export const px = (ticks: number): string => String(100 + ticks / 2);

/** The fields of a random placement (the tests add their own). */
export const placeFields = {
  op: fc.constant('place' as const),
  acct: fc.integer({ min: 0, max: 2 }),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  type: fc.constantFrom(...TYPES),
  tif: fc.constantFrom('GTC' as const, 'IOC' as const, 'FOK' as const),
  price: fc.integer({ min: -6, max: 6 }),
  stop: fc.integer({ min: -6, max: 6 }),
  qty: fc.integer({ min: 1, max: 30 }),
  quote: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
  stp: fc.constantFrom('CB' as const, 'CN' as const, 'CO' as const),
  ext: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: fc.integer({ min: -6, max: 6 }), weight: 1 }),
};

export const cancelAllOp = fc.record({ op: fc.constant('cancelAll' as const), acct: fc.integer({ min: 0, max: 2 }) });
export const printOp = fc.record({ op: fc.constant('print' as const), price: fc.integer({ min: -8, max: 8 }), touch: fc.boolean(), maxQty: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }) });

type PlaceFields = { [K in keyof typeof placeFields]: (typeof placeFields)[K] extends fc.Arbitrary<infer T> ? T : never };

/** The request of a random placement: the fields its type takes, sized by quote when it has one and no price. */
export function request(o: PlaceFields & { cid?: string | undefined }): NewOrderRequest {
  const priced = o.type === 'LIMIT' || o.type === 'LIMIT_MAKER' || o.type === 'STOP_LOSS_LIMIT' || o.type === 'TAKE_PROFIT_LIMIT';
  const stop = o.type.startsWith('STOP') || o.type.startsWith('TAKE');
  const byQuote = !priced && o.quote !== undefined;
  return {
    symbol: 'BTCPHP',
    side: o.side,
    type: o.type,
    timeInForce: priced && o.type !== 'LIMIT_MAKER' ? o.tif : undefined,
    price: priced ? px(o.price) : undefined,
    stopPrice: stop ? px(o.stop) : undefined,
    quantity: byQuote ? undefined : String(o.qty / 10),
    quoteOrderQty: byQuote ? String((o.quote ?? 0) * 10) : undefined,
    stpFlag: o.stp,
    ...(o.cid === undefined ? {} : { clientOrderId: o.cid }),
  };
}
