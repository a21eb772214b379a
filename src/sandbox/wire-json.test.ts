import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../exchange/transport/lossless-json.ts';
import { stringifyWire, wireId } from './wire-json.ts';

describe('stringifyWire', () => {
  it('writes bigint ids as bare numbers that a lossless parser reads back exactly', () => {
    const text = stringifyWire({ orderId: wireId('1375445991893797391'), fills: [{ tradeId: '12' }], time: 1 });
    expect(text).toBe('{"orderId":1375445991893797391,"fills":[{"tradeId":"12"}],"time":1}');
    expect(parseJsonLossless(text)).toMatchObject({ orderId: '1375445991893797391' });
  });

  it('leaves ordinary values and look-alike strings alone', () => {
    expect(stringifyWire({ a: 'x', b: [1, 2], c: null })).toBe('{"a":"x","b":[1,2],"c":null}');
    expect(stringifyWire({ s: '#big:12' })).toBe('{"s":"#big:12"}');
    expect(stringifyWire(true)).toBe('true');
  });
});
