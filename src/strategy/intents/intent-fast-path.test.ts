import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import { ORDER_TYPES } from '../../core/market/types.ts';
import { fastPlace, ORDER_NEEDS } from './intent-fast-path.ts';
import { checkIntents } from './intent-schema.ts';

const amount = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 6 },
  { arbitrary: fc.constantFrom('1', '0.5', '100.25', new D('1.5'), new D('1e-7'), new D('12345678901234567890.123')), weight: 4 },
  { arbitrary: fc.constantFrom('0', '01', '1.50', '-1', '1e3', ' 2', 'abc', '0.0', new D('0'), new D('-2'), new D(NaN), 1.5, null), weight: 1 },
);
const intent = fc.record(
  {
    kind: fc.constant('place'),
    symbol: fc.constantFrom('BTCPHP', 'BTCPHP', '', 'ETHPHP'),
    side: fc.constantFrom('BUY', 'SELL', 'buy'),
    type: fc.constantFrom(...ORDER_TYPES, 'OCO'),
    quantity: amount,
    quoteOrderQty: amount,
    price: amount,
    stopPrice: amount,
    timeInForce: fc.constantFrom('GTC', 'IOC', 'XYZ', undefined),
    tag: fc.constantFrom('entry', 'bad tag', '', undefined),
    extra: fc.constantFrom(1, undefined),
  },
  { requiredKeys: ['kind', 'symbol', 'side', 'type'] },
);

const good = fc.constantFrom('1', '0.5', '100.25', new D('1.5'), new D('2.50'), new D('1e-7'));
/** Well-formed intents of every type (the fast path should answer all of these). */
const valid = fc
  .record({ type: fc.constantFrom(...ORDER_TYPES), side: fc.constantFrom('BUY', 'SELL'), a: good, b: good, c: good, byQuote: fc.boolean(), tag: fc.constantFrom('entry', undefined), tif: fc.constantFrom('GTC', 'FOK', undefined) })
  .map(({ type, side, a, b, c, byQuote, tag, tif }) => {
    const need = ORDER_NEEDS[type];
    const o: Record<string, unknown> = { kind: 'place', symbol: 'BTCPHP', side, type, tag };
    for (const k of need.required) o[k] = k === 'price' ? a : k === 'stopPrice' ? b : c;
    if (need.oneOf) o[need.oneOf[byQuote ? 1 : 0]] = c;
    if (!need.forbidden.includes('timeInForce')) o.timeInForce = tif;
    return o;
  });

/** The same intent as an object with no prototype: the fast path declines it, so zod decides. */
const viaSchema = (o: object) => checkIntents([Object.assign(Object.create(null) as object, o)], ['BTCPHP']);

describe('intent fast path', () => {
  it('agrees with the zod schema on output (fields, key order, frozen) whenever it answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.oneof(intent, valid), (o) => {
        const quick = fastPlace(o);
        const full = viaSchema(o);
        const mixed = checkIntents([o], ['BTCPHP']);
        expect(JSON.stringify(mixed)).toBe(JSON.stringify(full));
        if (quick === undefined) return;
        answered++;
        expect(Object.isFrozen(quick)).toBe(true);
        expect(full.ok).toBe(quick.symbol === 'BTCPHP');
        if (full.ok) expect(JSON.stringify(quick)).toBe(JSON.stringify(full.intents[0]));
      }),
      { numRuns: 3000, seed: 7 },
    );
    expect(answered).toBeGreaterThan(1000);
  });

  it('takes the place() helper shapes the strategies return', () => {
    expect(fastPlace({ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'entry' })).toEqual({ side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'entry', kind: 'place', symbol: 'BTCPHP' });
    expect(fastPlace({ kind: 'place', symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: new D('0.01230') })?.quantity).toBe('0.0123');
    expect(fastPlace({ kind: 'place', symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.01230' })).toBeUndefined();
  });
});
