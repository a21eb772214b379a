/**
 * The bot's rebalancer keeps exchangeInfo for the run (src/treasury/bot/info-cache.ts): on virtual
 * time, against the sandbox over HTTP on 127.0.0.1, with the client wrapped to count its reads,
 * two ticks a minute apart make ONE exchangeInfo request while the balances and the book tickers are
 * read at each; an hour of the bot's clock later it is read again. And a kept copy that does not
 * list a symbol the tickers show (a listing newer than the copy) is read afresh within the tick.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import type { ExchangeClient } from '../src/exchange/client/exchange-client.ts';
import { VirtualTime } from '../src/exchange/ws/testing/virtual-time.ts';
import { openJournal } from '../src/journal/journal.ts';
import { Rebalancer } from '../src/treasury/bot/rebalancer.ts';
import { parseTreasuryPolicy } from '../src/treasury/policy/parse.ts';
import { readPlanInputs } from '../src/treasury/plan/read-inputs.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { T0, tempDir, testSandbox, waitFor } from './bot-harness.ts';

const defer = closeAfterEach();

/** The client with every call of `general`, `account` and `market` counted by name (the client is frozen: copied, not proxied). */
function counted(client: ExchangeClient): { client: ExchangeClient; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const wrapArea = (area: string, target: Record<string, unknown>) =>
    Object.fromEntries(
      Object.keys(target).map((name) => {
        const v = target[name];
        if (typeof v !== 'function') return [name, v];
        return [name, (...args: unknown[]) => ((calls[`${area}.${name}`] = (calls[`${area}.${name}`] ?? 0) + 1), (v as (...a: unknown[]) => unknown).apply(target, args))];
      }),
    );
  const wrapped = Object.assign(Object.create(Object.getPrototypeOf(client) as object) as ExchangeClient, client);
  for (const area of ['general', 'account', 'market'] as const) Object.assign(wrapped, { [area]: wrapArea(area, client[area] as unknown as Record<string, unknown>) });
  return { client: wrapped, calls };
}

async function rig() {
  const s = await testSandbox(defer);
  const handle = createClient({ baseUrl: s.baseUrl, clock: s.clock, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret } });
  defer(() => handle.close());
  return { s, ...counted(handle.client) };
}

describe('treasury rebalancer: exchangeInfo kept for the run', () => {
  it('two ticks make one exchangeInfo request; balances and tickers are read each tick; an hour later it is read again', async () => {
    const { client, calls } = await rig();
    const journal = openJournal(join(tempDir(defer), 'bot.db'), { createDirs: true });
    defer(() => journal.close());
    const vt = new VirtualTime(T0);
    const logs: string[] = [];
    const r = new Rebalancer({
      // No band can be broken: each tick reads and plans, and has nothing to move.
      policy: parseTreasuryPolicy({ valuation: 'PHP', accounts: { master: { assets: { PHP: { max: '1000000000000' } } } }, schedule: { everyMs: 60_000, firstAfterMs: 10_000 } }),
      client,
      journal,
      runId: 'run-1',
      scheduler: vt.scheduler,
      now: () => vt.now(),
      stream: () => ({ state: 'LIVE' }),
      busySymbols: () => [],
      log: (level, msg) => void logs.push(`${level}: ${msg}`),
    });
    r.start();
    defer(() => r.stop());
    const ticked = async (n: number) => {
      await waitFor(() => (calls['account.account'] ?? 0) >= n && r.status().state === 'waiting' && r.status().lastResult !== null, 5000, `tick ${n} done`);
    };
    await vt.advance(10_000);
    await ticked(1);
    expect(r.status().lastResult).toBe('every account inside its bands');
    await vt.advance(60_000);
    await ticked(2);
    expect(logs.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(calls).toMatchObject({ 'general.exchangeInfo': 1, 'account.account': 2, 'market.bookTicker': 2 });

    // Minute by minute (a tick still reading when the next is due would skip it): kept until an
    // hour of the bot's clock after the first read, then read again, once.
    for (let n = 3; n <= 60; n++) {
      await vt.advance(60_000);
      await ticked(n);
    }
    expect(calls['general.exchangeInfo']).toBe(1);
    await vt.advance(60_000);
    await ticked(61);
    expect(calls).toMatchObject({ 'general.exchangeInfo': 2, 'account.account': 61, 'market.bookTicker': 61 });
  });

  it('a kept copy that does not list what the tickers show, or an asset of the policy, is read afresh once within the tick', async () => {
    const { client } = await rig();
    const real = await client.general.exchangeInfo();
    const asked: boolean[] = [];
    // A copy from before BTC was listed: the policy's BTC would be "unknown asset" from it alone.
    const stale = { ...(real as object), symbols: (real as { symbols: { baseAsset: string; quoteAsset: string }[] }).symbols.filter((x) => x.baseAsset !== 'BTC' && x.quoteAsset !== 'BTC') };
    const policy = parseTreasuryPolicy({ valuation: 'PHP', accounts: { master: { assets: { PHP: { max: '1000000000000' }, BTC: { max: '1000000' } } } } });
    const input = await readPlanInputs(client, policy, {
      now: () => T0,
      skipWallet: true,
      exchangeInfo: (fresh) => (asked.push(fresh), Promise.resolve(fresh ? real : stale)),
    });
    expect(asked).toEqual([false, true]);
    expect(input.balances['master']).toBeDefined();
    // Had the venue answered the old copy again, the policy's BTC is named as the venue not knowing it.
    await expect(readPlanInputs(client, policy, { now: () => T0, skipWallet: true, exchangeInfo: () => Promise.resolve(stale) })).rejects.toThrow(/accounts\.master\.assets\.BTC: unknown asset 'BTC'/);
  });
});
