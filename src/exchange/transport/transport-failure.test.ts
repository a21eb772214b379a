import { describe, expect, it } from 'vitest';
import { findErrorCode, toTransportFailure, TransportFailure } from './transport-failure.ts';

const coded = (code: string, message = code): Error => Object.assign(new Error(message), { code });

describe('toTransportFailure', () => {
  it('maps connection errors to connect, nothing sent', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect(toTransportFailure(coded(code), 'GET x')).toMatchObject({ kind: 'connect', mayHaveReachedServer: false, errorCode: code });
    }
  });
  it('maps undici timeouts to timeout, socket errors and unknowns to reset', () => {
    expect(toTransportFailure(coded('UND_ERR_HEADERS_TIMEOUT'), 'x').kind).toBe('timeout');
    expect(toTransportFailure(coded('UND_ERR_SOCKET', 'other side closed'), 'x')).toMatchObject({ kind: 'reset', mayHaveReachedServer: true });
    expect(toTransportFailure(new Error('???'), 'x')).toMatchObject({ kind: 'reset', mayHaveReachedServer: true });
  });
  it('finds codes on causes and AggregateError members, and names the target', () => {
    const agg = new AggregateError([new Error('v6'), coded('ECONNREFUSED')], 'connect');
    expect(findErrorCode(new Error('wrap', { cause: agg }))).toBe('ECONNREFUSED');
    const f = toTransportFailure(new Error('wrap', { cause: agg }), 'POST http://h/order');
    expect(f.kind).toBe('connect');
    expect(f.message).toContain('POST http://h/order');
    expect(f.message).toContain('ECONNREFUSED');
  });
  it('passes a TransportFailure through', () => {
    const f = new TransportFailure('aborted', 'a', { mayHaveReachedServer: false });
    expect(toTransportFailure(f, 'x')).toBe(f);
  });
});
