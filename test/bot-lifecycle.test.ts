/**
 * The bot's life end to end (issue 21 deliverables 2 and 3), against the sandbox over HTTP and
 * WebSocket on 127.0.0.1, strategy timers on virtual time:
 * - acceptance "A strategy that throws live is stopped and reported, its open orders handled per
 *   policy, and the others keep trading";
 * - the stop: open orders cancelled (onStop `cancel`) or left on the book (`leave`), the listen key
 *   DELETEd, the run ended in the journal with its exit reason and the summary;
 * - the next start on the same journal resumes through the start-up reconciliation: the orders
 *   left open are adopted by the strategy that placed them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../src/journal/journal.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';
import { tempDir, testBot, testSandbox } from './bot-harness.ts';

const defer = closeAfterEach();
const MINUTE = 60_000;

describe('bot: a strategy that throws live', () => {
  it('is stopped and reported, its open order cancelled; the other keeps trading', async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    const { bot, vt, lines } = await testBot(defer, s, join(dir, 'bot.db'), {
      strategies: [
        { strategy: 'timed-orders', name: 'steady', params: { price: '2000000' } },
        { strategy: 'timed-orders', name: 'thrower', params: { price: '1900000', throwOnTick: 1 } },
      ],
      onStrategyFailure: 'cancel',
    });
    const client = sandboxClient(s, defer);
    await bot.venue.idle();
    const [thrown] = bot.status().strategies.find((x) => x.name === 'thrower')?.openOrders ?? [];
    expect(thrown?.status).toBe('NEW');

    await vt.advance(MINUTE);
    await bot.venue.idle();
    await vt.advance(MINUTE);
    await bot.venue.idle();

    const status = bot.status();
    const thrower = status.strategies.find((x) => x.name === 'thrower');
    const steady = status.strategies.find((x) => x.name === 'steady');
    expect(thrower?.health).toBe('failed');
    expect(thrower?.healthReason).toBe('onTimer threw: tick 1: thrown on purpose');
    expect(thrower?.openOrderCount).toBe(0);
    expect(steady?.health).toBe('active');
    expect(steady?.openOrderCount).toBe(3);
    // At the venue: the thrower's order cancelled, the steady one's three resting.
    const q = await client.spot.queryOrder({ origClientOrderId: thrown?.clientOrderId as string });
    expect((Array.isArray(q) ? q[0] : q)?.status).toBe('CANCELED');
    const open = await client.spot.openOrders({ symbol: 'BTCPHP' });
    expect(open.map((o) => o.price).sort()).toEqual(['2000000', '2000000', '2000000']);
    expect(lines.some((l) => l['strategy'] === 'thrower' && /failed and is stopped \(tick 1: thrown on purpose\); its open orders are cancelled; the others trade on/.test(l.msg))).toBe(true);

    const summary = await bot.stop();
    expect(summary.strategies.map((x) => [x.name, x.orders, x.failure])).toEqual([
      ['steady', 3, null],
      ['thrower', 1, 'onTimer threw: tick 1: thrown on purpose'],
    ]);
  });

  it('with onStrategyFailure leave, its order stays on the book while the other trades on', async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    const { bot, vt } = await testBot(defer, s, join(dir, 'bot.db'), {
      strategies: [
        { strategy: 'timed-orders', name: 'steady', params: { price: '2000000' } },
        { strategy: 'timed-orders', name: 'thrower', params: { price: '1900000', throwOnTick: 1 } },
      ],
      onStrategyFailure: 'leave',
      onStop: 'leave',
    });
    await bot.venue.idle();
    await vt.advance(MINUTE);
    await bot.venue.idle();
    const thrower = bot.status().strategies.find((x) => x.name === 'thrower');
    expect([thrower?.health, thrower?.openOrderCount]).toEqual(['failed', 1]);
    expect(bot.status().strategies.find((x) => x.name === 'steady')?.openOrderCount).toBe(2);
    await bot.stop();
  });
});

describe('bot: stop and restart', () => {
  it('onStop cancel: every open order cancelled, the listen key closed, the run ended with its exit reason (signal) and summary', async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    const journal = join(dir, 'bot.db');
    const ended: string[] = [];
    s.listenKeys.onInvalidated((_k, _a, reason) => ended.push(reason));
    const { bot, vt } = await testBot(defer, s, journal, { strategies: [{ strategy: 'timed-orders' }], onStop: 'cancel' });
    await bot.venue.idle();
    await vt.advance(MINUTE);
    await bot.venue.idle();
    const client = sandboxClient(s, defer);
    expect(await client.spot.openOrders({ symbol: 'BTCPHP' })).toHaveLength(2);

    const summary = await bot.stop('signal', 'SIGINT');
    expect(await client.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
    expect(ended).toEqual(['closed']);
    expect(s.listenKeys.active(s.clock.now())).toEqual([]);
    expect(summary).toMatchObject({ exitReason: 'signal', exitDetail: 'SIGINT', orders: 2, journal });
    expect(summary.strategies[0]).toMatchObject({ name: 'timed-orders', orders: 2, openOrders: 0 });
    // A second stop is the same stop.
    expect(await bot.stop()).toBe(summary);

    const j = openJournal(journal);
    defer(() => j.close());
    const [run] = j.liveRuns.list();
    expect(run).toMatchObject({ id: bot.runId, kind: 'sandbox', exitReason: 'signal' });
    expect((run?.result as { orders?: number } | null)?.orders).toBe(2);
  });

  it('onStop leave: the orders stay on the book; the next start adopts them into the strategy that placed them', async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    const journal = join(dir, 'bot.db');
    const first = await testBot(defer, s, journal, { strategies: [{ strategy: 'timed-orders' }], onStop: 'leave' });
    await first.bot.venue.idle();
    const left = first.bot.status().strategies[0]?.openOrders.map((o) => o.clientOrderId);
    const summary = await first.bot.stop();
    expect(summary.strategies[0]?.openOrders).toBe(1);
    const client = sandboxClient(s, defer);
    expect((await client.spot.openOrders({ symbol: 'BTCPHP' })).map((o) => o.clientOrderId)).toEqual(left);

    // The next run: no order placed at start, so only the adopted one is open.
    const second = await testBot(defer, s, journal, { strategies: [{ strategy: 'timed-orders', params: { placeOnStart: false } }], onStop: 'cancel' });
    await second.bot.venue.idle();
    const held = second.bot.status().strategies[0]?.openOrders ?? [];
    expect(held.map((o) => [o.clientOrderId, o.status])).toEqual([[left?.[0], 'NEW']]);
    // The account as the venue has it: the left order's funds locked, not free.
    const php = (await client.account.account()).balances.find((b) => b.asset === 'PHP');
    const mine = second.bot.orders.account.balances().find((b) => b.asset === 'PHP');
    expect([String(mine?.free), String(mine?.locked)]).toEqual([String(Number(php?.free)), String(Number(php?.locked))]);
    expect(Number(php?.locked)).toBe(2000);
    await second.bot.stop();
    expect(await client.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);
  });
});
