/**
 * Live against backtest on the real bot (issue 21 acceptance: "The same strategy file with the same
 * params, run live on the sandbox and then backtested on the bars that run recorded: the
 * live-against-backtest report is empty for market orders at the next open, or each difference is
 * one the fill model explains, and the report says which"): `startBot` (what `halyard run` runs)
 * trades the SMA crossover file on the embedded sandbox's seeded market, its market-data pipeline
 * recording every closed bar into the journal, the sandbox clock and the bot's scheduler moved
 * together on virtual time; then `halyard compare-live` on that journal.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LiveComparison } from '../src/backtest/live-compare/types.ts';
import { runCli } from '../src/cli/index.ts';
import { openJournal } from '../src/journal/journal.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { T0, tempDir, testBot, waitFor } from './bot-harness.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const MIN = 60_000;
const SMA_FILE = fileURLToPath(new URL('../strategies/sma-crossover.ts', import.meta.url));
const BARS = 36;

describe('compare-live on a run of the bot', () => {
  it('the SMA crossover file live on the sandbox, then replayed on the bars the run recorded: every difference explained', async () => {
    const clock = new VirtualClock(T0);
    const market = {
      enabled: true,
      seed: 21,
      historyBars: 30,
      markets: [{ symbol: 'BTCPHP', source: { type: 'synthetic', startPrice: '3400000', regimes: [{ regime: 'sharpUp', bars: 6 }, { regime: 'crash', bars: 4 }, { regime: 'flat', bars: 2 }] }, liquidity: { size: '0.01' } }],
    };
    const s = await startSandbox({ clock, config: { admin: { enabled: true }, market } as never });
    defer(() => s.close());
    const dir = tempDir(defer);
    const file = join(dir, 'bot.db');
    const params = { symbol: 'BTCPHP', interval: '1m', fast: 3, slow: 6, quantity: '0.001' };
    // Pings every two minutes on the bot's virtual scheduler: the sandbox closes a socket silent for 300 s.
    const stream = { pingIntervalMs: 2 * MIN, pongTimeoutMs: 100_000, requestTimeoutMs: 100_000, backoff: { baseMs: 1000, maxMs: 8000 } };
    const { bot, vt } = await testBot(defer, s, file, { strategies: [{ strategy: SMA_FILE, params }], stream });
    for (let i = 0; i < BARS; i++) {
      await clock.advance(MIN);
      await vt.advance(MIN);
      await waitFor(() => bot.status().counts.bars !== null && (bot.status().counts.bars ?? 0) >= i, 5000, `bar ${i}`);
      await bot.venue.idle();
      await waitFor(() => [...bot.orders.orders.openOrders()].length === 0, 5000, 'orders done');
    }
    const summary = await bot.stop();
    expect(summary.fills).toBeGreaterThanOrEqual(3);

    const j = openJournal(file, { readonly: true });
    const run = j.liveRuns.list().at(-1)!;
    j.close();
    const io = { env: {}, out: (t: string) => out.push(t), err: (t: string) => err.push(t), tty: { out: false, err: false } };
    const out: string[] = [];
    const err: string[] = [];
    expect(await runCli(['compare-live', '--journal', file, '--out', join(dir, 'out'), '--json'], io), err.join('\n')).toBe(0);
    const c = JSON.parse(out.join('\n')) as LiveComparison;
    expect(c.runId).toBe(run.id);
    const [cmp] = c.strategies;
    expect(cmp!.strategy).toBe('sma-crossover');
    const live = cmp!.pairs.filter((p) => (p.live?.fills.length ?? 0) > 0);
    expect(live.length).toBeGreaterThanOrEqual(3);
    // The replay ran under the run's id and the strategy's name: each live order's twin has its client order id.
    for (const p of live.slice(0, -1)) expect(p).toMatchObject({ pairedBy: 'client-order-id', backtest: { clientOrderId: p.live!.clientOrderId } });
    const differences = cmp!.pairs.flatMap((p) => p.differences);
    const unexplained = differences.filter((d) => d.explanation === undefined);
    expect(unexplained, JSON.stringify(cmp!.pairs, null, 2)).toEqual([]);
    for (const d of differences) expect(['market-next-open', 'end-of-data', 'knock-on', 'partial-fill', 'fees']).toContain(d.explanation!.rule);
  }, 120_000);
});
