import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import { checkIntents, MAX_INTENTS_PER_CALL } from './intent-schema.ts';
import { cancel, cancelReplace, place } from './intents.ts';

const SYMBOLS = ['BTCPHP'];
const ok = (value: unknown) => {
  const r = checkIntents(value, SYMBOLS);
  if (!r.ok) throw new Error(r.message);
  return r.intents;
};
const bad = (value: unknown) => {
  const r = checkIntents(value, SYMBOLS);
  if (r.ok) throw new Error('expected a failure');
  return r;
};

describe('checkIntents', () => {
  it('accepts nothing as no intents', () => {
    expect(ok(undefined)).toEqual([]);
    expect(ok([])).toEqual([]);
  });

  it('normalises money to plain decimal strings, from strings or Decimals', () => {
    const [i] = ok([place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: new D('1e-8'), price: '2500000.50', tag: 'bid' })]);
    expect(i).toEqual({ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.00000001', price: '2500000.5', tag: 'bid' });
    expect(Object.isFrozen(i)).toBe(true);
  });

  it('checks what a Decimal prints: a subclass printing exponent notation or no number is refused, never passed on', () => {
    class Exponent extends D {
      override toFixed(): string {
        return '1e2';
      }
    }
    class NotANumber extends D {
      override toFixed(): string {
        return 'abc';
      }
    }
    for (const price of [new Exponent(100), new NotANumber(100)]) {
      // Both paths: the fast one (a place in normal form) and the schema's (a cancel-replace's order).
      expect(bad([place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price })])).toMatchObject({ kind: 'bad-intent', field: 'intents[0].price' });
      expect(bad([cancelReplace({ symbol: 'BTCPHP', tag: 'bid', order: { side: 'BUY', type: 'LIMIT', quantity: '1', price } })])).toMatchObject({ kind: 'bad-intent', field: 'intents[0].order.price' });
    }
    expect(bad([place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: new D(-1), price: '1' })]).message).toBe('intents[0].quantity: must be > 0, got "-1"');
  });

  it('rejects floats, naming the field and the fix', () => {
    const r = bad([place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: 101.5 as never })]);
    expect(r.kind).toBe('bad-intent');
    expect(r.field).toBe('intents[0].price');
    expect(r.message).toMatch(/^intents\[0\]\.price: expected a decimal string or Decimal, got number 101\.5 \(floats are not money: round it with ctx\.instrument\(symbol\)\.roundPrice\(\)/);
  });

  it('rejects zero, negative and malformed amounts', () => {
    expect(bad([place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0' })]).message).toBe('intents[0].quantity: must be > 0, got "0"');
    expect(bad([place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '-1' })]).field).toBe('intents[0].quantity');
    expect(bad([place({ symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '1,5' })]).message).toMatch(/got "1,5"/);
  });

  it('enforces the fields of each order type (spec 4.5)', () => {
    const p = (o: object) => bad([{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', ...o }]).message;
    expect(p({ type: 'LIMIT', quantity: '1' })).toBe('intents[0].price: LIMIT orders need price');
    expect(p({ type: 'MARKET', quantity: '1', quoteOrderQty: '5' })).toBe('intents[0].quoteOrderQty: MARKET orders take quantity or quoteOrderQty, not both');
    expect(p({ type: 'MARKET' })).toBe('intents[0].quantity: MARKET orders need quantity or quoteOrderQty');
    expect(p({ type: 'MARKET', quantity: '1', price: '5' })).toBe('intents[0].price: MARKET orders do not take price');
    expect(p({ type: 'STOP_LOSS', quantity: '1' })).toBe('intents[0].stopPrice: STOP_LOSS orders need stopPrice');
    expect(p({ type: 'STOP_LOSS_LIMIT', quantity: '1', price: '1' })).toBe('intents[0].stopPrice: STOP_LOSS_LIMIT orders need stopPrice');
    expect(p({ type: 'LIMIT_MAKER', quantity: '1', price: '1', timeInForce: 'GTC' })).toBe('intents[0].timeInForce: LIMIT_MAKER orders do not take timeInForce');
    expect(ok([{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'TAKE_PROFIT', quoteOrderQty: '100', stopPrice: '9' }])).toHaveLength(1);
    expect(ok([{ kind: 'place', symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', quantity: '1', price: '2', timeInForce: 'IOC' }])).toHaveLength(1);
  });

  it('rejects unknown fields, bad enums, bad tags and foreign symbols', () => {
    expect(bad([{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', qty: '1', quantity: '1' }]).message).toBe("intents[0]: unknown field(s) 'qty'");
    expect(bad([{ kind: 'place', symbol: 'BTCPHP', side: 'LONG', type: 'MARKET', quantity: '1' }]).field).toBe('intents[0].side');
    expect(bad([place({ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1', tag: 'has space' })]).field).toBe('intents[0].tag');
    expect(bad([place({ symbol: 'ETHPHP', side: 'BUY', type: 'MARKET', quantity: '1' })]).message).toBe("intents[0].symbol: 'ETHPHP' is not one of the strategy's symbols (BTCPHP)");
  });

  it('rejects what is not an intent list', () => {
    expect(bad({ kind: 'place' }).kind).toBe('bad-return');
    expect(bad('buy').message).toBe('intents: a handler returns an array of intents or nothing, got "buy"');
    expect(bad([null]).message).toBe("intents[0].kind: expected 'place', 'cancel' or 'cancelReplace', got null");
    expect(bad([{ kind: 'buy' }]).message).toBe(`intents[0].kind: expected 'place', 'cancel' or 'cancelReplace', got kind "buy"`);
    expect(bad([{ symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' }]).message).toBe(
      "intents[0].kind: expected 'place', 'cancel' or 'cancelReplace', got an object without one (make intents with place(), cancel() or cancelReplace())",
    );
    expect(bad(new Array(MAX_INTENTS_PER_CALL + 1).fill(cancel({ symbol: 'BTCPHP', tag: 'a' }))).kind).toBe('bad-return');
  });

  it('cancel names exactly one of tag and clientOrderId', () => {
    expect(ok([cancel({ symbol: 'BTCPHP', tag: 'bid' })])).toEqual([{ kind: 'cancel', symbol: 'BTCPHP', tag: 'bid' }]);
    expect(ok([cancel({ symbol: 'BTCPHP', clientOrderId: 'abc-1' })])).toEqual([{ kind: 'cancel', symbol: 'BTCPHP', clientOrderId: 'abc-1' }]);
    expect(bad([{ kind: 'cancel', symbol: 'BTCPHP' }]).message).toBe('intents[0].tag: name the order by tag or by clientOrderId (exactly one)');
    expect(bad([{ kind: 'cancel', symbol: 'BTCPHP', tag: 'a', clientOrderId: 'b' }]).field).toBe('intents[0].tag');
  });

  it('cancelReplace checks the new order and carries the old tag over', () => {
    const [i] = ok([cancelReplace({ symbol: 'BTCPHP', tag: 'bid', order: { side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.5', price: new D('99.90') } })]);
    expect(i).toEqual({ kind: 'cancelReplace', symbol: 'BTCPHP', tag: 'bid', order: { side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.5', price: '99.9', tag: 'bid' } });
    const r = bad([cancelReplace({ symbol: 'BTCPHP', tag: 'bid', order: { side: 'BUY', type: 'LIMIT', quantity: '0.5' } })]);
    expect(r.message).toBe('intents[0].order.price: LIMIT orders need price');
  });
});
