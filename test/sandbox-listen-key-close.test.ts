/**
 * Spec 4.7 / notes 4.1: DELETE userDataStream "closes and invalidates" the listen key. The sockets
 * bound to it close at once with the reason "listenKey closed", not at the next expiry sweep under
 * a misleading "listenKey expired". Real sandbox on 127.0.0.1; a VirtualClock that is never
 * advanced, so no periodic sweep can be what closes them.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/sandbox/server.ts';
import { TestClient } from '../src/sandbox/streams/testing/ws-client.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();

describe('DELETE userDataStream (spec 4.7)', () => {
  it('closes the user path socket and a listenKey subscription at once', async () => {
    const s = await startSandbox({ clock: new VirtualClock(Date.parse('2024-03-13T10:00:00Z')) });
    defer(() => s.close());
    const call = (method: string, query = '') => fetch(`${s.baseUrl}/openapi/v1/userDataStream${query}`, { method, headers: { 'X-SERVICE-APIKEY': s.apiKey } });
    const { listenKey } = (await (await call('POST')).json()) as { listenKey: string };
    const user = await TestClient.open(`${s.wsUrl}/openapi/ws/${listenKey}`);
    const combined = await TestClient.open(`${s.wsUrl}/openapi/quote/stream`);
    defer(() => user.close());
    defer(() => combined.close());
    expect(await combined.request({ method: 'SUBSCRIBE', params: [listenKey], id: 1 })).toEqual({ result: null, id: 1 });

    const res = await call('DELETE', `?listenKey=${listenKey}`);
    expect([res.status, await res.json()]).toEqual([200, {}]);
    expect(await user.waitClose()).toEqual({ code: 4001, reason: 'listenKey closed' });
    expect(await combined.waitClose()).toEqual({ code: 4001, reason: 'listenKey closed' });
  });
});
