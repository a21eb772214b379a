/**
 * Per-strategy capital across a restart (issue 21 deliverable 3; core/orders/capital/capital-replay.ts):
 * a strategy's ledger goes on from where the earlier run left it, rebuilt at start from the
 * configured amounts and the fills the journal holds for that strategy's client order ids, and
 * does not start again from the configured amounts. The bot (startBot) against the sandbox on
 * 127.0.0.1: a MARKET buy fills in the first run; the second run, on the same journal, starts
 * with the ledger the first ended with; a strategy without fills keeps its configured amounts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { T0, tempDir, testBot, waitFor } from './bot-harness.ts';

const defer = closeAfterEach();
const MINUTE = 60_000;

describe('bot: per-strategy capital after a restart', () => {
  it("continues each strategy's ledger and its position from the journal's fills of earlier runs", async () => {
    const clock = new VirtualClock(T0);
    const s = await startSandbox({ clock, config: { admin: { enabled: true }, market: { enabled: true, historyBars: 10, markets: [{ symbol: 'BTCPHP' }] } } });
    defer(() => s.close());
    const journal = join(tempDir(defer), 'bot.db');
    const strategies = (buyOnBar: number) => [
      { strategy: 'bar-buyer', name: 'buyer', params: { warmup: 1, buyOnBar }, capital: { PHP: '5000' } },
      { strategy: 'bar-buyer', name: 'idle', params: { warmup: 1, buyOnBar: 99 }, capital: { PHP: '2000' } },
    ];

    const first = await testBot(defer, s, journal, { strategies: strategies(1) });
    for (let i = 0; i < 3 && first.bot.status().counts.fills === 0; i++) {
      await clock.advance(MINUTE);
      await first.vt.advance(MINUTE);
      await first.bot.venue.idle();
    }
    await waitFor(() => first.bot.status().counts.fills > 0, 5000, 'the buy filled');
    await first.bot.venue.idle();
    const spent = first.bot.orders.capital?.snapshot('buyer');
    expect(Number(spent?.['PHP'])).toBeLessThan(5000);
    expect(Number(spent?.['BTC'])).toBeGreaterThan(0);
    await first.bot.stop();

    const second = await testBot(defer, s, journal, { strategies: strategies(99) });
    expect(second.bot.orders.capital?.snapshot('buyer')).toEqual(spent);
    expect(second.bot.orders.capital?.snapshot('idle')).toEqual({ PHP: '2000' });
    // Its position, too: what it bought in the first run is its own after the restart (else it reads itself flat and never sells).
    expect(second.bot.orders.view('buyer').position('BTCPHP')?.base.toString()).toBe(spent?.['BTC']);
    expect(second.bot.orders.view('idle').position('BTCPHP')?.base.toString() ?? '0').toBe('0');
    expect(second.lines.some((l) => l['strategy'] === 'buyer' && /fills of earlier runs taken from the journal/.test(l.msg))).toBe(true);
    await second.bot.stop();
  });
});
