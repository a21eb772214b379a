/**
 * Bad input at the live venue (issue 20, acceptance item 7): an unreachable wsUrl, a frame that
 * is not JSON, an event type nobody knows, an executionReport for an order nobody placed. Each is
 * logged with the reason, the venue keeps running (orders denied while the stream is not LIVE,
 * STREAM_NOT_LIVE), and it resyncs where what was lost may have mattered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../src/journal/journal.ts';
import { STREAM_NOT_LIVE } from '../src/live/venue/stream-not-live.ts';
import { liveHarness, startLive, waitFor, type Harness } from '../src/live/venue/testing/live-harness.ts';
import type { ExecutionReportEvent, UserEvent } from '../src/sandbox/contracts.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.parse('2024-03-13T10:00:00Z');
const SYMBOL = 'BTCPHP';

async function setup(wsUrl?: (s: SandboxHandle) => Promise<string>): Promise<{ s: SandboxHandle; h: Harness }> {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
  defer(() => s.close());
  const dir = mkdtempSync(join(tmpdir(), 'halyard-bad-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const journal = openJournal(join(dir, 'journal.sqlite'));
  defer(() => journal.close());
  journal.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() });
  const h = await liveHarness(s, { runId: 'run-1', journal, client: sandboxClient(s, defer), ...(wsUrl ? { wsUrl: await wsUrl(s) } : {}) });
  defer(() => h.close());
  return { s, h };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const demoAccount = (s: SandboxHandle): string => s.accounts.getKey(s.apiKey)?.accountId as string;

const ghostReport = (E: number): ExecutionReportEvent => ({
  e: 'executionReport', E, s: SYMBOL, c: 'ghost-1', S: 'BUY', o: 'LIMIT', f: 'GTC', q: '1', p: '100', P: '0', x: 'NEW', X: 'NEW', r: 'NONE',
  i: '1241518645726809840', l: '0', z: '0', L: '0', n: '0', N: null, T: -1, t: '-1', w: true, m: false, O: E, Z: '0', Y: '0', Q: '0',
});

describe('live venue: bad input (acceptance 7)', () => {
  it('an unreachable wsUrl: DOWN with the reason, logged, new orders denied with STREAM_NOT_LIVE, nothing thrown', async () => {
    const port = await closedPort();
    const { h } = await setup(async () => `ws://127.0.0.1:${port}`);
    h.venue.start();
    await waitFor(() => h.venue.streamHealth.state === 'DOWN' && /ECONNREFUSED/.test(h.venue.streamHealth.reason), 5000, 'DOWN');
    const [cid] = h.submit({ kind: 'place', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3000000' });
    await h.venue.idle();
    expect(h.om.orders.get(cid as string)?.status).toBe('REJECTED');
    expect(h.updates.at(-1)?.reason).toMatch(new RegExp(`^${STREAM_NOT_LIVE}: the user data stream is DOWN \\(could not connect .*ECONNREFUSED`));
    expect(h.logs.some((l) => l.topic === 'health' && /ECONNREFUSED/.test(l.message))).toBe(true);
    // Still retrying on its back-off, still DOWN, still answering.
    await h.vt.advance(8000);
    await waitFor(() => /retry 2 in/.test(h.venue.streamHealth.reason), 5000, 'second retry');
  });

  it('an unknown event type and an executionReport for an order nobody placed: logged, ignored, the stream stays LIVE and resyncs after the unreadable event', async () => {
    const { s, h } = await setup();
    await startLive(h);
    const before = h.venue.resyncs.length;
    s.services.streams?.user(demoAccount(s), { e: 'accountMystery', E: T0, x: 1 } as unknown as UserEvent);
    await waitFor(() => h.logs.some((l) => l.topic === 'stream decode'), 5000, 'decode notice');
    await waitFor(() => h.venue.resyncs.length > before, 5000, 'resync after the unreadable event');
    expect(h.logs.find((l) => l.topic === 'stream decode')?.message).toMatch(/accountMystery/);
    s.services.streams?.user(demoAccount(s), ghostReport(T0));
    await waitFor(() => h.logs.some((l) => l.topic === 'foreign' && l.message.includes('ghost-1')), 5000, 'ghost logged');
    expect(h.logs.find((l) => l.topic === 'foreign')?.message).toMatch(/order ghost-1, which nobody here placed: ignored/);
    expect(h.issues).toEqual([]);
    expect(h.batches.flat().filter((e) => e.kind !== 'balance')).toEqual([]);
    expect(h.venue.streamHealth.state).toBe('LIVE');
    // And trading goes on.
    const [cid] = h.submit({ kind: 'place', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3000000' });
    await h.venue.idle();
    await waitFor(() => h.om.orders.get(cid as string)?.status === 'NEW', 5000, 'placed');
  });

  it('a frame that is not JSON: logged with the reason, the venue resyncs over REST and stays up', async () => {
    // The user stream of a stand-in server (the sandbox only sends JSON); listen keys and REST from the sandbox.
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    defer(() => new Promise<void>((resolve) => wss.close(() => resolve())));
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', (ws) => {
      ws.send('{"e":"executionReport", this is not JSON');
    });
    const { h } = await setup(async () => `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    await startLive(h);
    await waitFor(() => h.logs.some((l) => l.topic === 'stream frame'), 5000, 'frame notice');
    await waitFor(() => h.venue.resyncs.some((r) => /unreadable user stream message/.test(r.reason)), 5000, 'resync after the bad frame');
    expect(h.logs.find((l) => l.topic === 'stream frame')?.message).toMatch(/JSON/i);
    expect(h.venue.streamHealth.state).toBe('LIVE');
  });
});
