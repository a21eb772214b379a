/**
 * Two strategies on one symbol in one account (as bench bot-live runs SMA, RSI exits and DCA on
 * each symbol): each strategy's position is its own (core/orders/account.ts, NautilusTrader keeps
 * positions per strategy too). Before, a strategy's context read the account's position, so an
 * exit selling "the position" sold the other strategy's base as well, the venue let it (the
 * account held it), and the bot's summary showed the seller short (an hour of SMA crossover next
 * to DCA ended BTCPHP -0.000082, BTCUSDT -0.000063653, USDTPHP -1.71).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { T0, tempDir, testBot, waitFor } from './bot-harness.ts';

const defer = closeAfterEach();
const MINUTE = 60_000;

describe('bot: two strategies on one symbol', () => {
  it('an exit sells the strategy own position, not the other one: neither ends short', async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true }, market: { enabled: true, historyBars: 10, markets: [{ symbol: 'BTCPHP' }] } } });
    defer(() => s.close());
    const dir = tempDir(defer);
    const { bot, vt, lines } = await testBot(defer, s, join(dir, 'bot.db'), {
      strategies: [
        { strategy: 'bar-buyer', name: 'holder', params: { warmup: 1, buyOnBar: 1, quoteAmount: '3000' } },
        { strategy: 'buy-then-sell-all', name: 'trader', params: { buyOnBar: 2, quoteAmount: '1000' } },
      ],
    });
    const minute = async () => {
      await clock.advance(MINUTE);
      await vt.advance(MINUTE);
      await bot.venue.idle();
    };
    const position = (name: string) => bot.status().strategies.find((x) => x.name === name)?.positions[0]?.quantity;
    for (let i = 0; i < 6 && !lines.some((l) => l['strategy'] === 'trader' && l.msg.startsWith('exit ')); i++) await minute();
    await waitFor(() => bot.status().counts.fills >= 3, 5000, 'the entries and the exit filled');
    const held = Number(position('holder'));
    expect(held).toBeGreaterThan(0);
    // The exit sold what the trader held (its entry less the commission, down to the step).
    const exitLine = lines.find((l) => l['strategy'] === 'trader' && l.msg.startsWith('exit '));
    expect(Number(exitLine?.msg.split(' ')[1])).toBeLessThan(held);
    const summary = await bot.stop();
    const positions = Object.fromEntries(summary.strategies.map((x) => [x.name, Number(x.positions['BTCPHP'])]));
    expect(positions['holder']).toBe(held);
    // Flat: dust under one LOT_SIZE step, never below zero.
    expect(positions['trader']).toBeGreaterThanOrEqual(0);
    expect(positions['trader']).toBeLessThan(0.000001);
    expect(summary.strategies.map((x) => x.failure)).toEqual([null, null]);
  });
});
