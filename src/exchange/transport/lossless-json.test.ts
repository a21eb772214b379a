import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJsonLossless, stringifyCompact } from './lossless-json.ts';

const BIG = '1375445991893797391';

describe('parseJsonLossless', () => {
  it('keeps ids above 2^53 exactly, as decimal strings', () => {
    expect(parseJsonLossless(`{"orderId":${BIG}}`)).toEqual({ orderId: BIG });
    expect(parseJsonLossless(`[${BIG},1,-${BIG}]`)).toEqual([BIG, 1, `-${BIG}`]);
    expect(parseJsonLossless(`{"a":{"b":[{"i":${BIG},"T":-1}]},"n":null}`)).toEqual({ a: { b: [{ i: BIG, T: -1 }] }, n: null });
    expect(parseJsonLossless(BIG)).toBe(BIG);
  });

  it('keeps safe numbers as numbers, on both paths', () => {
    expect(parseJsonLossless('{"t":1499405658658,"p":0.5,"e":1e3}')).toEqual({ t: 1499405658658, p: 0.5, e: 1000 });
    expect(parseJsonLossless(`{"id":${BIG},"t":1499405658658,"max":9007199254740991}`)).toEqual({
      id: BIG,
      t: 1499405658658,
      max: 9007199254740991,
    });
    expect(parseJsonLossless(`[${BIG},73247.300000000000000000]`)).toEqual([BIG, 73247.3]);
  });

  it('turns other numbers a double would round into strings too', () => {
    expect(parseJsonLossless('[9007199254740993,12345678901.234567]')).toEqual(['9007199254740993', '12345678901.234567']);
  });

  it('leaves strings that contain digits untouched', () => {
    const text = `{"s":"${BIG}","q":"0.006691200000000000","x":"id ${BIG} here"}`;
    expect(parseJsonLossless(text)).toEqual({ s: BIG, q: '0.006691200000000000', x: `id ${BIG} here` });
  });

  it('throws SyntaxError on invalid JSON, on both paths', () => {
    expect(() => parseJsonLossless('{"a":')).toThrow(SyntaxError);
    expect(() => parseJsonLossless(`{"a":${BIG}`)).toThrow(SyntaxError);
    expect(() => parseJsonLossless('<html>502 Bad Gateway</html>')).toThrow(SyntaxError);
    expect(() => parseJsonLossless('')).toThrow(SyntaxError);
  });

  it('agrees with JSON.parse on any JSON without unsafe integers', () => {
    const unsafeInt = (_k: string, n: unknown): unknown => {
      if (typeof n === 'number' && Number.isInteger(n) && !Number.isSafeInteger(n)) throw new RangeError('unsafe');
      return n;
    };
    const safe = (text: string): boolean => {
      try {
        JSON.parse(text, unsafeInt);
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }).map((v) => JSON.stringify(v)).filter(safe), (text) => {
        expect(parseJsonLossless(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('round-trips any 64-bit integer exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n }), (n) => {
        const out = parseJsonLossless(`{"v":${n}}`) as { v: number | string };
        expect(String(out.v)).toBe(n.toString());
      }),
    );
  });
});

describe('stringifyCompact', () => {
  it('is compact and leaves non-ASCII unescaped', () => {
    expect(stringifyCompact({ a: 'é', b: [1, '2'] })).toBe('{"a":"é","b":[1,"2"]}');
    expect(() => stringifyCompact(undefined)).toThrow(TypeError);
  });
});
