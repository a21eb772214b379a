/**
 * Issue 21 acceptance "Two strategies with capital sub-ledgers: an order of one that would spend
 * the other's funds is denied with the reason", end to end: the bot (startBot, what `halyard run`
 * runs) against the sandbox over HTTP and WebSocket on 127.0.0.1, two instances of one strategy
 * with capital of their own in one account. The poor one's order is denied before anything is
 * sent, with the capital reason; the rich one's rests on the sandbox's book.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { tempDir, testBot, testSandbox } from './bot-harness.ts';

const defer = closeAfterEach();

describe('bot: per-strategy capital (issue 21 deliverable 3)', () => {
  it("denies an order that would spend another strategy's funds, with the reason; the other's order rests at the venue", async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    const { bot, lines } = await testBot(defer, s, join(dir, 'bot.db'), {
      strategies: [
        // 0.001 BTC at 2,000,000 PHP: 2,000 PHP each.
        { strategy: 'timed-orders', name: 'poor', capital: { PHP: '1000' } },
        { strategy: 'timed-orders', name: 'rich', capital: { PHP: '50000' } },
      ],
    });
    await bot.venue.idle();
    const open = await bot.client.spot.openOrders({ symbol: 'BTCPHP' });
    const status = bot.status();
    const poor = status.strategies.find((x) => x.name === 'poor');
    const rich = status.strategies.find((x) => x.name === 'rich');
    expect(rich?.openOrderCount).toBe(1);
    expect(poor?.openOrderCount).toBe(0);
    expect(open.map((o) => o.clientOrderId)).toEqual([rich?.openOrders[0]?.clientOrderId]);
    expect(poor?.lastSignal?.summary).toMatch(/^DENIED BUY 0\.001 BTCPHP @ 2000000 \(.*capital.*\)$/i);
    const denial = lines.find((l) => l['strategy'] === 'poor' && l.msg.startsWith('denied:'));
    expect(denial?.msg).toMatch(/capital/i);
    expect(denial?.msg).toMatch(/PHP/);

    const summary = await bot.stop();
    expect(summary.strategies.map((x) => [x.name, x.orders, x.denied])).toEqual([
      ['poor', 0, 1],
      ['rich', 1, 0],
    ]);
    expect(summary.exitReason).toBe('stopped');
  });
});
