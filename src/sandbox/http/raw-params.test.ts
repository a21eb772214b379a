import { describe, expect, it } from 'vitest';
import { VenueError } from './venue-error.ts';
import { bodyKindOf, collectParams, jsonDepth, MAX_JSON_DEPTH, parseFormText, parseJsonBody, repeatedTopLevelKey } from './raw-params.ts';

describe('raw parameters (spec 1.5-1.8, notes 2.1)', () => {
  it('decodes form text, skips empty segments, keeps keys without values as empty', () => {
    const m = parseFormText('a=1&&b=x%40y+z&c&d=', 'query string');
    expect(Object.fromEntries(m)).toEqual({ a: '1', b: 'x@y z', c: '', d: '' });
  });

  it('joins repeated keys into a comma list, dropping empty repeats', () => {
    expect(parseFormText('symbols=BTCPHP&symbols=&symbols=ETHPHP', 'query string').get('symbols')).toBe('BTCPHP,ETHPHP');
  });

  it('lets the query win over the body, unless the query value is empty; path params win over both', () => {
    const v = collectParams({ rawQuery: 'a=q&b=&id=x', rawBody: 'a=b&b=body', bodyKind: 'form', pathParams: { id: '7' } });
    expect(v).toEqual({ a: 'q', b: 'body', id: '7' });
  });

  it('parses JSON bodies losslessly and refuses broken or non-object JSON', () => {
    expect(collectParams({ rawQuery: '', rawBody: '{"orderId":1375445991893797391,"x":{"y":1}}', bodyKind: 'json' })).toEqual({
      orderId: '1375445991893797391',
      x: { y: 1 },
    });
    expect(() => collectParams({ rawQuery: '', rawBody: '{"a":', bodyKind: 'json' })).toThrow(VenueError);
    expect(() => collectParams({ rawQuery: '', rawBody: '[1]', bodyKind: 'json' })).toThrow(/must be an object/);
  });

  it('answers bad percent-encoding with -1025 naming the parameter, or -1010', () => {
    const code = (text: string) => {
      try {
        parseFormText(text, 'query string');
      } catch (e) {
        return (e as VenueError).code;
      }
      return undefined;
    };
    expect(code('symbol=%E0%A4%A')).toBe(-1025);
    expect(code('%ZZ=1')).toBe(-1010);
  });

  it('tells JSON from form bodies', () => {
    expect(bodyKindOf('', 'application/json')).toBe('none');
    expect(bodyKindOf('{"a":1}', 'application/json; charset=utf-8')).toBe('json');
    expect(bodyKindOf('{"a":1}', undefined)).toBe('json');
    expect(bodyKindOf('a=1', undefined)).toBe('form');
    expect(bodyKindOf('a=1', 'text/plain')).toBe('form');
  });

  it('reports keys repeated with values, not an empty repeat (issue 24: newClientOrderId=a&newClientOrderId=b)', () => {
    const repeated = new Set<string>();
    collectParams({ rawQuery: 'x=1&x=2&e=&e=3', rawBody: 'y=1&y=&z=1&z=2', bodyKind: 'form', repeated });
    expect([...repeated].sort()).toEqual(['x', 'z']);
  });

  it('measures JSON nesting without parsing, brackets inside strings aside, and refuses a body nested too deep', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[{{"}]}')).toBe(3);
    // A string holding one backslash, then three brackets; a string holding an escaped quote and brackets.
    expect(jsonDepth('"\\\\"[[[')).toBe(3);
    expect(jsonDepth('"\\"[[["')).toBe(0);
    const deep = (n: number) => `{"a":${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(parseJsonBody(deep(MAX_JSON_DEPTH - 1))).toHaveProperty('a');
    expect(() => parseJsonBody(deep(MAX_JSON_DEPTH))).toThrow(/nested deeper than 32/);
    expect(() => parseJsonBody(deep(100_000))).toThrow(VenueError);
  });

  it('refuses a JSON body naming a top-level key twice, not keys repeated in nested objects or strings', () => {
    expect(repeatedTopLevelKey('{"a":1,"b":{"a":2},"c":"\\"a\\":"}')).toBeUndefined();
    expect(repeatedTopLevelKey('{"a":1, "b":[{"a":1}], "a" :2}')).toBe('a');
    expect(repeatedTopLevelKey('{"\\u0061":1,"a":2}')).toBe('a');
    expect(() => parseJsonBody('{"newClientOrderId":"x","newClientOrderId":"y"}')).toThrow("parameter 'newClientOrderId' is not valid: sent more than once");
  });
});

