/**
 * The client against the sandbox's injected faults (spec 7.1, 8.5-8.6; protocol notes 7), over
 * HTTP on 127.0.0.1: an order committed but answered with a 5xx is found again by the client id the
 * request carried, never resent; after a ban, an order that cannot wait for its end is not sent.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { QueueTimeoutError, UnknownOutcomeError, type RateLimitedError } from '../src/exchange/errors/errors.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();

async function sandbox(): Promise<SandboxHandle> {
  const s = await startSandbox({});
  defer(() => s.close());
  return s;
}

function client(s: SandboxHandle, exchange: Record<string, unknown> = {}) {
  const h = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { timeoutMs: 2000, ...exchange } }).exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret } });
  defer(() => h.close());
  return h.client;
}

const ORDER = { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '1000000' } as const;

describe('unknown outcome against the sandbox', () => {
  it('an order committed then answered 500, sent without a client id, is found by the generated one', async () => {
    const s = await sandbox();
    const c = client(s);
    s.faults.add({ kind: 'error-after', endpoint: 'spot.newOrder', count: 1 });
    const error = (await c.spot.newOrder(ORDER).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.request?.clientId?.generated).toBe(true);

    const result = await c.reconcileOrder(error);
    expect(result.status).toBe('found');
    if (result.status !== 'found') return;
    expect(result.order).toMatchObject({ clientOrderId: error.clientId, status: 'NEW', price: '1000000', origQty: '0.001' });
    // Exactly one order exists: nothing was resent.
    expect((await c.spot.openOrders({ symbol: 'BTCPHP' })).map((o) => o.clientOrderId)).toEqual([error.clientId]);
  });

  it('an order refused before the engine (error-before) is reported not-found', async () => {
    const s = await sandbox();
    const c = client(s);
    s.faults.add({ kind: 'error-before', endpoint: 'spot.newOrder', count: 1 });
    const error = (await c.spot.newOrder({ ...ORDER, newClientOrderId: 'mine-1' }).catch((e: unknown) => e)) as UnknownOutcomeError;
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    // settle: false, the 5xx was an answer; the settling wait is covered with a virtual clock.
    await expect(c.reconcileOrder(error, { settle: false })).resolves.toMatchObject({ status: 'not-found', clientOrderId: 'mine-1' });
    expect(await c.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
  });
});

describe('bans against the sandbox (spec 8.5-8.6)', () => {
  it('after a 418, an order that may not wait for the ban to end is refused at once and never sent', async () => {
    const s = await sandbox();
    const c = client(s);
    await c.spot.openOrders({ symbol: 'BTCPHP' }); // clock synced
    s.faults.add({ kind: 'ban', endpoint: 'spot.newOrder', count: 1, retryAfterSeconds: 2 });
    const banned = (await c.spot.newOrder(ORDER).catch((e: unknown) => e)) as RateLimitedError;
    expect(banned).toMatchObject({ banned: true, retryAfterMs: 2000 });

    const t0 = Date.now();
    const refused = (await c.spot.newOrder(ORDER, { timeoutMs: 500 }).catch((e: unknown) => e)) as QueueTimeoutError;
    expect(Date.now() - t0).toBeLessThan(500);
    expect(refused).toBeInstanceOf(QueueTimeoutError);
    expect(refused).toMatchObject({ sent: false, banned: true, reason: 'paused', until: banned.pausedUntil });
    // Another client (its own budget) sees that nothing reached the venue.
    expect(await client(s).spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
  });
});
