/**
 * Faults that overlap on one endpoint (src/sandbox/faults/fault-registry.ts): a request gets one
 * answer, so only the fault that gave it is used up; the others answer the next requests. Over
 * real HTTP on 127.0.0.1: a ban and a 429 set for ping (one firing each) are a 418 and then a 429,
 * then a normal answer. (They were both used up by the first request, whose answer was the 418
 * alone: the 429 never came.) The admin API's list shows what is left and how often it fired.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCall, closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();

describe('sandbox faults: one answer per request, only it used up', () => {
  it('a ban and a 429 on ping: 418 (Retry-After 30), then 429 (Retry-After 2), then 200', async () => {
    const s = await startSandbox({ clock: new VirtualClock(Date.parse('2024-03-13T10:00:00Z')), config: { admin: { enabled: true } } });
    defer(() => s.close());
    const ban = await adminCall(s, 'POST', '/faults', { kind: 'ban', endpoint: 'general.ping', count: 1, retryAfterSeconds: 30 });
    const limit = await adminCall(s, 'POST', '/faults', { kind: 'rate-limit', endpoint: 'general.ping', count: 1, retryAfterSeconds: 2 });
    const ping = () => fetch(`${s.baseUrl}/openapi/v1/ping`).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: (await r.json()) as unknown }));

    expect(await ping()).toMatchObject({ status: 418, retryAfter: '30' });
    expect(await adminCall(s, 'GET', '/faults')).toEqual([expect.objectContaining({ id: limit['id'], kind: 'rate-limit', fired: 0 })]);
    expect(await ping()).toMatchObject({ status: 429, retryAfter: '2', body: { code: -1003 } });
    expect(await ping()).toEqual({ status: 200, retryAfter: null, body: {} });
    expect(await adminCall(s, 'GET', '/faults')).toEqual([]);
    expect(ban['id']).not.toBe(limit['id']);
  });
});
