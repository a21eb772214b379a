import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isSafeNumber, parse } from 'lossless-json';
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

/** The previous implementation: lossless-json's own parser, each number judged by isSafeNumber. */
const reference = (text: string): unknown => parse(text, null, (n) => (isSafeNumber(n) ? Number(n) : n));

/** A JSON number literal of any shape: sign, leading-zero fractions, long digit runs, exponents. */
const numberLiteral = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,24}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,24}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,4}$/)), { nil: undefined }),
  )
  .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : exp.join('')}`);

/** Strings that look like what the scan must not touch: digit runs, escaped quotes, backslashes. */
const trickyString = fc
  .array(fc.oneof(numberLiteral, fc.constantFrom('\\', '\\"', '"', ':', ',', '[', '{', ' ', 'e5', '\u0022'), fc.string()), { maxLength: 6 })
  .map((parts) => JSON.stringify(parts.join('')));

const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n');

/** JSON text of nested arrays and objects, written by hand so number literals keep their exact text. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberLiteral,
    trickyString,
    fc.constantFrom('true', 'false', 'null'),
    fc.tuple(space, fc.array(tie('value'), { maxLength: 5 }), space).map(([a, vs, b]) => `[${a}${vs.join(`${b},${a}`)}${b}]`),
    fc
      .tuple(space, fc.uniqueArray(fc.tuple(trickyString, tie('value')), { maxLength: 5, selector: ([k]) => JSON.parse(k) as string }))
      .map(([s, kvs]) => `{${s}${kvs.map(([k, v]) => `${k}${s}:${s}${v}`).join(`,${s}`)}}`),
  ),
})).value;

describe('parseJsonLossless against lossless-json (the implementation it replaced)', () => {
  it('gives the same value for any JSON text, big integers, long decimals and exponents included', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(parseJsonLossless(text)).toStrictEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same value for generated JSON values (any double, any string)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), (v) => {
        const text = JSON.stringify(v);
        expect(parseJsonLossless(text)).toStrictEqual(reference(text));
      }),
    );
  });

  it('judges every literal the scan skips (15 digits or fewer, no exponent) safe, as isSafeNumber does', () => {
    fc.assert(
      fc.property(numberLiteral, (literal) => {
        const digits = literal.replace(/^-/, '').replace('.', '');
        fc.pre(!/[eE]/.test(literal) && digits.length <= 15);
        expect(isSafeNumber(literal)).toBe(true);
      }),
    );
  });

  it('quotes an unsafe literal only where a value stands: a number key stays invalid', () => {
    expect(() => parseJsonLossless(`{${BIG}:1}`)).toThrow(SyntaxError);
    expect(() => parseJsonLossless(`{"a":1,${BIG} :1}`)).toThrow(SyntaxError);
    expect(() => parseJsonLossless(`[0${BIG}]`)).toThrow(SyntaxError);
    expect(() => parseJsonLossless(`[${BIG}.]`)).toThrow(SyntaxError);
    expect(() => parseJsonLossless(`[--${BIG}]`)).toThrow(SyntaxError);
    expect(() => parseJsonLossless(`["a"${BIG}]`)).toThrow(SyntaxError);
    expect(() => parseJsonLossless(`"${BIG}`)).toThrow(SyntaxError);
  });

  it('throws SyntaxError wherever lossless-json does on mangled JSON texts', () => {
    const mangle = fc.tuple(jsonText, fc.nat(), fc.constantFrom('', '"', ':', ',', '-', '.', 'e', '\\', '0', BIG, '}', ']')).map(([t, at, s]) => {
      const k = at % (t.length + 1);
      return t.slice(0, k) + s + t.slice(k + (at % 2));
    });
    fc.assert(
      fc.property(mangle, (text) => {
        let expected: unknown;
        try {
          expected = reference(text);
        } catch (err) {
          // lossless-json also refuses a key repeated with another value; JSON.parse keeps the last.
          if (String(err).includes('Duplicate key')) return;
          expect(() => parseJsonLossless(text)).toThrow(SyntaxError);
          return;
        }
        expect(parseJsonLossless(text)).toStrictEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('stringifyCompact', () => {
  it('is compact and leaves non-ASCII unescaped', () => {
    expect(stringifyCompact({ a: 'é', b: [1, '2'] })).toBe('{"a":"é","b":[1,"2"]}');
    expect(() => stringifyCompact(undefined)).toThrow(TypeError);
  });
});
