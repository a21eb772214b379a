/**
 * The pure local book (order-book.ts, price-key.ts): exact price order by normalised text, levels
 * set, replaced and removed by absolute quantities, a 0 for an unknown level ignored; a property
 * test against a model keyed by Decimal (the obvious, slow, exact implementation).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import { OrderBook } from './order-book.ts';
import { compareKeys, priceKey } from './price-key.ts';

/** Plain non-negative decimal text with optional leading and trailing zeros. */
const priceText = fc
  .record({ lead: fc.nat(2), int: fc.bigInt({ min: 0n, max: 10n ** 20n }), frac: fc.option(fc.stringMatching(/^\d{1,8}$/), { nil: undefined }), trail: fc.nat(2) })
  .map(({ lead, int, frac, trail }) => `${'0'.repeat(lead)}${String(int)}${frac === undefined ? '' : `.${frac}${'0'.repeat(trail)}`}`);

describe('price keys', () => {
  it('normalise equal prices to equal keys', () => {
    expect(['3500000', '3500000.00', '003500000.0'].map((p) => priceKey(p))).toEqual(['3500000', '3500000', '3500000']);
    expect(['0.0024', '00.00240', '0', '0.000', '000'].map((p) => priceKey(p))).toEqual(['0.0024', '0.0024', '0', '0', '0']);
    expect(() => priceKey('-1')).toThrow('price: expected a plain non-negative decimal, got "-1"');
    expect(() => priceKey('1e5')).toThrow(TypeError);
  });

  it('order exactly as Decimal does (property)', () => {
    fc.assert(
      fc.property(priceText, priceText, (a, b) => {
        const expected = new D(a).comparedTo(new D(b));
        expect(Math.sign(compareKeys(priceKey(a), priceKey(b)))).toBe(expected);
        expect(priceKey(a) === priceKey(b)).toBe(expected === 0);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('OrderBook', () => {
  it('starts from the snapshot, sorts bids down and asks up, applies absolute quantities', () => {
    const book = new OrderBook({
      lastUpdateId: '160',
      bids: [
        ['99.5', '1'],
        ['100', '2'],
        ['9.99', '3'],
      ],
      asks: [
        ['101', '1'],
        ['100.5', '4'],
      ],
    });
    expect(book.lastUpdateId).toBe(160n);
    expect(book.bids.top()).toEqual([
      ['100', '2'],
      ['99.5', '1'],
      ['9.99', '3'],
    ]);
    expect(book.bestAsk()).toEqual(['100.5', '4']);
    book.apply(
      161n,
      [
        ['100.00', '5'],
        ['99.5', '0'],
        ['98', '0'],
      ],
      [['100.1', '0.5']],
    );
    expect(book.lastUpdateId).toBe(161n);
    // "100.00" is the level "100": replaced (and shown as last sent); 99.5 removed; 98 unknown, ignored.
    expect(book.bids.top()).toEqual([
      ['100.00', '5'],
      ['9.99', '3'],
    ]);
    expect(book.asks.top(2)).toEqual([
      ['100.1', '0.5'],
      ['100.5', '4'],
    ]);
    expect(book.asks.top(1)).toEqual([['100.1', '0.5']]);
    book.apply(162n, [], [['100.1', '0.000']]);
    expect(book.bestAsk()).toEqual(['100.5', '4']);
    expect(new OrderBook({ lastUpdateId: 1, bids: [], asks: [] }).bestBid()).toBeUndefined();
  });

  it('refuses a snapshot id that is not an integer', () => {
    expect(() => new OrderBook({ lastUpdateId: 'x', bids: [], asks: [] })).toThrow('lastUpdateId: expected an integer, got x');
  });

  it('equals a Decimal-keyed model after any sequence of level changes (property)', () => {
    const level = fc.tuple(fc.constantFrom('1', '1.0', '1.5', '2', '02', '2.25', '10', '0.5', '100.000'), fc.constantFrom('0', '0.0', '1', '2.5', '0.001'));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), level), { maxLength: 60 }), (changes) => {
        const book = new OrderBook({ lastUpdateId: 0, bids: [], asks: [] });
        const model = { bids: new Map<string, [string, string]>(), asks: new Map<string, [string, string]>() };
        for (const [isBid, [p, q]] of changes) {
          book.apply(1n, isBid ? [[p, q]] : [], isBid ? [] : [[p, q]]);
          const side = isBid ? model.bids : model.asks;
          const key = new D(p).toFixed();
          if (new D(q).isZero()) side.delete(key);
          else side.set(key, [p, q]);
        }
        const sorted = (m: Map<string, [string, string]>, down: boolean) => [...m.values()].sort((x, y) => new D(x[0]).comparedTo(new D(y[0])) * (down ? -1 : 1));
        expect(book.bids.top()).toEqual(sorted(model.bids, true));
        expect(book.asks.top()).toEqual(sorted(model.asks, false));
      }),
      { numRuns: 500 },
    );
  });
});
