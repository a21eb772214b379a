/**
 * Start-up reconciliation with many symbols is paced and charged to the one weight ledger, so a
 * restart cannot get the IP banned (issue 20 deliverable 6: "Its requests are charged to the same
 * weight ledger and spread out"; NautilusTrader #780).
 *
 * Honest on time: the sandbox here runs on the wall clock (no VirtualClock), so its rate window
 * and the client's weight ledger share one timeline, and the judge is the sandbox's own rate
 * limiter: every verdict it gives (and the weight and time of every request it admits, on its own
 * clock) is recorded by wrapping its `admit`. Pools are small (200 weight per 2 s) so that 40
 * symbols' reads (openOrders and myTrades at weight 10 each) need several windows.
 *
 * The control: the same reads from a client whose ledger believes in a far bigger pool are
 * refused 429 by the same sandbox, so the check can fail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import type { WeightCharge } from '../src/exchange/endpoints/types.ts';
import type { ExchangeClient } from '../src/exchange/client/exchange-client.ts';
import { openJournal } from '../src/journal/journal.ts';
import { reconcileAtStartup } from '../src/live/reconcile/startup-reconcile.ts';
import { liveHarness, startLive, waitFor } from '../src/live/venue/testing/live-harness.ts';
import { DEFAULT_ASSETS, DEFAULT_SYMBOLS } from '../src/sandbox/config/defaults.ts';
import type { RateVerdict } from '../src/sandbox/rate-limit/rate-limiter.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const SYMBOLS = Array.from({ length: 40 }, (_, i) => `C${String(i + 1).padStart(2, '0')}PHP`);
const POOL = { limit: 200, windowMs: 2000 };
/** The order rate is not what this test is about: out of the way. */
const ORDERS = { limit: 10_000, windowMs: 10_000 };
const exchange = (ip = POOL) => ({ retry: { maxAttempts: 1 }, pools: { IP: ip, UID: { limit: 100_000, windowMs: 60_000 }, ORDERS } });

function sandboxConfig() {
  const base = DEFAULT_SYMBOLS[0];
  if (base === undefined) throw new Error('no default symbol');
  const extra = SYMBOLS.map((symbol) => ({ ...base, symbol, baseAsset: symbol.slice(0, 3) }));
  const assets = SYMBOLS.map((symbol) => ({ coin: symbol.slice(0, 3), name: `coin ${symbol.slice(0, 3)}` }));
  return { symbols: [...DEFAULT_SYMBOLS, ...extra], assets: [...DEFAULT_ASSETS, ...assets], rateLimits: { pools: { IP: POOL, UID: { limit: 100_000, windowMs: 60_000 }, ORDERS } } };
}

interface Admitted {
  readonly at: number;
  readonly ip: number;
  readonly verdict: RateVerdict;
}

/** Every verdict of the sandbox's rate limiter from now on, with the IP weight and its own clock's time. */
function recordVerdicts(s: SandboxHandle): Admitted[] {
  const out: Admitted[] = [];
  const limiter = s.state.rateLimiter;
  const admit = limiter.admit.bind(limiter);
  limiter.admit = (ip: string, uid: string | undefined, charges: readonly WeightCharge[], now: number) => {
    const verdict = admit(ip, uid, charges, now);
    out.push({ at: now, ip: charges.filter((c) => c.pool === 'IP').reduce((a, c) => a + c.weight, 0), verdict });
    return verdict;
  };
  defer(() => {
    limiter.admit = admit;
  });
  return out;
}

/** The most IP weight any window of the pool's length saw, counted at each request's arrival. */
function busiestWindow(records: readonly Admitted[]): number {
  let most = 0;
  for (const r of records) {
    const sum = records.filter((x) => x.verdict.ok && x.at > r.at - POOL.windowMs && x.at <= r.at).reduce((a, x) => a + x.ip, 0);
    most = Math.max(most, sum);
  }
  return most;
}

function counterparty(s: SandboxHandle): ExchangeClient {
  const now = s.clock.now();
  const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
  const key = s.accounts.createKey({ accountId: account.id, createdAt: now });
  for (const sym of SYMBOLS) s.services.balances?.credit(account.id, sym.slice(0, 3), '100');
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: exchange() }).exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
  defer(() => handle.close());
  return handle.client;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('start-up reconciliation with many symbols (issue 20 deliverable 6)', () => {
  it('40 symbols: every read charged to the client ledger first, spread over the windows, never a 429 or 418 from the sandbox', async () => {
    const s = await startSandbox({ config: sandboxConfig() });
    defer(() => s.close());
    const dir = mkdtempSync(join(tmpdir(), 'halyard-pacing-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'journal.sqlite');
    const taker = counterparty(s);

    // ---- run 1: a bid on each of the 40 symbols, resting NEW; then it stops.
    const journal1 = openJournal(file);
    journal1.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: s.clock.now() });
    const h1 = await liveHarness(s, { runId: 'run-1', journal: journal1, client: sandboxClient(s, defer, { exchange: exchange() }) });
    await startLive(h1);
    const bids = h1.submit(...SYMBOLS.map((symbol) => ({ kind: 'place', symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '1000' }) as const));
    await h1.venue.idle();
    await waitFor(() => bids.every((cid) => h1.om.orders.get(cid)?.status === 'NEW'), 10_000, '40 bids NEW');
    await h1.close();
    journal1.close();

    // ---- while it is down the market sells into 20 of them: 10 in full, 10 in part.
    for (const [i, sym] of SYMBOLS.slice(0, 20).entries()) {
      await taker.spot.newOrder({ symbol: sym, side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: i < 10 ? '1' : '0.4', price: '1000' });
    }
    // The new process's ledger starts empty: let the setup's weight leave the sandbox's window
    // (a real venue reports its used weight in headers; this sandbox does not).
    await pause(POOL.windowMs + 100);

    // ---- run 2: reconcile the 40 symbols.
    const journal2 = openJournal(file);
    defer(() => journal2.close());
    journal2.liveRuns.begin({ id: 'run-2', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: s.clock.now() });
    const client = sandboxClient(s, defer, { exchange: exchange() });
    const h2 = await liveHarness(s, { runId: 'run-2', journal: journal2, client, adoptRuns: ['run-1'], symbols: SYMBOLS });
    defer(() => h2.close());
    await client.account.account(); // the client's clock sync (its /time samples) done before
    await pause(POOL.windowMs + 100); // the harness's exchangeInfo and that out of the window too
    const booked: number[] = [];
    const acquire = client.rest.budget.acquire.bind(client.rest.budget);
    client.rest.budget.acquire = (charges, opts) => {
      booked.push(charges.filter((c) => c.pool === 'IP').reduce((a, c) => a + c.weight, 0));
      return acquire(charges, opts);
    };
    const records = recordVerdicts(s);
    const started = Date.now();
    const r = await reconcileAtStartup({ client, journal: journal2, runId: 'run-2', symbols: SYMBOLS, venue: h2.venue, adopt: h2.adopt });
    const tookMs = Date.now() - started;

    // The sandbox's verdicts: not one 429 or 418; the client was never told to pause.
    expect(records.filter((x) => !x.verdict.ok)).toEqual([]);
    expect(client.rest.budget.snapshot()).toMatchObject({ lastRateLimit: undefined, pauseCause: undefined });
    // Every request the sandbox saw was booked in the client's one ledger first, and they were the reconciliation's calls.
    expect(records).toHaveLength(r.calls);
    expect(booked).toEqual(records.map((x) => x.ip));
    // More weight than one window holds (so it had to be spread), and no window of the sandbox's own clock over the pool.
    const total = records.reduce((a, x) => a + x.ip, 0);
    expect(total).toBeGreaterThan(2 * POOL.limit);
    expect(busiestWindow(records)).toBeLessThanOrEqual(POOL.limit);
    // Spread in time: at least the windows the weight needs beyond the first.
    const span = (records.at(-1)?.at ?? 0) - (records[0]?.at ?? 0);
    expect(span).toBeGreaterThanOrEqual(Math.floor((total - POOL.limit) / POOL.limit) * POOL.windowMs - 50);
    expect(tookMs).toBeGreaterThanOrEqual(span);

    // And it reconciled: 40 orders adopted from the journal, the 30 still open listed, the 20 fills made while down applied once.
    expect(r.report.journalOrders).toHaveLength(40);
    expect(r.report.missedFills).toHaveLength(20);
    expect(h2.issues).toEqual([]);
    const status = (i: number) => h2.om.orders.get(bids[i] as string)?.status;
    expect([status(0), status(9), status(10), status(19), status(20), status(39)]).toEqual(['FILLED', 'FILLED', 'PARTIALLY_FILLED', 'PARTIALLY_FILLED', 'NEW', 'NEW']);
  }, 60_000);

  it('the control: a client whose ledger believes in a far bigger pool bursts the same reads and the sandbox answers 429', async () => {
    const s = await startSandbox({ config: sandboxConfig() });
    defer(() => s.close());
    const dir = mkdtempSync(join(tmpdir(), 'halyard-pacing-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const journal = openJournal(join(dir, 'journal.sqlite'));
    defer(() => journal.close());
    journal.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: s.clock.now() });
    const client = sandboxClient(s, defer, { exchange: exchange({ limit: 100_000, windowMs: 2000 }) });
    const h = await liveHarness(s, { runId: 'run-1', journal, client, symbols: SYMBOLS });
    defer(() => h.close());
    await pause(POOL.windowMs + 100);
    const records = recordVerdicts(s);
    await reconcileAtStartup({ client, journal, runId: 'run-1', symbols: SYMBOLS, venue: h.venue, paceMs: 0 }).catch(() => undefined);
    expect(records.some((x) => !x.verdict.ok && x.verdict.status === 429)).toBe(true);
  }, 60_000);
});
