/**
 * Every fill reaches its strategy's onFill once, across restarts (bot/fill-tells.ts,
 * live/reconcile/untold-fills.ts). The bot (startBot) against the sandbox on 127.0.0.1, virtual
 * time, one journal over three runs:
 *
 *   run 1  rests a BUY and stops, leaving it on the book;
 *   down   a taker fills it;
 *   run 2  the start-up reconciliation applies that fill before any strategy has started; once the
 *          strategy runs it is told of it, once (it never was: the runner was not started); a
 *          second BUY filled while it runs is told once, live;
 *   run 3  nothing is owed: neither fill is told again.
 *
 * The crash between a fill's journal commit and onFill (kill point fill-journaled-untold) is
 * test/chaos-kill.test.ts's: a real SIGKILL of a child process.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import type { ExchangeClient } from '../src/exchange/client/exchange-client.ts';
import type { SandboxHandle } from '../src/sandbox/server.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { tempDir, testBot, testSandbox, waitFor, type LogLine, type TestBot } from './bot-harness.ts';

const defer = closeAfterEach();
const SYMBOL = 'BTCPHP';

function taker(s: SandboxHandle): ExchangeClient {
  const now = s.clock.now();
  const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
  const key = s.accounts.createKey({ accountId: account.id, createdAt: now });
  s.services.balances?.credit(account.id, 'BTC', '1');
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
  defer(() => handle.close());
  return handle.client;
}

/** Sells into the bot's bid: one trade. */
const hit = (t: ExchangeClient) => t.spot.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.001', price: '2000000' });

const told = (lines: readonly LogLine[]) => lines.filter((l) => l['strategy'] === 'buyer' && l.msg.startsWith('onFill ')).map((l) => (l['data'] as { tradeId: string }).tradeId);
const logged = (lines: readonly LogLine[]) => lines.filter((l) => l['strategy'] === 'buyer' && l.msg.startsWith('fill ')).map((l) => l['tradeId'] as string);

async function resting(b: TestBot): Promise<void> {
  await waitFor(() => [...b.bot.orders.orders.openOrders('buyer')].some((o) => o.status === 'NEW'), 5000, 'the bid rests');
}

describe('bot: each fill told to its strategy once, across restarts', () => {
  it("a fill made while the bot was down reaches the strategy's onFill once it runs; no fill is told twice by a later start", async () => {
    const s = await testSandbox(defer);
    const t = taker(s);
    const journal = join(tempDir(defer), 'bot.db');
    const config = { onStop: 'leave' as const, strategies: [{ strategy: 'told-fills', name: 'buyer', params: {} }] };

    const first = await testBot(defer, s, journal, config);
    await resting(first);
    await first.bot.stop();

    const down = await hit(t);
    expect(down.status).toBe('FILLED');

    const second = await testBot(defer, s, journal, config);
    await second.bot.venue.idle();
    // Applied before the strategy started (logged as such), told once it ran.
    expect(second.lines.filter((l) => /^applied BUY 0\.001 @ 2000000 before buyer started/.test(l.msg))).toHaveLength(1);
    expect(told(second.lines)).toHaveLength(1);
    expect(logged(second.lines)).toEqual(told(second.lines));
    expect(second.lines.find((l) => l.msg.startsWith('onFill '))?.['data']).toMatchObject({ orderStatus: 'FILLED', tag: 'o' });

    // A fill while the strategy runs: told once, live.
    await resting(second);
    await hit(t);
    await waitFor(() => told(second.lines).length === 2, 5000, 'the live fill told');
    await second.bot.venue.idle();
    expect(logged(second.lines)).toEqual(told(second.lines));
    await second.bot.stop();

    const third = await testBot(defer, s, journal, config);
    await third.bot.venue.idle();
    await resting(third);
    expect(told(third.lines)).toEqual([]);
    expect(logged(third.lines)).toEqual([]);
    expect(third.lines.some((l) => /had not been told of/.test(l.msg))).toBe(false);
    await third.bot.stop();
  });
});
