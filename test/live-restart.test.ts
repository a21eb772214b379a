/**
 * Start-up reconciliation end to end (issue 20 deliverable 6, acceptance item 6): a bot is cut off
 * SIGKILL-like (its journal closed under it, its socket dropped, nothing cleaned up: no answer
 * journaled, no listen key closed) with orders at six points of the order flow, the market fills
 * some of them while it is down, and a new process on the same journal file and the same sandbox
 * (no --state: it stays up) reconciles before it starts its stream:
 *
 *   A  journaled, never sent           -> looked up, not placed: REJECTED
 *   B  sent, landed after the crash    -> found by client id: adopted NEW, request resolved
 *   C  NEW, partly filled while down   -> adopted, the missed fill applied once
 *   D  partly filled, the rest while down -> the new fill once, FILLED
 *   E  cancel sent, answer never read  -> CANCELED, request resolved
 *   F  NEW, filled while down          -> the fill once, FILLED
 *   and an order of another program (client id not this bot's): reported, left alone.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { D } from '../src/core/money/decimal.ts';
import type { ExchangeClient } from '../src/exchange/client/exchange-client.ts';
import { openJournal } from '../src/journal/journal.ts';
import { commandRequest } from '../src/journal/request-store.ts';
import { reconcileAtStartup } from '../src/live/reconcile/startup-reconcile.ts';
import { liveHarness, startLive, waitFor } from '../src/live/venue/testing/live-harness.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCall, closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.parse('2024-03-13T10:00:00Z');
const SYMBOL = 'BTCPHP';

function counterparty(s: SandboxHandle): ExchangeClient {
  const now = s.clock.now();
  const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
  const key = s.accounts.createKey({ accountId: account.id, createdAt: now });
  s.services.balances?.credit(account.id, 'PHP', '10000000');
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
  defer(() => handle.close());
  return handle.client;
}

/** The market lifts the strategy's asks up to `price`, taking `quantity` at most (IOC: nothing rests). */
const lift = (taker: ExchangeClient, quantity: string, price: string) => taker.spot.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity, price });
const ask = (quantity: string, price: string, tag: string) => ({ kind: 'place', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity, price, tag }) as const;

describe('start-up reconciliation after a SIGKILL-like stop (acceptance 6)', () => {
  it('adopts open orders, applies the fills missed while down once, resolves pending requests, leaves foreign orders; journal equal to the sandbox, nothing duplicated', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
    defer(() => s.close());
    const dir = mkdtempSync(join(tmpdir(), 'halyard-restart-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'journal.sqlite');
    const taker = counterparty(s);

    // ---- run 1
    const journal1 = openJournal(file);
    journal1.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() });
    const h1 = await liveHarness(s, { runId: 'run-1', journal: journal1, client: sandboxClient(s, defer) });
    defer(() => h1.close());
    await startLive(h1);
    const [d, f, c, e] = h1.submit(ask('0.001', '3000000', 'd'), ask('0.001', '3010000', 'f'), ask('0.001', '3020000', 'c'), ask('0.001', '3040000', 'e')) as string[];
    await h1.venue.idle();
    await waitFor(() => [d, f, c, e].every((cid) => h1.om.orders.get(cid as string)?.status === 'NEW'), 5000, 'four orders NEW');
    await lift(taker, '0.0005', '3000000');
    await waitFor(() => h1.om.orders.get(d as string)?.status === 'PARTIALLY_FILLED', 5000, 'D partly filled');
    await h1.client.spot.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3070000', newClientOrderId: 'manual-1' });
    await waitFor(() => h1.logs.some((l) => l.topic === 'foreign' && l.message.includes('manual-1')), 5000, 'foreign report logged');

    // A: journaled, the process dies before it leaves.
    const pa = h1.om.submit('s1', [ask('0.001', '3060000', 'a')], clock.now()).commands[0];
    if (pa?.kind !== 'place') throw new Error('expected a place command');
    const a = pa.clientOrderId;
    journal1.orders.insert({ clientOrderId: a, runId: 'run-1', symbol: SYMBOL, side: 'SELL', type: 'LIMIT', qty: '0.001', price: '3060000', status: 'PENDING_NEW', createdAt: clock.now() });
    expect(journal1.requests.record(commandRequest('run-1', pa, clock.now()))).toBe(true);
    // B and E: sent, answers slow; the process dies before either comes back.
    await adminCall(s, 'POST', '/faults', { kind: 'delay', endpoint: 'spot.newOrder', delayMs: 300, count: 1 });
    await adminCall(s, 'POST', '/faults', { kind: 'delay', endpoint: 'spot.cancelOrder', delayMs: 300, count: 1 });
    const [b] = h1.submit(ask('0.001', '3050000', 'b')) as string[];
    h1.submit({ kind: 'cancel', symbol: SYMBOL, tag: 'e' });
    await new Promise((r) => setTimeout(r, 50));
    // ---- SIGKILL: the journal gone under it, its socket cut, its timers never run again.
    journal1.close();
    s.services.streams?.dropAll();
    await new Promise((r) => setTimeout(r, 500)); // the slow requests land at the sandbox

    // ---- while down, the market fills: D the rest, F whole, C a part.
    await lift(taker, '0.0005', '3000000');
    await lift(taker, '0.001', '3010000');
    await lift(taker, '0.0004', '3020000');
    const seenBefore = new Set(h1.fills.map((x) => x.tradeId));

    // ---- run 2, same journal file
    const journal2 = openJournal(file);
    defer(() => journal2.close());
    const { crashed } = journal2.liveRuns.begin({ id: 'run-2', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() });
    expect(crashed.map((r) => r.id)).toEqual(['run-1']);
    const h2 = await liveHarness(s, { runId: 'run-2', journal: journal2, client: sandboxClient(s, defer), adoptRuns: ['run-1'] });
    defer(() => h2.close());
    const r = await reconcileAtStartup({ client: h2.client, journal: journal2, runId: 'run-2', symbols: [SYMBOL], venue: h2.venue, adopt: h2.adopt, paceMs: 5, now: () => clock.now() });
    await startLive(h2);
    await h2.venue.idle();

    const st = (cid: string) => [h2.om.orders.get(cid)?.status, h2.om.orders.get(cid)?.executedQty.toFixed()];
    expect({ a: st(a), b: st(b as string), c: st(c as string), d: st(d as string), e: st(e as string), f: st(f as string) }).toEqual({
      a: ['REJECTED', '0'],
      b: ['NEW', '0'],
      c: ['PARTIALLY_FILLED', '0.0004'],
      d: ['FILLED', '0.001'],
      e: ['CANCELED', '0'],
      f: ['FILLED', '0.001'],
    });
    expect(h2.issues).toEqual([]);

    // Exactly the fills made while down, each once.
    const trades = await h2.client.spot.myTrades({ symbol: SYMBOL, limit: 1000 });
    const missed = trades.filter((t) => !seenBefore.has(t.id)).map((t) => t.id).sort();
    expect(h2.fills.map((x) => x.tradeId).sort()).toEqual(missed);
    expect(h2.fills.map((x) => [x.clientOrderId, x.qty])).toEqual(expect.arrayContaining([[d, '0.0005'], [f, '0.001'], [c, '0.0004']]));
    expect(missed).toHaveLength(3);
    // The journal: every trade once, every order as the sandbox has it, nothing pending, nothing twice.
    expect(journal2.fills.list({ symbol: SYMBOL }).map((x) => x.tradeId).sort()).toEqual(trades.map((t) => t.id).sort());
    const venueOrders = [...(await h2.client.spot.historyOrders({ symbol: SYMBOL })), ...(await h2.client.spot.openOrders({ symbol: SYMBOL }))];
    for (const cid of [b, c, d, e, f] as string[]) {
      const copies = venueOrders.filter((o) => o.clientOrderId === cid);
      expect(new Set(copies.map((o) => o.orderId)).size, cid).toBe(1);
      const v = copies[0];
      expect([cid, journal2.orders.get(cid)?.status, new D(journal2.orders.get(cid)?.executedQty ?? '-1').toFixed()]).toEqual([cid, v?.status, new D(v?.executedQty ?? '0').toFixed()]);
    }
    expect(venueOrders.filter((o) => o.clientOrderId === a)).toEqual([]);
    expect(journal2.orders.get(a)?.status).toBe('REJECTED');
    expect(journal2.requests.pending()).toEqual([]);
    // The report: adopted, missed, resolved, foreign left alone, balances that moved while down.
    expect(r.report.foreignOrders).toEqual([expect.objectContaining({ clientOrderId: 'manual-1', action: 'left' })]);
    expect(venueOrders.find((o) => o.clientOrderId === 'manual-1')?.status).toBe('NEW');
    expect((r.report.resolvedRequests ?? []).map((x) => [x.clientOrderId, x.kind, x.outcome]).sort()).toEqual(
      [
        [a, 'place', 'not found'],
        [b, 'place', 'found NEW'],
        [e, 'cancel', 'found CANCELED'],
      ].sort(),
    );
    expect(r.report.missedFills).toHaveLength(3);
    expect((r.report.balanceDifferences ?? []).map((x) => x.asset).sort()).toEqual(expect.arrayContaining(['BTC', 'PHP']));
    expect(r.summary).toMatch(/^start-up: .*3 missed fills applied.*1 foreign order \(left\)/);

    // Live again: the adopted C fills over the stream, once, and reaches its strategy.
    await lift(taker, '0.0006', '3020000');
    await waitFor(() => h2.om.orders.get(c as string)?.status === 'FILLED', 5000, 'C filled over the stream');
    await new Promise((res) => setTimeout(res, 50));
    expect(h2.fills.filter((x) => x.clientOrderId === c).map((x) => x.qty)).toEqual(['0.0004', '0.0006']);
  }, 30_000);

  it('cancelForeign: an open order the journal does not know, with another client id, is cancelled and reported; one with the client ids of this bot is adopted', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
    defer(() => s.close());
    const dir = mkdtempSync(join(tmpdir(), 'halyard-foreign-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const journal = openJournal(join(dir, 'journal.sqlite'));
    defer(() => journal.close());
    journal.liveRuns.begin({ id: 'run-9', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() });
    const client = sandboxClient(s, defer);
    await client.spot.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3070000', newClientOrderId: 'manual-2' });
    // An order of this bot (its id scheme) the journal lost: a power cut after it left.
    const h = await liveHarness(s, { runId: 'run-8', client });
    defer(() => h.close());
    const lost = h.om.submit('s1', [ask('0.001', '3080000', 'z')], clock.now()).commands[0];
    if (lost?.kind !== 'place') throw new Error('expected a place command');
    await client.spot.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '3080000', newClientOrderId: lost.clientOrderId });
    const h2 = await liveHarness(s, { runId: 'run-9', journal, client: sandboxClient(s, defer), adoptRuns: ['run-8'] });
    defer(() => h2.close());
    const r = await reconcileAtStartup({ client: h2.client, journal, runId: 'run-9', symbols: [SYMBOL], venue: h2.venue, adopt: h2.adopt, cancelForeign: true, paceMs: 0, now: () => clock.now() });
    expect(r.report.foreignOrders).toEqual([expect.objectContaining({ clientOrderId: 'manual-2', action: 'cancelled' })]);
    expect(r.report.adoptedOrders).toEqual([expect.objectContaining({ clientOrderId: lost.clientOrderId, status: 'NEW' })]);
    expect(h2.om.orders.get(lost.clientOrderId)).toMatchObject({ status: 'NEW', strategy: 's1' });
    expect(journal.orders.get(lost.clientOrderId)).toMatchObject({ status: 'NEW' });
    const open = await client.spot.openOrders({ symbol: SYMBOL });
    expect(open.map((o) => o.clientOrderId)).toEqual([lost.clientOrderId]);
    expect(r.summary).toMatch(/1 order adopted.*1 foreign order \(cancelled\)/);
  });

  it('a real SIGKILL of a bot process with open orders: the next run adopts them and applies the fills made while it was dead once', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true } } });
    defer(() => s.close());
    const dir = mkdtempSync(join(tmpdir(), 'halyard-sigkill-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'journal.sqlite');
    const taker = counterparty(s);
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const child = fileURLToPath(new URL('./live-bot-child.ts', import.meta.url));
    const proc = spawn(process.execPath, ['--import', tsx, child, s.baseUrl, s.wsUrl, s.apiKey, s.apiSecret, file, 'bot-1'], { env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    defer(async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor(() => out.includes('READY ') || proc.exitCode !== null, 20_000, 'bot ready');
    expect(err).toBe('');
    const [x, y, z] = JSON.parse(/READY (.*)\n/.exec(out)?.[1] ?? '[]') as string[];
    await lift(taker, '0.0004', '3000000');
    await waitFor(() => out.includes('FILL '), 5000, 'the bot saw the first fill');
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    await lift(taker, '0.0006', '3000000');
    await lift(taker, '0.001', '3010000');

    const journal = openJournal(file);
    defer(() => journal.close());
    expect(journal.liveRuns.begin({ id: 'bot-2', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: clock.now() }).crashed.map((r) => r.id)).toEqual(['bot-1']);
    const h = await liveHarness(s, { runId: 'bot-2', journal, client: sandboxClient(s, defer), adoptRuns: ['bot-1'] });
    defer(() => h.close());
    const r = await reconcileAtStartup({ client: h.client, journal, runId: 'bot-2', symbols: [SYMBOL], venue: h.venue, adopt: h.adopt, paceMs: 5, now: () => clock.now() });
    await startLive(h);
    await h.venue.idle();
    const st = (cid: string) => [h.om.orders.get(cid)?.status, h.om.orders.get(cid)?.executedQty.toFixed()];
    expect([st(x as string), st(y as string), st(z as string)]).toEqual([
      ['FILLED', '0.001'],
      ['FILLED', '0.001'],
      ['NEW', '0'],
    ]);
    expect(h.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([
      [x, '0.0006'],
      [y, '0.001'],
    ]);
    const trades = await h.client.spot.myTrades({ symbol: SYMBOL, limit: 1000 });
    expect(journal.fills.list({ symbol: SYMBOL }).map((f) => f.tradeId).sort()).toEqual(trades.map((t) => t.id).sort());
    expect(r.report.missedFills).toHaveLength(2);
    expect(journal.requests.pending()).toEqual([]);
    const open = await h.client.spot.openOrders({ symbol: SYMBOL });
    expect(open.map((o) => o.clientOrderId)).toEqual([z]);
  }, 40_000);
});
