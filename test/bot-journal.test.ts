/**
 * What the bot journals about its strategies (src/bot/strategy-journal.ts), read back the way the
 * operator reads it, `halyard status --journal` (issue 21 deliverable 4: "prints the same for a
 * running or stopped bot from its journal"), against the sandbox over HTTP and WebSocket on
 * 127.0.0.1, strategy timers on virtual time:
 * - a strategy that throws live shows as failed with its reason, from the journal of the running
 *   bot and of the stopped one; the others as stopped with the bot once it stopped;
 * - every intent is journaled before its request (run_log's write order), the kernel's cancels
 *   after the failure marked `origin: engine`;
 * - the exchangeInfo the bot started with is in the journal, cut to the run's symbols, and the
 *   status from a journal takes base and quote from it rather than from the symbol's name.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusFromJournal, STRATEGY_FAILED_INTENT, STRATEGY_STOPPED_INTENT } from '../src/bot/status/from-journal.ts';
import { openJournal } from '../src/journal/journal.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { T0, tempDir, testBot, testSandbox } from './bot-harness.ts';

const defer = closeAfterEach();
const MINUTE = 60_000;
const REASON = 'onTimer threw: tick 1: thrown on purpose';

describe('bot journal: strategies as halyard status --journal reads them', () => {
  it('a strategy that throws shows as failed with its reason, running and stopped; its intents are journaled before their requests', async () => {
    const s = await testSandbox(defer);
    const file = join(tempDir(defer), 'bot.db');
    const { bot, vt } = await testBot(defer, s, file, {
      strategies: [
        { strategy: 'timed-orders', name: 'steady', params: { price: '2000000' } },
        { strategy: 'timed-orders', name: 'thrower', params: { price: '1900000', throwOnTick: 1 } },
      ],
      onStrategyFailure: 'cancel',
    });
    await bot.venue.idle();
    const thrownOrder = bot.status().strategies.find((x) => x.name === 'thrower')?.openOrders[0]?.clientOrderId;
    expect(thrownOrder).toBeDefined();
    await vt.advance(MINUTE);
    await bot.venue.idle();

    // The running bot's journal, read as `halyard status --journal` does (read-only, beside the writer).
    const reader = openJournal(file, { readonly: true });
    defer(() => reader.close());
    const running = statusFromJournal(reader);
    expect(running.runId).toBe(bot.runId);
    expect(running.state).toBe('running');
    const health = (st: typeof running) => st.strategies.map((x) => [x.name, x.health, x.healthReason]);
    expect(health(running)).toEqual([
      ['steady', 'active', null],
      ['thrower', 'failed', REASON],
    ]);
    // The same as the bot says of itself.
    expect(health(running)).toEqual(health(bot.status()));

    // What each strategy asked for, in order: two places of steady (start, tick), the thrower's
    // place at start, its failure, and the kernel's cancel of its order (made after the failure).
    const intents = reader.runs.intents(bot.runId).map((i) => [i.strategy, i.kind, i.clientOrderId, i.payload]);
    const place = (price: string) => ({ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price, tag: 'o' });
    expect(intents.filter(([st]) => st === 'steady')).toEqual([
      ['steady', 'place', null, expect.objectContaining(place('2000000'))],
      ['steady', 'place', null, expect.objectContaining(place('2000000'))],
    ]);
    expect(intents.filter(([st]) => st === 'thrower')).toEqual([
      ['thrower', 'place', null, expect.objectContaining(place('1900000'))],
      ['thrower', STRATEGY_FAILED_INTENT, null, { reason: REASON }],
      ['thrower', 'cancel', thrownOrder, { kind: 'cancel', symbol: 'BTCPHP', clientOrderId: thrownOrder, origin: 'engine' }],
    ]);
    // Journal order: each strategy's first intent before the first request sent.
    const log = reader.runLog.rows(bot.runId, 'journal').map((r) => r.kind);
    expect(log.indexOf('intent')).toBeGreaterThanOrEqual(0);
    expect(log.indexOf('intent')).toBeLessThan(log.indexOf('request'));

    await bot.stop();
    const stopped = statusFromJournal(reader, bot.runId);
    expect(stopped.state).toBe('stopped');
    expect(health(stopped)).toEqual([
      ['steady', 'stopped', 'stopped with the bot'],
      ['thrower', 'failed', REASON],
    ]);
    expect(reader.runs.intents(bot.runId).filter((i) => i.kind === STRATEGY_STOPPED_INTENT).map((i) => [i.strategy, i.payload])).toEqual([['steady', { reason: 'stopped with the bot' }]]);
  });

  it('saves the exchangeInfo it started with, cut to the run\'s symbols; the status from the journal reads the assets from it', async () => {
    const s = await testSandbox(defer);
    const file = join(tempDir(defer), 'bot.db');
    const { bot } = await testBot(defer, s, file, { strategies: [{ strategy: 'timed-orders', name: 'steady', params: { symbol: 'ETHPHP', price: '100000', quantity: '0.01' } }] });
    await bot.venue.idle();
    await bot.stop();

    const j = openJournal(file, { readonly: true });
    defer(() => j.close());
    const snaps = j.exchangeInfo.list();
    expect(snaps).toHaveLength(1);
    expect(snaps[0]?.takenAt).toBe(T0);
    const body = j.exchangeInfo.latest()?.body as { symbols: { symbol: string; baseAsset: string; quoteAsset: string }[] };
    expect(body.symbols.map((x) => [x.symbol, x.baseAsset, x.quoteAsset])).toEqual([['ETHPHP', 'ETH', 'PHP']]);
    expect(statusFromJournal(j).quoteAsset).toBe('PHP');
  });

  it('a symbol whose name says nothing of its assets: quote from the journal\'s exchangeInfo, unknown without it', () => {
    const dir = tempDir(defer);
    const statusOf = (withInfo: boolean) => {
      const j = openJournal(join(dir, `${String(withInfo)}.db`), { createDirs: true });
      defer(() => j.close());
      if (withInfo) {
        j.exchangeInfo.save(T0, {
          timezone: 'UTC',
          serverTime: T0,
          rateLimits: [],
          exchangeFilters: [],
          symbols: [{ symbol: 'XY', status: 'TRADING', baseAsset: 'XX', quoteAsset: 'YY', baseAssetPrecision: 8, quoteAssetPrecision: 8, orderTypes: ['LIMIT', 'MARKET'], filters: [{ filterType: 'LOT_SIZE', minQty: '0.1', maxQty: '1000', stepSize: '0.1' }] }],
        });
      }
      j.liveRuns.begin({ id: 'r', kind: 'sandbox', strategies: [{ name: 's', symbols: ['XY'] }], config: {}, startedAt: T0 + 1 });
      return statusFromJournal(j);
    };
    expect(statusOf(true).quoteAsset).toBe('YY');
    expect(statusOf(false).quoteAsset).toBe('?');
  });
});
