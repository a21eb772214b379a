/**
 * The bot on bars (issue 21 deliverable 2: the same kernel and strategies as the backtest, fed by
 * the market-data pipeline): the sandbox's market starts with history, so the strategy's warm-up
 * comes through REST klines before its first live bar; then the sandbox's market trades on (its
 * clock and the bot's scheduler moved together on virtual time), each closed bar reaches the
 * strategy once and in order, and its market order fills through the live venue.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusFromJournal } from '../src/bot/status/from-journal.ts';
import { openJournal } from '../src/journal/journal.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { T0, tempDir, testBot, waitFor } from './bot-harness.ts';

const defer = closeAfterEach();
const MINUTE = 60_000;

describe('bot: bars through the market-data pipeline', () => {
  it('warm-up from REST klines, then live bars once each and in order; a market order fills', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true }, market: { enabled: true, historyBars: 30, markets: [{ symbol: 'BTCPHP' }] } } });
    defer(() => s.close());
    const dir = tempDir(defer);
    const { bot, vt, lines } = await testBot(defer, s, join(dir, 'bot.db'), { strategies: [{ strategy: 'bar-buyer', params: { warmup: 5, buyOnBar: 2 } }] });
    const bars = () => lines.filter((l) => l['strategy'] === 'bar-buyer' && l.msg.startsWith('bar ')).map((l) => l.msg);
    for (let i = 0; i < 4; i++) {
      await clock.advance(MINUTE);
      await vt.advance(MINUTE);
      await waitFor(() => bars().length >= i, 3000, `bar ${i}`);
    }
    await waitFor(() => bars().length >= 3, 5000, 'three live bars');
    const opens = bars().map((m) => Number(m.split(' ')[1]));
    // Consecutive 1-minute bars from the one the market was in at start: none twice, none missing.
    expect(opens).toEqual(opens.map((_, i) => T0 + i * MINUTE));
    // The warm-up (5 bars from REST klines) came first: the first live bar is the 6th in its history.
    expect(lines.some((l) => l.msg === 'warm-up: 5 of 5 bars' && l['symbol'] === 'BTCPHP')).toBe(true);
    expect(bars()[0]).toMatch(/history 6$/);
    await bot.venue.idle();
    await waitFor(() => bot.status().counts.fills > 0, 5000, 'a fill');
    const st = bot.status().strategies[0];
    expect(Number(st?.positions[0]?.quantity)).toBeGreaterThan(0);
    expect(st?.positions[0]?.markSource).toBe('kline-close');
    expect(bot.status().streams.marketData.mode).toBe('stream');
    const live = bot.status().strategies[0];
    const summary = await bot.stop();
    expect(summary.strategies[0]).toMatchObject({ name: 'bar-buyer', orders: 1, failure: null });
    expect(summary.bars).toBe(opens.length);
    expect(summary.fills).toBeGreaterThan(0);
    // Every bar it traded on is in the journal (a live run can be backtested on its own bars).
    const j = openJournal(bot.journalFile);
    defer(() => j.close());
    const stored = new Set(j.klines.klines('BTCPHP', '1m').map((k) => k.openTime));
    expect(opens.filter((t) => !stored.has(t))).toEqual([]);
    // `halyard status --journal` rebuilds the same position and PnL from the journal alone.
    const fromJournal = statusFromJournal(j, bot.runId).strategies[0];
    expect([fromJournal?.positions[0]?.quantity, fromJournal?.realisedPnl, fromJournal?.fees]).toEqual([live?.positions[0]?.quantity, live?.realisedPnl, live?.fees]);
  });
});
