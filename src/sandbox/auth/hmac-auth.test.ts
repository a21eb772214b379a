import { describe, expect, it } from 'vitest';
import { findRoute } from '../../exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import { collectParams, bodyKindOf } from '../http/raw-params.ts';
import { VenueError } from '../http/venue-error.ts';
import { authenticateSigned } from './hmac-auth.ts';
import { hmacSha256Hex } from '../../exchange/signing/hmac.ts';
import { VECTOR_KEY, VECTOR_SECRET, vectorSetup } from './test-support.ts';

const T = 1538323200000;
const newOrder = findRoute('POST', '/openapi/v1/order') as AnyEndpoint;
const cashOut = findRoute('POST', '/openapi/fiat/v1/cash-out') as AnyEndpoint;
const cryptoAccounts = findRoute('GET', '/openapi/account/v3/crypto-accounts') as AnyEndpoint;

function call(opts: { rawQuery?: string; rawBody?: string; contentType?: string; headers?: Record<string, string>; now?: number; def?: AnyEndpoint; config?: Parameters<typeof vectorSetup>[0] }) {
  const { accounts, config } = vectorSetup(opts.config);
  const rawQuery = opts.rawQuery ?? '';
  const rawBody = opts.rawBody ?? '';
  const bodyKind = bodyKindOf(rawBody, opts.contentType);
  const headers = { 'x-service-apikey': VECTOR_KEY, ...(opts.contentType ? { 'content-type': opts.contentType } : {}), ...opts.headers };
  const values = collectParams({ rawQuery, rawBody, bodyKind });
  return () => authenticateSigned({ def: opts.def ?? newOrder, rawQuery, rawBody, bodyKind, headers, values, ip: '127.0.0.1', now: opts.now ?? T }, accounts, config);
}

const codeOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (e instanceof VenueError) return e.code;
    throw e;
  }
};

const EX1 = 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
const SIG1 = 'd7b09aa959094bafd1de10be3985651691fff6cc04b5cd94aea8cc1ca02e0ed8';

describe('HMAC authentication with the official vectors (notes 3)', () => {
  it('accepts examples 1 and 2: query or form body', () => {
    expect(codeOf(call({ rawQuery: `${EX1}&signature=${SIG1}` }))).toBeUndefined();
    expect(codeOf(call({ rawBody: `${EX1}&signature=${SIG1}`, contentType: 'application/x-www-form-urlencoded' }))).toBeUndefined();
    expect(codeOf(call({ rawQuery: `${EX1}&signature=${SIG1.toUpperCase()}` }))).toBeUndefined();
  });

  it('accepts example 3: split across query and body', () => {
    const fn = call({
      rawQuery: 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC',
      rawBody: 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=340037ed5366e650bd0e09e170db4a6ace0a9cba3e8af4e5c37ba2143fb84de0',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(codeOf(fn)).toBeUndefined();
  });

  it('accepts the JSON-body (fiat) vector with the signature header', () => {
    const fn = call({
      def: cashOut,
      rawQuery: 'k1=v1&k2=v2',
      rawBody: '{"key":"value"}',
      contentType: 'application/json',
      headers: { signature: 'ef230e573e76e304d4579ef7f777a7f236aec25b8881ccc9797bb91b186e24dd', timestamp: String(T) },
    });
    expect(codeOf(fn)).toBeUndefined();
  });

  it('needs a timestamp on JSON calls unless fiatTimestampOptional', () => {
    const base = { def: cashOut, rawQuery: 'k1=v1&k2=v2', rawBody: '{"key":"value"}', contentType: 'application/json', headers: { signature: 'ef230e573e76e304d4579ef7f777a7f236aec25b8881ccc9797bb91b186e24dd' } };
    expect(codeOf(call(base))).toBe(-1024);
    expect(codeOf(call({ ...base, config: { variants: { fiatTimestampOptional: true } } }))).toBeUndefined();
  });

  it('accepts the percent-decoded signing of an encoded request, and the stray-& form', () => {
    const q = 'account=PHP&target_address=test%40example.com&amount=1&timestamp=1538323200000';
    expect(codeOf(call({ rawQuery: `${q}&signature=6d1cffb618e771de87229a206b5542677064ce5d67f3b546854c52bc047714cb` }))).toBeUndefined();
    expect(codeOf(call({ rawQuery: `${q}&signature=d33b09009072cffd19ef519056cb1bae74a08be72b01c3649d5879db4498b271` }))).toBeUndefined();
    const stray = 'type=spot&timestamp=1699458293874&&signature=a7c75a07680aed59ecc3da8ae9e458d04d75fa2c6b3d6f4625b9fae35c1126b2';
    expect(codeOf(call({ rawQuery: stray, now: 1699458293874 }))).toBeUndefined();
  });

  it('refuses a changed byte (-1022), a missing signature (-1105) and a stale or future timestamp (-1021)', () => {
    expect(codeOf(call({ rawQuery: `${EX1.replace('price=0.1', 'price=0.2')}&signature=${SIG1}` }))).toBe(-1022);
    expect(codeOf(call({ rawQuery: EX1 }))).toBe(-1105);
    expect(codeOf(call({ rawQuery: `${EX1}&signature=${SIG1}`, now: T + 5001 }))).toBe(-1021);
    expect(codeOf(call({ rawQuery: `${EX1}&signature=${SIG1}`, now: T + 5000 }))).toBeUndefined();
    expect(codeOf(call({ rawQuery: `${EX1}&signature=${SIG1}`, now: T - 1000 }))).toBe(-1021);
    expect(codeOf(call({ rawQuery: `${EX1}&signature=${SIG1}`, now: T - 999 }))).toBeUndefined();
  });

  it('refuses a missing key header (-1002) and an unknown key (-2015)', () => {
    expect(codeOf(call({ rawQuery: `${EX1}&signature=${SIG1}`, headers: { 'x-service-apikey': '' } }))).toBe(-1002);
    expect(codeOf(call({ rawQuery: `${EX1}&signature=${SIG1}`, headers: { 'x-service-apikey': 'nope' } }))).toBe(-2015);
  });

  it('requires recvWindow where the endpoint says so (spec 4.3, -1105) unless recvWindowOptional (notes 2.5)', () => {
    const signed = (q: string) => `${q}&signature=${hmacSha256Hex(VECTOR_SECRET, q)}`;
    const without = { def: cryptoAccounts, rawQuery: signed(`timestamp=${T}`) };
    expect(codeOf(call(without))).toBe(-1105);
    expect(() => call(without)()).toThrow("parameter 'recvWindow' is required");
    expect(codeOf(call({ def: cryptoAccounts, rawQuery: signed(`recvWindow=5000&timestamp=${T}`) }))).toBeUndefined();
    expect(codeOf(call({ ...without, config: { variants: { recvWindowOptional: true } } }))).toBeUndefined();
    expect(codeOf(call({ rawQuery: signed(`symbol=BTCPHP&timestamp=${T}`) }))).toBeUndefined();
  });
});
