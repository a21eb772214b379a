/**
 * The live venue's request journal (issue 20 deliverables 4 and 7; ground rule "never send an
 * order twice"), end to end against the sandbox:
 *
 * - a new order's PENDING_NEW row and its request row are committed together, before the POST
 *   leaves: another connection on the journal file sees both as soon as `send` returns (the
 *   request is written to the socket on a later turn of the event loop);
 * - a cancel whose outcome is unknown (a 5xx before the venue acted) leaves the order open; the
 *   strategy's second cancel goes out as attempt 2 and cancels it (a cancel is idempotent at the
 *   venue), where it used to be refused locally as "sent already"; the place stays journaled once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../src/journal/journal.ts';
import { liveHarness, startLive, waitFor } from '../src/live/venue/testing/live-harness.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCall, closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.parse('2024-03-13T10:00:00Z');
const SYMBOL = 'BTCPHP';
const ask = (price: string, tag: string) => ({ kind: 'place', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price, tag }) as const;

async function setup() {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
  defer(() => s.close());
  const dir = mkdtempSync(join(tmpdir(), 'halyard-live-requests-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'journal.sqlite');
  const journal = openJournal(file);
  defer(() => journal.close());
  journal.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() });
  const h = await liveHarness(s, { runId: 'run-1', journal, client: sandboxClient(s, defer, { exchange: { retry: { maxAttempts: 1 } } }) });
  defer(() => h.close());
  await startLive(h);
  return { s, h, journal, file };
}

describe('live venue: requests journaled before they leave', () => {
  it("a new order's orders row and request row are both committed when send returns, before the request is written to the socket", async () => {
    const { h, file } = await setup();
    const reader = openJournal(file, { readonly: true });
    defer(() => reader.close());
    const [cid] = h.submit(ask('3000000', 'a')) as [string];
    // send has returned; the request has not left yet (undici writes it on a later turn of the loop).
    expect(reader.orders.get(cid)).toMatchObject({ status: 'PENDING_NEW' });
    expect(reader.requests.get(cid, 'place')).toMatchObject({ state: 'sent', attempt: 1 });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(cid)?.status === 'NEW', 5000, 'NEW');
    expect(reader.requests.get(cid, 'place')).toMatchObject({ state: 'acknowledged' });
  });
});

describe('live venue: a cancel may be sent again', () => {
  it('after a cancel met a 5xx (outcome unknown, the order still open), the second cancel goes out as attempt 2 and cancels it', async () => {
    const { s, h, journal } = await setup();
    const [cid] = h.submit(ask('3000000', 'a')) as [string];
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(cid)?.status === 'NEW', 5000, 'NEW');

    await adminCall(s, 'POST', '/faults', { kind: 'error-before', endpoint: 'spot.cancelOrder', count: 1 });
    h.submit({ kind: 'cancel', symbol: SYMBOL, tag: 'a' });
    await h.venue.idle();
    // Unknown, then looked up: still NEW at the venue, so the order manager holds it NEW again.
    expect(h.issues.filter((i) => i.clientOrderId === cid).map((i) => i.kind)).toContain('unknown-outcome');
    await waitFor(() => h.om.orders.get(cid)?.status === 'NEW', 5000, 'NEW after the look-up');
    expect(journal.requests.attempts(cid, 'cancel')).toMatchObject([{ attempt: 1, state: 'resolved', resolution: { found: true, status: 'NEW' } }]);

    // The strategy cancels again: not refused locally; the venue cancels it.
    h.submit({ kind: 'cancel', symbol: SYMBOL, tag: 'a' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(cid)?.status === 'CANCELED', 5000, 'CANCELED');
    expect(h.logs.filter((l) => l.message.includes('not sent again'))).toEqual([]);
    expect(journal.requests.attempts(cid, 'cancel').map((r) => [r.attempt, r.state])).toEqual([
      [1, 'resolved'],
      [2, 'acknowledged'],
    ]);
    expect(journal.requests.get(cid, 'cancel')?.attempt).toBe(2);
    // The place itself: journaled once, one order at the venue.
    expect(journal.requests.attempts(cid, 'place')).toHaveLength(1);
    const history = await h.client.spot.historyOrders({ symbol: SYMBOL });
    expect(history.filter((o) => o.clientOrderId === cid).map((o) => o.status)).toEqual(['CANCELED']);
    expect(journal.orders.get(cid)?.status).toBe('CANCELED');
  });
});
