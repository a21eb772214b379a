import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../transport/http-transport.ts';
import { TransportFailure } from '../transport/transport-failure.ts';
import {
  EnvelopeError,
  MalformedResponseError,
  MalformedWriteResponseError,
  NetworkError,
  PartialFailureError,
  RateLimitedError,
  ServerError,
  UnknownOutcomeError,
  VenueRejectedError,
} from './errors.ts';
import { errorFromResponse, errorFromTransportFailure, parseRetryAfter } from './from-response.ts';

const res = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({ status, headers, body });
const write = { endpoint: 'spot.newOrder', idempotent: false };
const read = { endpoint: 'spot.queryOrder', idempotent: true };

describe('errorFromResponse: successes', () => {
  it('returns undefined for 2xx JSON, envelope status 0 and {code:0}', () => {
    expect(errorFromResponse({ ...write, response: res(200, '{"orderId":1375445991893797391}') })).toBeUndefined();
    expect(errorFromResponse({ ...write, response: res(200, '{"status":0,"error":"OK","data":{"a":1},"params":null}') })).toBeUndefined();
    expect(errorFromResponse({ ...write, response: res(200, '{"code":0,"msg":"success"}') })).toBeUndefined();
    expect(errorFromResponse({ ...read, response: res(200, '[]') })).toBeUndefined();
  });
  it('a bare resource with a numeric status is not an envelope when the endpoint says bare', () => {
    const r = res(200, '{"status":3,"data":"x"}');
    expect(errorFromResponse({ ...read, envelope: 'bare', response: r })).toBeUndefined();
    expect(errorFromResponse({ ...read, response: r })).toBeInstanceOf(EnvelopeError);
  });
});

describe('errorFromResponse: rate limits', () => {
  it('429 with Retry-After seconds', () => {
    const e = errorFromResponse({ ...read, response: res(429, '{"code":-1003,"msg":"Too many requests"}', { 'retry-after': '7' }) });
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).toMatchObject({ retryAfterMs: 7000, banned: false, venueCode: -1003, outcome: 'rate-limited', category: 'rate', code: 'RATE_LIMITED' });
    expect(e?.message).toContain('spot.queryOrder: HTTP 429, venue code -1003: Too many requests');
  });
  it('order-rate 429 without Retry-After leaves retryAfterMs undefined', () => {
    const e = errorFromResponse({ ...write, response: res(429, '{"code":-1015,"msg":"Too many new orders"}') }) as RateLimitedError;
    expect(e.retryAfterMs).toBeUndefined();
  });
  it('418 is a ban', () => {
    const e = errorFromResponse({ ...write, response: res(418, '', { 'retry-after': '120' }) }) as RateLimitedError;
    expect(e).toMatchObject({ banned: true, retryAfterMs: 120_000, code: 'IP_BANNED', httpStatus: 418 });
  });
  it('parseRetryAfter reads seconds (spec 8.6) or an HTTP date, never negative', () => {
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter('0')).toBe(0);
    const now = Date.UTC(2015, 9, 21, 7, 26, 0);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:20:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('errorFromResponse: venue rejections', () => {
  it('{code,msg} becomes VenueRejectedError with the classified outcome', () => {
    const e = errorFromResponse({ ...write, response: res(400, '{"code":-2010,"msg":"Account has insufficient balance for requested action."}') });
    expect(e).toBeInstanceOf(VenueRejectedError);
    expect(e).toMatchObject({ httpStatus: 400, venueCode: -2010, outcome: 'rejected', category: 'funds', code: 'VENUE_REJECTED' });
    expect(e?.message).toBe(
      'spot.newOrder: HTTP 400, venue code -2010: Account has insufficient balance for requested action. [rejected/funds]',
    );
  });
  it('auth codes are fatal', () => {
    const e = errorFromResponse({ ...read, response: res(401, '{"code":-1022,"msg":"Signature for this request is not valid."}') });
    expect(e).toMatchObject({ outcome: 'fatal', category: 'auth' });
  });
  it('keeps data from cancelReplace failure bodies', () => {
    const body =
      '{"code":-1132,"msg":"Order cancel-replace failed.","data":{"cancelResult":"FAILURE","newOrderResult":"NOT_ATTEMPTED","cancelResponse":{"code":-2011,"msg":"CANCEL_REJECTED"},"newOrderResponse":null}}';
    const e = errorFromResponse({ endpoint: 'spot.cancelReplace', idempotent: false, response: res(400, body) });
    expect(e).toMatchObject({ venueCode: -1132, category: 'invalid-order' });
    expect(e?.data).toEqual({ cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: { code: -2011, msg: 'CANCEL_REJECTED' }, newOrderResponse: null });
  });
  it('a {code<0,msg} body on HTTP 200 is still an error', () => {
    expect(errorFromResponse({ ...write, response: res(200, '{"code":-1021,"msg":"Timestamp outside recvWindow"}') })).toMatchObject({
      outcome: 'retryable',
      category: 'clock',
    });
  });
  it('a 403 WAF page is fatal and quotes the page', () => {
    const e = errorFromResponse({ ...read, response: res(403, '<html><body><h1>403 Forbidden</h1></body></html>') });
    expect(e).toBeInstanceOf(VenueRejectedError);
    expect(e).toMatchObject({ outcome: 'fatal', venueCode: undefined });
    expect(e?.message).toBe('spot.queryOrder: HTTP 403, not JSON: "403 Forbidden" [fatal/permission]');
  });
  it('uses the parsed body when given', () => {
    const e = errorFromResponse({ ...write, response: res(400, 'ignored'), parsed: { code: -2013, msg: 'Order does not exist.' } });
    expect(e).toMatchObject({ category: 'not-found', venueCode: -2013 });
  });
});

describe('errorFromResponse: envelopes', () => {
  it('status != 0 on HTTP 200 is an EnvelopeError carrying the error text', () => {
    const e = errorFromResponse({ endpoint: 'convert.acceptQuote', idempotent: false, response: res(200, '{"status":10000003,"error":"Quote expired","data":null}') });
    expect(e).toBeInstanceOf(EnvelopeError);
    expect(e).toMatchObject({ envelopeStatus: 10000003, venueMessage: 'Quote expired', outcome: 'rejected', category: 'envelope', data: undefined });
    expect(e?.message).toBe('convert.acceptQuote: HTTP 200, envelope status 10000003: Quote expired [rejected/envelope]');
  });
  it('88010000 (server-side error) on a write is an UnknownOutcomeError keeping the envelope status', () => {
    const e = errorFromResponse({ endpoint: 'fiat.cashOut', idempotent: false, response: res(200, '{"status":88010000,"error":"server error","data":null}') });
    expect(e).toBeInstanceOf(UnknownOutcomeError);
    expect(e).not.toBeInstanceOf(EnvelopeError);
    expect(e).toMatchObject({ outcome: 'unknown-outcome', category: 'envelope', envelopeStatus: 88010000, venueMessage: 'server error', code: 'UNKNOWN_OUTCOME' });
    expect(e?.message).toContain('query before resending');
  });
  it('88010000 on a read is a retryable EnvelopeError', () => {
    const e = errorFromResponse({ endpoint: 'fiat.details', idempotent: true, response: res(200, '{"status":88010000,"error":"server error","data":null}') });
    expect(e).toBeInstanceOf(EnvelopeError);
    expect(e).toMatchObject({ outcome: 'retryable', category: 'envelope' });
  });
  it('a business status on a write is a definite refusal, not an unknown outcome (spec 7.6)', () => {
    for (const status of [88010003, 88010012, 88010013]) {
      const e = errorFromResponse({ endpoint: 'fiat.cashOut', idempotent: false, response: res(200, `{"status":${status},"error":"no","data":null}`) });
      expect(e).toBeInstanceOf(EnvelopeError);
      expect(e).toMatchObject({ outcome: 'rejected', envelopeStatus: status });
    }
  });
  it('an envelope inside a 5xx is an unknown outcome on a write', () => {
    const e = errorFromResponse({ endpoint: 'fiat.cashOut', idempotent: false, response: res(502, '{"status":88010013,"error":"insufficient balance","data":null}') });
    expect(e).toBeInstanceOf(UnknownOutcomeError);
  });
});

describe('errorFromResponse: server errors and malformed bodies', () => {
  it('5xx on a write is UnknownOutcomeError, including HTML pages', () => {
    const e = errorFromResponse({ ...write, response: res(502, '<html><head><title>502 Bad Gateway</title></head></html>') });
    expect(e).toBeInstanceOf(UnknownOutcomeError);
    expect(e).toMatchObject({ outcome: 'unknown-outcome', category: 'server', httpStatus: 502 });
    expect(e?.message).toBe('spot.newOrder: HTTP 502, not JSON: "502 Bad Gateway" [unknown-outcome/server]; outcome unknown: query before resending');
  });
  it('5xx on a read is ServerError, keeping a venue code', () => {
    const e = errorFromResponse({ ...read, response: res(500, '{"code":-1001,"msg":"Internal error."}') });
    expect(e).toBeInstanceOf(ServerError);
    expect(e).toMatchObject({ outcome: 'retryable', venueCode: -1001 });
  });
  it('-1000 on a 4xx write is an unknown outcome', () => {
    expect(errorFromResponse({ ...write, response: res(400, '{"code":-1000,"msg":"An unknown error occurred"}') })).toBeInstanceOf(UnknownOutcomeError);
  });
  it('a long snippet is cut', () => {
    const e = errorFromResponse({ ...read, response: res(503, 'x'.repeat(500)) });
    expect(e?.message.length).toBeLessThan(250);
  });
  it('non-JSON 2xx on a read is a retryable MalformedResponseError', () => {
    const e = errorFromResponse({ ...read, response: res(200, '') });
    expect(e).toBeInstanceOf(MalformedResponseError);
    expect(e).toMatchObject({ outcome: 'retryable', category: 'decode', code: 'MALFORMED_RESPONSE' });
  });
  it('non-JSON 2xx on a write is an unknown outcome: MalformedWriteResponseError, an UnknownOutcomeError', () => {
    const e = errorFromResponse({ ...write, response: res(200, '<html><body>OK</body></html>') });
    expect(e).toBeInstanceOf(UnknownOutcomeError);
    expect(e).toBeInstanceOf(MalformedWriteResponseError);
    expect(e).toMatchObject({ outcome: 'unknown-outcome', category: 'decode', body: '<html><body>OK</body></html>', httpStatus: 200 });
    expect(e?.message).toBe('spot.newOrder: HTTP 200 with a body that is not JSON ("OK") [unknown-outcome/decode]; outcome unknown: query before resending');
  });
});

describe('errorFromResponse: cancelReplace -1133 partial failure (notes 6)', () => {
  const replace = { endpoint: 'spot.cancelReplace', idempotent: false };
  it('cancel failed, new order placed: PartialFailureError naming the leg that took effect', () => {
    const body =
      '{"code":-1133,"msg":"Order cancel-replace partially failed.","data":{"cancelResult":"FAILURE","newOrderResult":"SUCCESS","cancelResponse":{"code":-2011,"msg":"CANCEL_REJECTED"},"newOrderResponse":{"symbol":"BTCPHP","orderId":1205324142243592555,"clientOrderId":"new1","transactTime":1658307188800}}}';
    const e = errorFromResponse({ ...replace, response: res(400, body) }) as PartialFailureError;
    expect(e).toBeInstanceOf(PartialFailureError);
    expect(e).not.toBeInstanceOf(VenueRejectedError);
    expect(e).toMatchObject({ outcome: 'partial', category: 'invalid-order', venueCode: -1133, code: 'PARTIAL_FAILURE', succeeded: ['newOrder'] });
    // Decoded: the id above 2^53 is the exact string.
    expect(e.legs.newOrderResponse).toEqual({ symbol: 'BTCPHP', orderId: '1205324142243592555', clientOrderId: 'new1', transactTime: 1658307188800 });
    expect(e.data).toEqual(e.legs);
    expect(e.message).toContain('the cancel failed, the new order was placed');
    expect(e.toJSON()).toMatchObject({ succeeded: ['newOrder'], outcome: 'partial' });
  });
  it('cancel succeeded, new order rejected', () => {
    const body =
      '{"code":-1133,"msg":"Order cancel-replace partially failed.","data":{"cancelResult":"SUCCESS","newOrderResult":"FAILURE","cancelResponse":{"symbol":"BTCPHP","orderId":1205324142243592448,"clientOrderId":"old","price":"2","origQty":"10","executedQty":"8","cummulativeQuoteQty":"16","status":"CANCELED","timeInForce":"GTC","type":"LIMIT","side":"SELL","stopPrice":"0","origQuoteOrderQty":"0"},"newOrderResponse":{"code":-2010,"msg":"New order rejected."}}}';
    const e = errorFromResponse({ ...replace, response: res(400, body) }) as PartialFailureError;
    expect(e).toBeInstanceOf(PartialFailureError);
    expect(e.succeeded).toEqual(['cancel']);
    expect(e.legs.cancelResponse).toMatchObject({ orderId: '1205324142243592448', status: 'CANCELED' });
  });
  it('-1133 whose data cannot be read: which leg took effect is unknown', () => {
    for (const body of ['{"code":-1133,"msg":"Order cancel-replace partially failed."}', '{"code":-1133,"msg":"x","data":{"cancelResult":"FAILURE","newOrderResult":"FAILURE","cancelResponse":null,"newOrderResponse":null}}']) {
      const e = errorFromResponse({ ...replace, response: res(400, body) });
      expect(e).toBeInstanceOf(UnknownOutcomeError);
      expect(e).toMatchObject({ outcome: 'unknown-outcome', venueCode: -1133 });
    }
  });
});

describe('errorFromTransportFailure', () => {
  const f = (kind: TransportFailure['kind'], mayHaveReachedServer: boolean): TransportFailure =>
    new TransportFailure(kind, `${kind} happened`, { mayHaveReachedServer });

  it('connect failures are NetworkError, even for writes', () => {
    const e = errorFromTransportFailure({ ...write, failure: f('connect', false) });
    expect(e).toBeInstanceOf(NetworkError);
    expect(e).toMatchObject({ outcome: 'retryable', category: 'network', endpoint: 'spot.newOrder' });
    expect(e.cause).toBeInstanceOf(TransportFailure);
  });
  it('timeout or reset on an idempotent request is NetworkError', () => {
    expect(errorFromTransportFailure({ ...read, failure: f('timeout', true) })).toMatchObject({ outcome: 'retryable', category: 'timeout' });
    expect(errorFromTransportFailure({ ...read, failure: f('reset', true) })).toBeInstanceOf(NetworkError);
  });
  it('timeout or reset on a write is UnknownOutcomeError', () => {
    const e = errorFromTransportFailure({ ...write, failure: f('timeout', true) });
    expect(e).toBeInstanceOf(UnknownOutcomeError);
    expect(e).toMatchObject({ outcome: 'unknown-outcome', category: 'timeout' });
    expect(e.message).toContain('spot.newOrder');
    expect(errorFromTransportFailure({ ...write, failure: f('reset', true) })).toMatchObject({ outcome: 'unknown-outcome', category: 'network' });
  });
});
