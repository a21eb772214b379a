/**
 * The market-data pipeline end to end against the sandbox (issue 21 deliverable 1; protocol notes
 * 1 and 4: combined path, kline `x: true`; spec 4.4 REST klines): real loopback WebSocket and HTTP,
 * the sandbox's own market agents trading on its VirtualClock, the pipeline's timers on an RxJS
 * VirtualTimeScheduler moved in step with it. Sockets are dropped with the sandbox's fault hooks
 * (terminate every connection; go silent until the client's stale bound replaces the socket).
 * What the subscribers saw must be the sandbox's REST klines, bar for bar, once each and in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualTime } from '../src/exchange/ws/testing/virtual-time.ts';
import { openJournal } from '../src/journal/index.ts';
import { createMarketData, type ClosedBar, type MarketDataLogEntry } from '../src/live/market-data/index.ts';
import { marketAgentsPlugin } from '../src/sandbox/agents/index.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const MIN = 60_000;
const SYMBOLS = ['BTCPHP', 'ETHPHP'];
/** A ping every 20 s and a pong within 5 s: a silent socket is replaced within half a minute. */
const TIMINGS = { pingIntervalMs: 20_000, pongTimeoutMs: 5_000, backoff: { baseMs: 1000, maxMs: 4000 } };

describe('market data against the sandbox', () => {
  it('closed bars arrive once, in order, equal to the sandbox REST klines, across dropped and silent sockets; recorded to the journal', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, plugins: [marketAgentsPlugin({ seed: 5, markets: SYMBOLS.map((symbol) => ({ symbol, source: { type: 'synthetic' as const } })) })] });
    defer(() => s.close());
    const streams = s.services.streams;
    if (!streams) throw new Error('the sandbox has no stream server');
    const client = sandboxClient(s, defer);
    const vt = new VirtualTime(T0);
    const dir = mkdtempSync(join(tmpdir(), 'halyard-md-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const journal = openJournal(join(dir, 'journal.db'));
    defer(() => journal.close());
    const logs: MarketDataLogEntry[] = [];
    const md = createMarketData({
      client,
      wsUrl: s.wsUrl,
      journal: journal.klines,
      scheduler: vt.scheduler,
      now: () => clock.now(),
      timings: TIMINGS,
      log: (e) => logs.push(e),
    });
    defer(() => md.close());

    /** Both clocks move together, a second at a time (the kline push period is 2 s). */
    const run = async (ms: number): Promise<void> => {
      for (let t = 0; t < ms; t += 1000) {
        await clock.advance(1000);
        await vt.advance(1000);
      }
    };

    const seen = new Map<string, ClosedBar[][]>();
    for (const sym of SYMBOLS) {
      const subs: ClosedBar[][] = [[], []];
      for (const bars of subs) md.closedBars(sym, '1m').subscribe((b) => bars.push(b));
      seen.set(sym, subs);
    }
    await run(2 * MIN + 30_000);
    streams.dropAll(); // 1: every socket terminated; back in a few seconds
    await run(MIN + 15_000);
    streams.dropAll(); // 2: a second time, with the subscriptions carried in the reconnect URL
    await run(2 * MIN);
    // 3: nothing comes for 2 minutes: the stale bound replaces the socket again and again, and the
    // bars that close meanwhile come from REST (polling, or the grace after an open but silent socket).
    streams.setSilent(true);
    await run(2 * MIN);
    streams.setSilent(false);
    await run(2 * MIN + 10_000);

    const lastClosed = Math.floor(clock.now() / MIN) * MIN - MIN;
    for (const [sym, subs] of seen) {
      const rest = await client.market.klines({ symbol: sym, interval: '1m', startTime: T0, endTime: lastClosed });
      expect(rest.length).toBeGreaterThan(5);
      const want = rest.map((k) => ({ openTime: k.openTime, closeTime: k.closeTime, open: k.open, high: k.high, low: k.low, close: k.close, volume: k.volume }));
      for (const bars of subs) {
        const got = bars.filter((b) => b.candle.openTime <= lastClosed).map((b) => ({ openTime: b.candle.openTime, closeTime: b.candle.closeTime, ...b.candle.exact }));
        expect(got).toEqual(want);
      }
      // Recorded: the journal holds the bars the subscribers saw.
      const stored = journal.klines.klines(sym, '1m', T0, lastClosed + 1).map((r) => ({ openTime: r.openTime, closeTime: r.closeTime, open: r.open, high: r.high, low: r.low, close: r.close, volume: r.volume }));
      expect(stored).toEqual(want);
    }
    const sources = [...seen.values()].flatMap((subs) => subs[0]!.map((b) => b.source));
    expect(sources.filter((x) => x === 'rest').length).toBeGreaterThanOrEqual(2);
    expect(sources).toContain('stream');
    expect(logs.filter((l) => l.topic === 'health').map((l) => l.message).join('\n')).toMatch(/-> LIVE\/stream/);
    expect(md.health().streams.map((h) => `${h.stream} ${h.state}/${h.mode}`)).toEqual(SYMBOLS.map((sym) => `${sym.toLowerCase()}@kline_1m LIVE/stream`));
  }, 120_000);

  it('warm-up comes from the seeded history over REST, is recorded, and the first live bar follows the last warm-up bar', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, plugins: [marketAgentsPlugin({ seed: 9, historyBars: 60, markets: [{ symbol: 'BTCPHP', source: { type: 'synthetic' } }] })] });
    defer(() => s.close());
    const client = sandboxClient(s, defer);
    const vt = new VirtualTime(T0);
    const dir = mkdtempSync(join(tmpdir(), 'halyard-md-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const journal = openJournal(join(dir, 'journal.db'));
    defer(() => journal.close());
    const md = createMarketData({ client, wsUrl: s.wsUrl, journal: journal.klines, scheduler: vt.scheduler, now: () => clock.now(), timings: TIMINGS });
    defer(() => md.close());
    const run = async (ms: number): Promise<void> => {
      for (let t = 0; t < ms; t += 1000) {
        await clock.advance(1000);
        await vt.advance(1000);
      }
    };
    await run(20_000);

    const warm = await md.warmup('BTCPHP', '1m', 40);
    const rest = await client.market.klines({ symbol: 'BTCPHP', interval: '1m', endTime: T0 - 1, limit: 40 });
    expect(warm.map((c) => [c.openTime, c.exact.close])).toEqual(rest.map((k) => [k.openTime, k.close]));
    expect(warm[warm.length - 1]!.openTime).toBe(T0 - MIN);
    expect(journal.klines.klines('BTCPHP', '1m').filter((r) => r.source === 'rest')).toHaveLength(40);

    const live: ClosedBar[] = [];
    md.closedBars('BTCPHP', '1m', { after: warm[warm.length - 1]!.openTime }).subscribe((b) => live.push(b));
    await run(3 * MIN);
    expect(live.map((b) => (b.candle.openTime - T0) / MIN)).toEqual([0, 1, 2]);
    // A second warm-up finds the bars in the journal, the live ones included.
    const again = await md.warmup('BTCPHP', '1m', 42);
    expect(again.map((c) => c.openTime)).toEqual([...warm.slice(-39).map((c) => c.openTime), T0, T0 + MIN, T0 + 2 * MIN]);
  }, 60_000);
});
