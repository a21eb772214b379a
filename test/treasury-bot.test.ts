/**
 * Issue 23 acceptance, inside `halyard run` with a treasury section, on virtual time: "a strategy's
 * spending pushes the quote balance out of its band and the rebalancer brings it back without
 * touching assets a strategy has orders on". The bot (startBot, what `halyard run` runs) against
 * the sandbox over HTTP and WebSocket on 127.0.0.1, its timers on a VirtualTimeScheduler; the
 * master (the bot's account) and a reserve sub-account that feeds it funded through the sandbox's
 * admin API; a maker's resting orders give the book tops (the plan's prices) and the spender's fill.
 *
 * One strategy buys 0.02 BTC at start (70,200 PHP): the master's PHP falls under its min of 50,000.
 * Another rests a bid on ETHUSDT: ETH (far over its 1 % target) and USDT are frozen. The first tick
 * (30 s of virtual time) moves PHP from the reserve to the master (a sub-account transfer, journaled
 * with the run's id); ETH and USDT are untouched and the order still rests; the status block says so.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { renderStatusBlock } from '../src/bot/status/render-block.ts';
import { parseConfig } from '../src/config/load.ts';
import type { SandboxHandle } from '../src/sandbox/server.ts';
import { openMoveStore } from '../src/treasury/journal/move-store.ts';
import { openJournal } from '../src/journal/journal.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { tempDir, testBot, testSandbox, waitFor } from './bot-harness.ts';

const defer = closeAfterEach();
const RESERVE = 'reserve@example.com';

async function admin(s: SandboxHandle, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${s.baseUrl}/sandbox-admin/v1${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const json = (await res.json()) as unknown;
  if (res.status !== 200) throw new Error(`admin ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

type Row = { asset: string; free: string; locked: string };
const balancesOf = async (s: SandboxHandle, accountId: string) => Object.fromEntries(((await admin(s, 'GET', `/balances?accountId=${accountId}`)) as Row[]).map((b) => [b.asset, b]));

describe('bot: the treasury rebalancer (issue 23 deliverable 4)', () => {
  it("brings the quote balance a strategy spent back inside its band, leaving the assets another strategy has orders on alone", async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    // The bot's account (the sandbox's first key) is the master: PHP 100,000 exactly, a reserve sub-account with 1,000,000.
    const masterId = s.accounts.getKey(s.apiKey)?.accountId ?? '';
    const before = await balancesOf(s, masterId);
    for (const [asset, b] of Object.entries(before)) if (Number(b.free) > 0) await admin(s, 'POST', '/balances/debit', { accountId: masterId, asset, amount: b.free });
    for (const [asset, amount] of Object.entries({ PHP: '100000', USDT: '1700', ETH: '0.5' })) await admin(s, 'POST', '/balances/credit', { accountId: masterId, asset, amount });
    const reserve = (await admin(s, 'POST', '/accounts', { email: RESERVE, masterId, balances: { PHP: '1000000' } })) as { id: string };
    const maker = (await admin(s, 'POST', '/accounts', { email: 'maker@example.com', balances: { BTC: '10', ETH: '10', USDT: '100000', PHP: '100000000' } })) as { id: string };
    const makerKey = (await admin(s, 'POST', '/keys', { accountId: maker.id })) as { apiKey: string; secret: string };
    const m = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: makerKey.apiKey, apiSecret: makerKey.secret } });
    defer(() => m.close());
    for (const [symbol, bid, ask] of [
      ['BTCPHP', '3490000', '3510000'],
      ['USDTPHP', '57.9', '58.1'],
      ['ETHUSDT', '3090', '3110'],
    ] as const) {
      await m.client.spot.newOrder({ symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: symbol === 'USDTPHP' ? '100' : '1', price: bid });
      await m.client.spot.newOrder({ symbol, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: symbol === 'USDTPHP' ? '100' : '1', price: ask });
    }

    const journalFile = join(dir, 'bot.db');
    const { bot, vt, lines } = await testBot(defer, s, journalFile, {
      strategies: [
        { strategy: 'timed-orders', name: 'spender', params: { symbol: 'BTCPHP', price: '3510000', quantity: '0.02', everyMs: 100_000_000 } },
        { strategy: 'timed-orders', name: 'rester', params: { symbol: 'ETHUSDT', price: '1000', quantity: '0.01', everyMs: 100_000_000 } },
      ],
      treasury: {
        accounts: { master: { assets: { PHP: { min: '50000' }, ETH: { target: 1, band: 0.5 } } }, [RESERVE]: { assets: {} } },
        schedule: { everyMs: 60_000, firstAfterMs: 30_000 },
      },
    });
    await bot.venue.idle();
    await waitFor(() => bot.status().counts.fills >= 1, 5000, 'the spender filled');
    const spent = await balancesOf(s, masterId);
    expect(Number(spent['PHP']?.free)).toBeLessThan(50_000);
    expect(bot.status().treasury).toMatchObject({ state: 'waiting', lastRunAt: null, movesDone: 0 });

    // The first tick, 30 s on: it reads, plans and applies with real I/O while virtual time stands.
    await vt.advance(30_000);
    await waitFor(() => bot.status().treasury?.lastResult?.startsWith('plan ') === true || bot.status().treasury?.state === 'waiting', 20_000, 'the rebalance done');
    for (let i = 0; i < 100 && bot.status().treasury?.state === 'running'; i++) await vt.advance(1000);
    const t = bot.status().treasury;
    expect(t?.lastResult).toMatch(/^plan [0-9a-f]{16}: 1 of 1 moves done$/);
    expect(t?.reason).toContain('master ETH: left alone: a strategy has orders on ETHUSDT');
    expect(t?.movesDone).toBe(1);

    const after = await balancesOf(s, masterId);
    const shortfall = 50_000 - Number(spent['PHP']?.free);
    expect(Number(after['PHP']?.free)).toBeGreaterThanOrEqual(50_000);
    expect((await balancesOf(s, reserve.id))['PHP']?.free).toBe(String(1_000_000 - Number((Number(after['PHP']?.free) - Number(spent['PHP']?.free)).toFixed(8))));
    expect(Number(after['PHP']?.free) - Number(spent['PHP']?.free)).toBeCloseTo(shortfall, 6);
    // Untouched: the frozen assets (the rester's order locks USDT) and the order itself.
    expect(after['ETH']).toEqual(spent['ETH']);
    expect(after['USDT']).toEqual(spent['USDT']);
    expect(after['BTC']).toEqual(spent['BTC']);
    const rester = bot.status().strategies.find((x) => x.name === 'rester');
    expect(rester?.openOrderCount).toBe(1);
    expect((await bot.client.spot.openOrders({ symbol: 'ETHUSDT' })).map((o) => o.clientOrderId)).toContain(rester?.openOrders[0]?.clientOrderId);
    // The status block's treasury line.
    const block = renderStatusBlock(bot.status(), { now: vt.now() });
    expect(block).toMatch(/^treasury waiting \| last 0s ago: plan [0-9a-f]{16}: 1 of 1 moves done \(master ETH: left alone: a strategy has orders on ETHUSDT.*\) \| next in 1m00s \| moves done 1$/m);
    expect(lines.some((l) => l['topic'] === 'treasury' && l.msg.startsWith('treasury: plan '))).toBe(true);

    await bot.stop();
    // The journal holds the move, with the run's id and its final state.
    const journal = openJournal(journalFile);
    defer(() => journal.close());
    const rows = openMoveStore(journal).list();
    expect(rows.map((r) => [r.kind, r.fromAccount, r.toAccount, r.asset, r.state, r.runId])).toEqual([['transfer', RESERVE, 'master', 'PHP', 'succeeded', bot.runId]]);
  });
});
