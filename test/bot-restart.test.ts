/**
 * A crash, then a restart (issue 21 deliverable 3: "After a crash, the next start resumes through
 * the live core's reconciliation"): `halyard run` as a child process against the test's sandbox
 * (venue by URL, keys from the environment), killed with SIGKILL once its order rests; while it is
 * down, the market fills that order. The next start on the same journal finds the first run
 * crashed, and its start-up reconciliation hands the fill to the strategy that placed the order,
 * once: its position and fill count say so, nothing is left open.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { openJournal } from '../src/journal/journal.ts';
import { closeAfterEach, sandboxClient } from './support/sandbox-fixture.ts';
import { FIXTURES, tempDir, testBot, testSandbox, waitFor } from './bot-harness.ts';

const defer = closeAfterEach();
const BIN = fileURLToPath(new URL('../bin/halyard.mjs', import.meta.url));

describe('bot: crash and restart', () => {
  it('the next start finds the run crashed and applies the fill made while it was down to its strategy, once', async () => {
    const s = await testSandbox(defer);
    const dir = tempDir(defer);
    const journal = join(dir, 'bot.db');
    const venue = { baseUrl: s.baseUrl, wsUrl: s.wsUrl };
    const env = { HALYARD_API_KEY: s.apiKey, HALYARD_API_SECRET: s.apiSecret };
    const file = join(dir, 'bot.json');
    writeFileSync(file, JSON.stringify({ strategies: [{ strategy: join(FIXTURES, 'timed-orders.ts') }], venue, journal, exchange: { retry: { maxAttempts: 1 } } }));
    const proc = spawn(process.execPath, [BIN, 'run', '--config', file], { env: { ...process.env, ...env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    defer(async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    });
    let err = '';
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor(() => err.includes('the user stream is LIVE'), 60_000, `the child trading; stderr: ${err}`);
    const client = sandboxClient(s, defer);
    let open: Awaited<ReturnType<typeof client.spot.openOrders>> = [];
    for (let i = 0; i < 200 && open.length === 0; i++) {
      open = await client.spot.openOrders({ symbol: 'BTCPHP' });
      if (open.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    expect(open).toHaveLength(1);
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // While it is down, the market fills its bid.
    const now = s.clock.now();
    const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: now });
    const key = s.accounts.createKey({ accountId: account.id, createdAt: now });
    s.services.balances?.credit(account.id, 'BTC', '1');
    const taker = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: key.apiKey, apiSecret: key.secret } });
    defer(() => taker.close());
    await taker.client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.001', price: '2000000' });
    expect(await client.spot.openOrders({ symbol: 'BTCPHP' })).toEqual([]);

    // The restart: same journal, same venue; it places nothing at start.
    const { bot } = await testBot(defer, s, journal, { strategies: [{ strategy: 'timed-orders', params: { placeOnStart: false } }], venue }, { env });
    await bot.venue.idle();
    const st = bot.status();
    expect(st.counts.fills).toBe(1);
    expect(st.strategies[0]).toMatchObject({ name: 'timed-orders', openOrderCount: 0 });
    expect(st.strategies[0]?.positions[0]?.quantity).toMatch(/^0\.000999|^0\.001/);
    const summary = await bot.stop();
    expect(summary.strategies[0]).toMatchObject({ fills: 1, orders: 0 });

    const j = openJournal(journal);
    defer(() => j.close());
    const runs = j.liveRuns.list();
    expect(runs.map((r) => [r.id === bot.runId ? 'restart' : 'child', r.exitReason]).sort()).toEqual([
      ['child', 'crashed'],
      ['restart', 'stopped'],
    ]);
    // The fill journaled once, whichever run found it.
    expect(j.fills.count()).toBe(1);
  }, 90_000);
});
