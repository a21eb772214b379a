/**
 * Cancels the venue cannot match to an open order (spec 7.3 -2011 CANCEL_REJECTED, 7.4 "Unknown
 * order sent."), end to end: the order manager on a LiveVenue against the sandbox over real HTTP
 * and WebSocket on 127.0.0.1 (live/venue/venue-commands.ts).
 *
 * - A cancel of an order not yet acknowledged waits for the order's answer: sent at once it reached
 *   the venue before the order (the order's POST delayed here), was refused as unknown, the order
 *   went back to waiting and then rested uncancelled.
 * - "Unknown order" on a cancel is asked about, not read as "still open": an order that filled
 *   while its news was lost (the stream silent) is FILLED, not back to NEW.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import type { ExchangeClient } from '../src/exchange/client/exchange-client.ts';
import { openJournal } from '../src/journal/journal.ts';
import { liveHarness, startLive, waitFor, type Harness } from '../src/live/venue/testing/live-harness.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCall, closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.parse('2024-03-13T10:00:00Z');
const SYMBOL = 'BTCPHP';

async function setup(): Promise<{ s: SandboxHandle; h: Harness; taker: ExchangeClient }> {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
  defer(() => s.close());
  const dir = mkdtempSync(join(tmpdir(), 'halyard-cancel-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const journal = openJournal(join(dir, 'journal.sqlite'));
  defer(() => journal.close());
  journal.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() });
  const h = await liveHarness(s, { runId: 'run-1', journal, client: sandboxClient(s, defer) });
  defer(() => h.close());
  const now = s.clock.now();
  const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
  const key = s.accounts.createKey({ accountId: account.id, createdAt: now });
  s.services.balances?.credit(account.id, 'PHP', '10000000');
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
  defer(() => handle.close());
  return { s, h, taker: handle.client };
}

const ask = (tag: string) => ({ kind: 'place', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3000000', tag }) as const;

describe('live venue: cancels of orders the venue does not hold open', () => {
  it('a cancel sent before the order is acknowledged waits for its answer: CANCELED, nothing left resting', async () => {
    const { s, h } = await setup();
    await startLive(h);
    // The order's POST is held 300 ms before the venue handles it: a cancel sent at once would arrive first.
    await adminCall(s, 'POST', '/faults', { kind: 'delay', endpoint: 'spot.newOrder', delayMs: 300, count: 1 });
    const [cid] = h.submit(ask('a'));
    expect(h.om.orders.get(cid as string)?.status).toBe('PENDING_NEW');
    h.submit({ kind: 'cancel', symbol: SYMBOL, tag: 'a' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(cid as string)?.status === 'CANCELED', 5000, 'cancelled');
    expect(await h.client.spot.openOrders({ symbol: SYMBOL })).toEqual([]);
    expect(h.logs.some((l) => /not acknowledged yet; the cancel waits for its answer/.test(l.message))).toBe(true);
    // No "unknown order" refusal on the way.
    expect(h.updates.filter((u) => u.clientOrderId === cid).map((u) => u.status)).not.toContain('REJECTED');
  });

  it('-2011 "Unknown order sent." on a cancel: the order is looked up and moves to what the venue says (FILLED), not back to NEW', async () => {
    const { s, h, taker } = await setup();
    await startLive(h);
    const [cid] = h.submit(ask('b'));
    await waitFor(() => h.om.orders.get(cid as string)?.status === 'NEW', 5000, 'resting');
    // Filled while its news is lost: the stream writes nothing.
    s.services.streams?.setSilent(true);
    const lift = await taker.spot.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.001', price: '3000000' });
    expect(lift.status).toBe('FILLED');
    h.submit({ kind: 'cancel', symbol: SYMBOL, tag: 'b' });
    await h.venue.idle();
    expect(h.om.orders.get(cid as string)?.status).toBe('FILLED');
    expect(h.logs.map((l) => l.message).join('\n')).toMatch(/Unknown order sent\..*; asking the venue what became of the order/);
    // What the strategy last heard of it: FILLED (the refusal that followed the look-up changed nothing).
    expect(h.updates.filter((u) => u.clientOrderId === cid).at(-1)?.status).toBe('FILLED');
    s.services.streams?.setSilent(false);
  });
});
