import { isSafeNumber, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import type { WeightSpec } from '../types.ts';
import { userStreamEndpoints } from './user-stream.ts';

const parseLossless = (t: string) => parse(t, null, (v) => (isSafeNumber(v) ? Number(v) : v));

const charge = (w: WeightSpec, params: Record<string, unknown>) =>
  typeof w === 'function' ? w(params) : typeof w === 'number' ? [{ pool: 'IP', weight: w }] : w;

describe('user data stream endpoint rows', () => {
  const rows = Object.entries(userStreamEndpoints);

  it.each(rows)('%s: key, id, area and name agree; key-only security, query, weight 1', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`userStream.${key}`);
    expect(e.area).toBe('userStream');
    expect(e.security).toBe('USER_STREAM');
    expect(e.path).toBe('/openapi/v1/userDataStream');
    expect(e.encoding).toBe('query');
    expect(charge(e.weight, {})).toEqual([{ pool: 'IP', weight: 1 }]);
  });

  it('start is POST, keepalive PUT, close DELETE; the last two need the listenKey', () => {
    const { startUserDataStream, keepaliveUserDataStream, closeUserDataStream } = userStreamEndpoints;
    expect([startUserDataStream.method, keepaliveUserDataStream.method, closeUserDataStream.method]).toEqual(['POST', 'PUT', 'DELETE']);
    expect(keepaliveUserDataStream.params.listenKey.required).toBe(true);
    expect(closeUserDataStream.params.listenKey.required).toBe(true);
    expect(startUserDataStream.example.response).toEqual({ listenKey: keepaliveUserDataStream.example.params.listenKey });
  });
});

describe('user data stream decoding', () => {
  it('decodes a listen key from a raw body', () => {
    const r = userStreamEndpoints.startUserDataStream.response.parse(parseLossless('{"listenKey":"abc123"}'));
    expect(r.listenKey).toBe('abc123');
  });

  it('fails a malformed or empty listen key with an error naming the path', () => {
    const bad = userStreamEndpoints.startUserDataStream.response.safeParse({ listenKey: {} });
    expect(bad.error?.issues[0]?.path).toEqual(['listenKey']);
    expect(userStreamEndpoints.startUserDataStream.response.safeParse({ listenKey: '' }).success).toBe(false);
  });

  it('keepalive and close answer {}', () => {
    expect(userStreamEndpoints.keepaliveUserDataStream.response.parse(parseLossless('{}'))).toEqual({});
    expect(userStreamEndpoints.closeUserDataStream.response.parse({})).toEqual({});
  });
});
