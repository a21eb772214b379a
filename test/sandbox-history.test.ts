/**
 * A sandbox market that starts with history (issue 21 deliverable 5; src/sandbox/agents/history.ts):
 * the first `historyBars` bars of the market's own seeded source are served as closed REST klines
 * ending at the live start; the live bars follow without a gap, the first opening at the last
 * history close; the 24 h ticker reads them; memory stays bounded for a long history; bad values
 * are refused naming the key. Real HTTP on 127.0.0.1, the sandbox on a VirtualClock.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { dec } from '../src/core/money/decimal.ts';
import { marketAgentsPlugin, parseMarketAgentsConfig, type MarketAgentsConfigInput } from '../src/sandbox/agents/index.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { sandboxConfigSchema } from '../src/sandbox/config/schema.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const MIN = 60_000;
// Not minute-aligned: the live path starts in the current minute, history ends where it starts.
const T0 = Date.UTC(2026, 0, 5, 12, 0, 20_000 / 1000);
const NOW_MINUTE = Math.floor(T0 / MIN) * MIN;

const defer = closeAfterEach();

async function rig(agents: MarketAgentsConfigInput) {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, config: {}, plugins: [marketAgentsPlugin(agents)] });
  defer(() => s.close());
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange });
  defer(() => handle.close());
  return { s, clock, market: handle.client.market };
}

const MARKET: MarketAgentsConfigInput = { seed: 3, historyBars: 300, markets: [{ symbol: 'BTCUSDT', source: { type: 'synthetic', startPrice: '30000' } }] };

describe('sandbox market history', () => {
  it('serves the history as closed klines at start, and the live bars follow it without a gap', async () => {
    const r = await rig(MARKET);
    const atStart = await r.market.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 1000 });
    // The live path starts in the current minute: its points already due play at once.
    const history = atStart.filter((k) => k.openTime < NOW_MINUTE);
    expect(history).toHaveLength(300);
    expect(atStart.slice(300).map((k) => k.openTime)).toEqual([NOW_MINUTE]);
    history.forEach((k, i) => {
      expect(k.openTime).toBe(NOW_MINUTE - (300 - i) * MIN);
      expect(k.closeTime).toBe(k.openTime + MIN - 1);
      expect(dec(k.volume).gt(0)).toBe(true);
      expect(dec(k.high).gte(dec(k.open)) && dec(k.low).lte(dec(k.close))).toBe(true);
      // One series: each bar opens at the previous close (the synthetic source's continuity).
      if (i > 0) expect(k.open).toBe(history[i - 1]!.close);
    });
    expect(history[history.length - 1]!.closeTime).toBeLessThan(T0);
    // Higher intervals are the same bars aggregated: 5 hours of history, 1h klines inside it.
    const hours = await r.market.klines({ symbol: 'BTCUSDT', interval: '1h', limit: 10 });
    const lastHour = hours.filter((k) => k.closeTime < NOW_MINUTE).at(-1)!;
    const minutesOfIt = history.filter((k) => k.openTime >= lastHour.openTime);
    expect(lastHour.open).toBe(minutesOfIt[0]!.open);
    expect(lastHour.close).toBe(minutesOfIt[minutesOfIt.length - 1]!.close);
    expect(dec(lastHour.volume).eq(minutesOfIt.reduce((v, k) => v.plus(k.volume), dec('0')))).toBe(true);
    // The ticker reads the same klines before any trade.
    const t = await r.market.ticker24hr({ symbol: 'BTCUSDT' });
    const ticker = Array.isArray(t) ? t[0]! : t;
    expect(ticker.openPrice).toBe(history[0]!.open);
    expect(ticker.lastPrice).toBe(atStart.at(-1)!.close);
    expect(dec(ticker.volume).gte(history.reduce((v, k) => v.plus(k.volume), dec('0')))).toBe(true);

    // Three minutes of live market.
    await r.clock.advance(3 * MIN);
    const all = await r.market.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 1000 });
    const live = all.slice(300);
    expect(all.slice(0, 300)).toEqual(history);
    expect(live.length).toBeGreaterThanOrEqual(3);
    live.forEach((k, i) => {
      expect(k.openTime).toBe(NOW_MINUTE + i * MIN);
      expect(k.trades).toBeGreaterThan(0);
    });
    // The first live bar opens at the last history close (its first trade is the path's first point).
    const lastClose = dec(history[299]!.close);
    expect(dec(live[0]!.open).minus(lastClose).abs().div(lastClose).lt(0.002)).toBe(true);
  });

  it('lays out a long history in bounded memory: the store keeps its capacity per interval, the newest bars', async () => {
    const bars = 100_000;
    const heapBefore = process.memoryUsage().heapUsed;
    const started = Date.now();
    const r = await rig({ ...MARKET, historyBars: bars });
    const tookMs = Date.now() - started;
    const newest = await r.market.klines({ symbol: 'BTCUSDT', interval: '1m', endTime: NOW_MINUTE - 1, limit: 1 });
    expect(newest[0]!.openTime).toBe(NOW_MINUTE - MIN);
    // The oldest 1m kline kept: the store's 10,000 newest (the live minute among them).
    const oldest = await r.market.klines({ symbol: 'BTCUSDT', interval: '1m', startTime: 0, limit: 1 });
    expect(oldest[0]!.openTime).toBe(NOW_MINUTE - 9_999 * MIN);
    // Hours go back the whole history (100,000 minutes: 1,667 hours, all within the capacity).
    const firstHour = await r.market.klines({ symbol: 'BTCUSDT', interval: '1h', startTime: 0, limit: 1 });
    expect(firstHour[0]!.openTime).toBe(Math.floor((NOW_MINUTE - bars * MIN) / 3_600_000) * 3_600_000);
    const grown = process.memoryUsage().heapUsed - heapBefore;
    // 15 intervals x at most 10,000 klines; far less than 100,000 bars x 15 would take.
    expect(grown).toBeLessThan(400 * 1024 * 1024);
    expect(tookMs).toBeLessThan(20_000);
  }, 30_000);

  it('refuses bad history settings naming the key', () => {
    expect(() => parseMarketAgentsConfig({ historyBars: -1 })).toThrow(/historyBars/);
    expect(() => parseMarketAgentsConfig({ historyBars: 1.5 })).toThrow(/historyBars/);
    expect(() => parseMarketAgentsConfig({ historyBars: 100_001 })).toThrow(/historyBars/);
    expect(() => parseMarketAgentsConfig({ markets: [{ symbol: 'BTCUSDT', historyBars: 'lots' as never }] })).toThrow(/markets.*0.*historyBars|historyBars/);
    const bad = sandboxConfigSchema.safeParse({ market: { historyBars: 'x' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['market', 'historyBars']);
  });

  it('refuses a history that would start before 1970 at start, naming the key', async () => {
    const clock = new VirtualClock(10 * MIN);
    await expect(startSandbox({ clock, config: {}, plugins: [marketAgentsPlugin({ historyBars: 11, markets: [{ symbol: 'BTCUSDT' }] })] })).rejects.toThrow(
      /market\.historyBars: 11 bars of 60000 ms would start before 1970.*at most 10/,
    );
  });
});
