/**
 * Property: whatever JSON arrives, the stream decoders either return a value or throw a
 * DecodeError, never a TypeError or anything else that would escape the caller's "log it and go
 * on" (issue 20, bad input). Arbitrary JSON values, arbitrary JSON text through the lossless
 * parse, and valid samples with one field replaced or removed (the likeliest real damage).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../transport/lossless-json.ts';
import { DecodeError } from './decode-error.ts';
import { decodeMarketEvent } from './market-payloads.ts';
import { decodeUserEvent } from './user-payloads.ts';

const SAMPLES = [
  '{"e":"executionReport","E":1499405658658,"s":"ETHBTC","c":"1000087761","S":"BUY","o":"LIMIT","f":"GTC","q":"1.00000000","p":"0.10264410","P":"0.00000000","x":"NEW","X":"NEW","r":"NONE","i":1241518645726809840,"l":"0.00000000","z":"0.00000000","L":"0.00000000","n":"0","N":null,"T":-1,"t":-1,"w":true,"m":false,"O":1499405658657,"Z":"0.00000000","Y":"0.00000000","Q":"0.00000000"}',
  '{"e":"outboundAccountPosition","E":1564034571105,"u":1564034571073,"B":[{"a":"ETH","f":"10000.000000","l":"0.000000"}],"em":"test@example.com"}',
  '{"e":"balanceUpdate","E":1573200697110,"a":"ETH","d":"100.00000000","T":1573200697068,"BS":"CHAIN_DEPOSIT","em":"test@example.com","BI":"123456789"}',
  '{"e":"trade","E":1,"s":"BTCPHP","t":1640734866998845445,"p":"1.5","q":"2","b":1,"a":2,"T":1,"m":true,"M":true}',
  '{"e":"aggTrade","E":1,"s":"BTCPHP","a":1,"p":"1","q":"1","f":1,"l":2,"T":1,"m":false,"M":true}',
  '{"e":"kline","E":1,"s":"BTCPHP","k":{"t":1,"T":2,"s":"BTCPHP","i":"1m","f":1,"L":2,"o":"1","c":"1","h":"1","l":"1","v":"1","n":1,"x":false,"q":"1","V":"1","Q":"1","B":"0"}}',
  '{"e":"24hrMiniTicker","E":1,"s":"BTCPHP","c":"1","o":"1","h":"1","l":"1","v":"1","q":"1"}',
  '{"e":"24hrTicker","E":1,"s":"BTCPHP","p":"0","P":"0","w":"1","x":"1","c":"1","Q":"1","b":"1","B":"1","a":"1","A":"1","o":"1","h":"1","l":"1","v":"1","q":"1","O":1,"C":2,"F":1,"L":2,"n":1}',
  '{"u":400900217,"s":"BNBUSDT","b":"25.35190000","B":"31.21000000","a":"25.36520000","A":"40.66000000"}',
  '{"s":"BTCPHP","e":"depth","E":1,"lastUpdateId":160,"bids":[["0.0024","10"]],"asks":[["0.0026","100"]]}',
  '{"e":"depthUpdate","E":1,"s":"BNBBTC","U":157,"u":160,"b":[["0.0024","10"]],"a":[["0.0026","100"]]}',
].map((raw) => parseJsonLossless(raw) as Record<string, unknown>);

const STREAMS = [undefined, 'btcphp@bookTicker', '!bookTicker', '!miniTicker@arr', '!ticker@arr', 'btcphp@depth', 'btcphp@depth5'] as const;

/** Runs both dispatchers; true when each returned or threw a DecodeError. */
function onlyDecodeErrors(stream: string | undefined, payload: unknown): boolean {
  for (const decode of [() => decodeMarketEvent(stream, payload), () => decodeUserEvent(payload)]) {
    try {
      decode();
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
    }
  }
  return true;
}

/** A JSON value that may be an array of samples (the `@arr` streams), or a sample's nested level. */
const damaged = fc
  .record({
    sample: fc.constantFrom(...SAMPLES),
    key: fc.string({ maxLength: 3 }),
    pick: fc.nat(),
    value: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
  })
  .map(({ sample, key, pick, value }) => {
    const keys = Object.keys(sample);
    const target = keys[pick % keys.length] ?? key;
    const copy: Record<string, unknown> = { ...sample };
    if (value === undefined) delete copy[target];
    else copy[pick % 3 === 0 ? key : target] = value;
    return copy;
  });

describe('stream decoders never throw anything but DecodeError', () => {
  it('on arbitrary JSON values', () => {
    fc.assert(fc.property(fc.constantFrom(...STREAMS), fc.jsonValue({ maxDepth: 4 }), onlyDecodeErrors), { numRuns: 2000 });
  });

  it('on arbitrary JSON text parsed losslessly (long integers become strings)', () => {
    fc.assert(fc.property(fc.constantFrom(...STREAMS), fc.json({ maxDepth: 3 }), (stream, text) => onlyDecodeErrors(stream, parseJsonLossless(text))), { numRuns: 1000 });
  });

  it('on valid samples with one field replaced, added or removed, alone or in an array', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STREAMS), damaged, fc.boolean(), (stream, payload, inArray) => onlyDecodeErrors(stream, inArray ? [payload] : payload)),
      { numRuns: 3000 },
    );
  });

  it('on non-JSON JavaScript values a caller might pass (undefined, NaN, bigint, functions)', () => {
    fc.assert(fc.property(fc.constantFrom(...STREAMS), fc.anything({ withBigInt: true, maxDepth: 2 }), onlyDecodeErrors), { numRuns: 1000 });
    for (const v of [undefined, Number.NaN, 10n, () => 1, Symbol('x')]) {
      expect(onlyDecodeErrors(undefined, v)).toBe(true);
      expect(onlyDecodeErrors(undefined, { ...SAMPLES[0], i: v, q: v })).toBe(true);
    }
  });
});
