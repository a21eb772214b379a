/**
 * Issue 21 deliverable 2, "Strategy timers, exits and protections work live as in backtests": the
 * exits helper run by the bot against the sandbox (bars from its market through the pipeline, on
 * virtual time). After the market entry fills, a protective STOP_LOSS rests at the venue; the time
 * limit then turns it into a MARKET exit by cancel-replace, and the position is flat again.
 *
 * Live, the entry's fill reaches the strategy (from the newOrder FULL answer) before the venue's
 * balance event (outboundAccountPosition on the user stream): the order manager moves free /
 * locked by the fill until that balance comes (core/orders/fill-funds.ts), as the backtest's
 * simulated venue does by sending the balance with the fill, so exits() places its stop at once
 * and the pre-trade check approves it (before, it was denied for the BTC just bought).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';
import { T0, tempDir, testBot, waitFor } from './bot-harness.ts';

const defer = closeAfterEach();
const MINUTE = 60_000;

describe('bot: exits() live', () => {
  it('a protective stop rests at the venue after the entry; the time limit exits at market by cancel-replace', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true }, market: { enabled: true, historyBars: 10, markets: [{ symbol: 'BTCPHP' }] } } });
    defer(() => s.close());
    const dir = tempDir(defer);
    const { bot, vt } = await testBot(defer, s, join(dir, 'bot.db'), { strategies: [{ strategy: 'entry-with-exits' }] });
    const client = sandboxClient(s, defer);
    const minute = async () => {
      await clock.advance(MINUTE);
      await vt.advance(MINUTE);
      await bot.venue.idle();
    };
    await minute();
    await waitFor(() => bot.status().counts.fills > 0, 5000, 'the entry filled');
    await bot.venue.idle();
    await waitFor(() => bot.status().strategies[0]?.openOrders.some((o) => o.type === 'STOP_LOSS' && o.status === 'NEW') === true, 5000, 'the stop resting');
    const [stop] = await client.spot.openOrders({ symbol: 'BTCPHP' });
    expect(stop).toMatchObject({ type: 'STOP_LOSS', side: 'SELL' });
    const held = bot.status().strategies[0]?.positions[0]?.quantity;
    expect(Number(held)).toBeGreaterThan(0);

    // Flat: what is left is dust under one LOT_SIZE step (the entry's commission came off the base
    // bought, and the stop sells the position rounded down to the step), as exits() counts it.
    const STEP = 0.000001;
    const held2 = () => Number(bot.status().strategies[0]?.positions[0]?.quantity);
    for (let i = 0; i < 3 && held2() >= STEP; i++) await minute();
    await waitFor(() => held2() < STEP, 5000, 'flat after the time limit');
    expect(await client.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
    const st = bot.status().strategies[0];
    expect(st?.health).toBe('active');
    expect(st?.openOrderCount).toBe(0);
    const summary = await bot.stop();
    expect(summary.strategies[0]?.fills).toBeGreaterThanOrEqual(2);
  });
});
