import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSymbolSpec } from './numbers/symbol-spec.ts';
import { instrument } from './test-support.ts';
import { ParsedOrder, parseOrder } from './validate.ts';
import type { NewOrderRequest } from './types.ts';

const spec = buildSymbolSpec(instrument(), { maker: '0.001', taker: '0.001' });
const text = fc.oneof(
  fc.constantFrom('100', '100.5', '0.01', '0.000001', '1.123456789', '', ' 1', '1e2', '-1', '01.10', '1.', '.5', '+2', '9007199254740993', 'abc'),
  fc.tuple(fc.nat(100_000), fc.nat(999_999)).map(([a, b]) => `${a}.${b}`),
);

/** Same fields, in a plain object (ParsedOrder or a rejection). */
const plain = (r: unknown) => ({ ...(r as object) });

describe('parseOrder', () => {
  it('parses a usual LIMIT order exactly as the general path does (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          side: fc.constantFrom('BUY', 'SELL', 'buy'),
          price: fc.option(text, { nil: undefined }),
          quantity: fc.option(text, { nil: undefined }),
          timeInForce: fc.option(fc.constantFrom('GTC', 'IOC', 'FOK', 'GTX', ''), { nil: undefined }),
        }),
        (r) => {
          const req = { symbol: 'BTCPHP', type: 'LIMIT', ...r } as NewOrderRequest;
          // An explicit default stpFlag takes the general path; the result must not differ.
          const general = plain(parseOrder(spec, { ...req, stpFlag: 'CB' }, new ParsedOrder()));
          expect(plain(parseOrder(spec, req, new ParsedOrder()))).toEqual(general);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
