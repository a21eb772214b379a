/**
 * Live against backtest end to end (issue 21 deliverable 6, acceptance "The same strategy file
 * with the same params, run live on the sandbox and then backtested on the bars that run
 * recorded"): the SMA crossover (MARKET orders) runs live through the order manager, the kernel and
 * the LiveVenue against the sandbox and its market agents, over real HTTP and WebSocket on
 * 127.0.0.1, on a VirtualClock; every bar it trades on is recorded into the journal as it closes
 * (from the sandbox's REST klines: what the live market-data pipeline records). Then `halyard
 * compare-live` replays the run: every difference must be one the fill model explains, and the
 * report must say which. Also the command's bad input: no journal, no live run, no bars.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LiveComparison } from '../src/backtest/live-compare/types.ts';
import { runCli } from '../src/cli/index.ts';
import type { CliIo } from '../src/cli/io.ts';
import { candleFromText } from '../src/core/indicators/candle.ts';
import { Kernel } from '../src/engine/kernel.ts';
import { openJournal, type Journal } from '../src/journal/journal.ts';
import { liveHarness, startLive, waitFor } from '../src/live/venue/testing/live-harness.ts';
import { marketAgentsPlugin } from '../src/sandbox/agents/index.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { loadStrategy } from '../src/strategy/loading/loader.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.UTC(2026, 0, 5); // minute-aligned: the agents' 1m bars are the sandbox's 1m klines
const MIN = 60_000;
const SYMBOL = 'BTCPHP';
const RUN = 'live-sma-1';
const PARAMS = { symbol: SYMBOL, interval: '1m', fast: 3, slow: 6, quantity: '0.001' };
/** Bars before the run (its warm-up), bars it trades on. */
const HISTORY = 12;
const LIVE_BARS = 36;
/** How late after its close a bar reaches the live strategy (the stream's latency). */
const LATENCY = 250;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-live-compare-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function captureIo(env: NodeJS.ProcessEnv = {}): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { env, out: (t) => stdout.push(t), err: (t) => stderr.push(t), tty: { out: false, err: false }, stdout, stderr };
}

/** The sandbox with a seeded synthetic BTCPHP market swinging up and down: the SMAs cross every few bars. */
async function sandboxWithMarket(clock: VirtualClock): Promise<SandboxHandle> {
  const s = await startSandbox({
    clock,
    plugins: [
      marketAgentsPlugin({
        seed: 21,
        markets: [
          {
            symbol: SYMBOL,
            source: { type: 'synthetic', startPrice: '3400000', regimes: [{ regime: 'sharpUp', bars: 6 }, { regime: 'crash', bars: 4 }, { regime: 'flat', bars: 2 }] },
            liquidity: { size: '0.01' },
          },
        ],
      }),
    ],
  });
  defer(() => s.close());
  return s;
}

/**
 * A live run of the SMA crossover on the sandbox, journaled: its start, its orders, requests and
 * fills (the live venue's journal), every closed bar it traded on (and those before it), its stop.
 */
async function liveRun(file: string): Promise<{ journal: Journal; liveFills: number }> {
  const clock = new VirtualClock(T0);
  const s = await sandboxWithMarket(clock);
  await clock.advance(HISTORY * MIN + LATENCY);
  const journal = openJournal(file);
  const client = sandboxClient(s, defer);
  const { definition } = await loadStrategy('sma-crossover');
  journal.liveRuns.begin({ id: RUN, kind: 'sandbox', strategies: [{ name: definition.name, params: PARAMS, symbols: [SYMBOL] }], config: { strategies: [{ strategy: 'sma-crossover', params: PARAMS }] }, startedAt: clock.now() });
  // The stream's timers run on the harness's virtual scheduler, moved a minute a bar below with the
  // sandbox clock: a ping every two bars keeps the sandbox from closing an idle socket (300 s),
  // and its answer, over the real socket, arrives long before its timeout does on virtual time.
  const timings = { pingIntervalMs: 2 * MIN, pongTimeoutMs: 100_000, requestTimeoutMs: 100_000, backoff: { baseMs: 1000, maxMs: 8000 } };
  const h = await liveHarness(s, { runId: RUN, journal, client, balances: { PHP: '100000', BTC: '0.03' }, timings });
  const kernel = new Kernel({ orders: h.om, venue: h.venue, clock: { now: () => clock.now() } });
  const runner = kernel.addStrategy(definition, PARAMS);
  let fed = -1;
  /** The bars closed by now and not recorded yet, recorded, in order. */
  const closedBars = async () => {
    const now = clock.now();
    const rows = (await client.market.klines({ symbol: SYMBOL, interval: '1m', limit: 1000 })).filter((k) => k.closeTime < now && k.openTime > fed);
    journal.klines.insertKlines(rows.map((k) => ({ symbol: SYMBOL, interval: '1m', openTime: k.openTime, open: k.open, high: k.high, low: k.low, close: k.close, volume: k.volume, closeTime: k.closeTime, source: 'live' })));
    if (rows.length > 0) fed = rows[rows.length - 1]!.openTime;
    return rows.map((k) => candleFromText(k.openTime, k.closeTime, k));
  };
  // The warm-up: the bars before the run, handed to the strategy before its first live bar.
  const history = await closedBars();
  expect(history).toHaveLength(HISTORY);
  runner.preload(SYMBOL, '1m', history);
  await startLive(h);
  kernel.start();
  for (let i = 0; i < LIVE_BARS; i++) {
    await clock.advance(MIN);
    await h.vt.advance(MIN);
    for (const c of await closedBars()) {
      h.om.setLastPrice(SYMBOL, c.exact.close);
      kernel.bar(SYMBOL, '1m', c);
    }
    await h.venue.idle();
    await waitFor(() => [...h.om.orders.openOrders(definition.name)].length === 0, 5000, 'the MARKET order filled');
  }
  kernel.stop('end of the live run');
  await h.venue.idle();
  journal.liveRuns.end(RUN, { endedAt: clock.now(), reason: 'stopped' });
  await h.close();
  return { journal, liveFills: journal.fills.list({ runId: RUN }).length };
}

describe('compare-live: a live sandbox run against its replay', () => {
  it('MARKET orders at the next open: every difference is explained by the fill model, and the report says which', async () => {
    const dir = tempDir();
    const file = join(dir, 'journal.db');
    const { journal, liveFills } = await liveRun(file);
    const orders = journal.orders.byRun(RUN);
    journal.close();
    expect(liveFills).toBeGreaterThanOrEqual(3); // the crossover traded: entries and exits
    expect(orders.every((o) => o.type === 'MARKET')).toBe(true);

    const io = captureIo();
    const out = join(dir, 'out');
    expect(await runCli(['compare-live', '--journal', file, '--out', out, '--json'], io)).toBe(0);
    const c = JSON.parse(io.stdout.join('\n')) as LiveComparison;
    expect(c.runId).toBe(RUN);
    const [s] = c.strategies;
    expect(s).toMatchObject({ strategy: 'sma-crossover', symbols: [SYMBOL], interval: '1m', bars: LIVE_BARS, historyBars: 7 });
    const live = s!.pairs.filter((p) => (p.live?.fills.length ?? 0) > 0);
    expect(live.length).toBe(orders.filter((o) => o.status === 'FILLED').length);
    // Each live trade has its replay twin under the same client order id (the last one may have
    // been decided on the last recorded bar: the replay has no bar to fill it on).
    const twins = s!.pairs.filter((p) => p.pairedBy === 'client-order-id' && (p.live?.fills.length ?? 0) > 0 && (p.backtest?.fills.length ?? 0) > 0);
    expect(twins.length).toBeGreaterThanOrEqual(live.length - 1);
    for (const p of twins) expect(p.live!.clientOrderId).toBe(p.backtest!.clientOrderId);
    const differences = s!.pairs.flatMap((p) => p.differences);
    const unexplained = differences.filter((d) => d.explanation === undefined);
    expect(unexplained, JSON.stringify(unexplained, null, 2)).toEqual([]);
    // What explains them: the MARKET order's fill at the next open against the book, and what follows.
    const rules = new Set(differences.map((d) => d.explanation!.rule));
    for (const r of rules) expect(['market-next-open', 'end-of-data', 'knock-on', 'partial-fill', 'fees']).toContain(r);
    // The live fill LATENCY ms into the bar the model fills at its open: a time difference each twin.
    for (const p of twins) expect(p.differences.find((d) => d.kind === 'time')).toMatchObject({ detail: expect.stringContaining(`(+${LATENCY} ms)`), explanation: { rule: 'market-next-open' } });

    // The files: the report names each explanation and marks none unexplained.
    const html = readFileSync(join(out, `live-compare-${RUN}.html`), 'utf8');
    expect(html).toContain('market-next-open');
    expect(html).not.toContain('badge bad');
    expect(html).toContain('data-unexplained="0"');
    expect(JSON.parse(readFileSync(join(out, `live-compare-${RUN}.json`), 'utf8'))).toMatchObject({ runId: RUN });

    // The terminal text says the same.
    const text = captureIo();
    expect(await runCli(['compare-live', '--journal', file, '--out', out, '--run', RUN], text)).toBe(0);
    const printed = text.stdout.join('\n');
    expect(printed).toContain(`run ${RUN} (sandbox)`);
    expect(printed).toMatch(/Every one of the \d+ differences is explained by the fill model\.|Live and backtest agree trade for trade\./);
    expect(printed).toContain('explained (market-next-open)');
    expect(printed).not.toContain('UNEXPLAINED');
  }, 120_000);
});

describe('compare-live: bad input', () => {
  const fail = async (argv: string[]) => {
    const io = captureIo();
    const code = await runCli(argv, io);
    return { code, err: io.stderr.join('\n') };
  };

  it('no such journal', async () => {
    const dir = tempDir();
    const missing = join(dir, 'nope.db');
    expect(await fail(['compare-live', '--journal', missing])).toEqual({ code: 2, err: expect.stringContaining(`no journal at ${missing}`) });
    expect(existsSync(missing)).toBe(false);
  });

  it('a journal without a live run, or without the run asked for', async () => {
    const file = join(tempDir(), 'j.db');
    const j = openJournal(file);
    j.close();
    expect(await fail(['compare-live', '--journal', file])).toEqual({ code: 2, err: expect.stringContaining('holds no live run') });
    const k = openJournal(file);
    k.liveRuns.begin({ id: 'r-1', kind: 'sandbox', strategies: [{ name: 'sma-crossover', params: PARAMS }], config: {}, startedAt: T0 });
    k.close();
    expect(await fail(['compare-live', '--journal', file, '--run', 'r-2'])).toEqual({ code: 2, err: expect.stringContaining("holds no live run 'r-2': its live runs: r-1 (sandbox, 2026-01-05 00:00 UTC)") });
  });

  it("no bars recorded for the run's span: names the symbol, interval, span and what the journal holds", async () => {
    const file = join(tempDir(), 'j.db');
    const j = openJournal(file);
    j.liveRuns.begin({ id: 'r-1', kind: 'sandbox', strategies: [{ name: 'sma-crossover', params: PARAMS }], config: {}, startedAt: T0 + 60 * MIN });
    j.liveRuns.end('r-1', { endedAt: T0 + 90 * MIN, reason: 'stopped' });
    j.klines.insertKlines([{ symbol: SYMBOL, interval: '1m', openTime: T0, open: '1', high: '1', low: '1', close: '1', volume: '1', closeTime: T0 + MIN - 1, source: 'rest' }]);
    j.close();
    const r = await fail(['compare-live', '--journal', file]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no BTCPHP 1m bars recorded for run r-1's span (2026-01-05 01:00 UTC -> 2026-01-05 01:30 UTC)");
    expect(r.err).toContain('it holds BTCPHP 1m bars from 2026-01-05 00:00 UTC to 2026-01-05 00:00 UTC only');
  });

  it('a strategy the run names that cannot be loaded', async () => {
    const file = join(tempDir(), 'j.db');
    const j = openJournal(file);
    j.liveRuns.begin({ id: 'r-1', kind: 'sandbox', strategies: [{ name: 'no-such-strategy' }], config: {}, startedAt: T0 });
    j.close();
    const r = await fail(['compare-live', '--journal', file]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("run r-1's strategy 'no-such-strategy' cannot be loaded");
    expect(r.err).toContain('--strategy-file no-such-strategy=PATH');
  });
});
