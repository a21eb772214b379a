import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlaceCommand } from '../../ports/venue.ts';
import { openDatabase } from '../db.ts';
import { explainRun, type TimelineEntry } from './explain-run.ts';
import type { NewFill } from '../fill-store.ts';
import { openJournal, type Journal } from '../journal.ts';
import { MIGRATIONS } from '../migrations/index.ts';
import { commandRequest, pendingRequests } from '../request-store.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

const place = (n: number, price = '3150000'): PlaceCommand => ({ kind: 'place', symbol: 'BTCPHP', clientOrderId: `hyk3x9zqggrid-${n}`, side: 'BUY', type: 'LIMIT', quantity: '0.002', price, timeInForce: 'GTC' });
const fill = (tradeId: string, over: Partial<NewFill> = {}): NewFill => ({
  symbol: 'BTCPHP',
  tradeId,
  side: 'BUY',
  price: '3150000',
  qty: '0.001',
  quoteQty: '3150',
  commission: '0.000001',
  commissionAsset: 'BTC',
  isMaker: true,
  time: 0,
  ...over,
});

/**
 * A run as the live venue would journal it, on a virtual clock: start, streams, start-up
 * reconciliation, a place that fills in two parts, a gap with a fill found by the resync, a cancel
 * whose outcome is unknown until a query, balances, a clean stop. Several records share a
 * millisecond, as they do under virtual time.
 */
function scriptedRun(journal: Journal): void {
  journal.liveRuns.begin({ id: 'run', strategies: [{ name: 'grid', params: { levels: 2 }, symbols: ['BTCPHP'] }], config: { exchange: { recvWindow: 5000 } }, startedAt: 1_000 });
  journal.streamHealth.record({ runId: 'run', time: 1_000, stream: 'user', to: 'CONNECTING' });
  journal.streamHealth.record({ runId: 'run', time: 1_010, stream: 'user', from: 'CONNECTING', to: 'LIVE' });
  journal.reconciliations.record({ runId: 'run', time: 1_010, kind: 'startup', report: {} });
  journal.balances.record({ runId: 'run', takenAt: 1_010, source: 'reconciliation', balances: [{ asset: 'PHP', free: '100000', locked: '0' }] });

  const p1 = place(1);
  journal.runs.addIntent({ runId: 'run', time: 2_000, strategy: 'grid', kind: 'place', payload: { side: 'BUY', price: '3150000', qty: '0.002' }, clientOrderId: p1.clientOrderId });
  journal.requests.record(commandRequest('run', p1, 2_000));
  journal.orders.insert({ clientOrderId: p1.clientOrderId, runId: 'run', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '3150000', qty: '0.002', status: 'PENDING_NEW', createdAt: 2_000 });
  journal.requests.answer(p1.clientOrderId, 'place', { state: 'acknowledged', time: 2_003, answer: { orderId: '1375445991893797391', status: 'NEW' } });
  journal.orders.update(p1.clientOrderId, { status: 'NEW', updatedAt: 2_003, exchangeOrderId: '1375445991893797391' }, 'ack');
  journal.fills.insert(fill('9007199254740993', { runId: 'run', clientOrderId: p1.clientOrderId, exchangeOrderId: '1375445991893797391', time: 3_000 }));
  journal.orders.update(p1.clientOrderId, { status: 'PARTIALLY_FILLED', updatedAt: 3_000, executedQty: '0.001' });

  // The user stream goes quiet; the second fill happens in the gap and the resync finds it.
  journal.streamHealth.record({ runId: 'run', time: 4_000, stream: 'user', from: 'LIVE', to: 'STALE', reason: 'no message or pong for 60000 ms' });
  journal.streamHealth.record({ runId: 'run', time: 4_000, stream: 'user', from: 'STALE', to: 'RESYNCING' });
  journal.fills.insert(fill('9007199254740999', { runId: 'run', clientOrderId: p1.clientOrderId, exchangeOrderId: '1375445991893797391', time: 3_500 }));
  journal.orders.update(p1.clientOrderId, { status: 'FILLED', updatedAt: 4_001, executedQty: '0.002' });
  journal.reconciliations.record({
    runId: 'run',
    time: 4_001,
    kind: 'resync',
    report: { missedFills: [{ symbol: 'BTCPHP', orderId: '1375445991893797391', tradeId: '9007199254740999', price: '3150000', qty: '0.001' }] },
  });
  journal.balances.record({ runId: 'run', takenAt: 4_001, source: 'rest', balances: [{ asset: 'BTC', free: '0.001998', locked: '0' }, { asset: 'PHP', free: '93700', locked: '0' }] });
  journal.streamHealth.record({ runId: 'run', time: 4_001, stream: 'user', from: 'RESYNCING', to: 'LIVE' });

  // A second order, cancelled; the cancel times out and a query resolves it.
  const p2 = place(2, '3100000');
  journal.runs.addIntent({ runId: 'run', time: 5_000, strategy: 'grid', kind: 'place', payload: {}, clientOrderId: p2.clientOrderId });
  journal.requests.record(commandRequest('run', p2, 5_000));
  journal.requests.answer(p2.clientOrderId, 'place', { state: 'acknowledged', time: 5_000, answer: { orderId: '1375445991893797400' } });
  journal.runs.addIntent({ runId: 'run', time: 6_000, strategy: 'grid', kind: 'cancel', payload: {}, clientOrderId: p2.clientOrderId });
  journal.requests.record(commandRequest('run', { kind: 'cancel', symbol: 'BTCPHP', clientOrderId: p2.clientOrderId }, 6_000));
  journal.requests.answer(p2.clientOrderId, 'cancel', { state: 'unknown', time: 16_000, answer: { reason: 'timeout after 10000 ms' } });
  journal.requests.resolve(p2.clientOrderId, 'cancel', 16_050, { found: true, status: 'CANCELED' });
  journal.liveRuns.end('run', { endedAt: 20_000, reason: 'stopped' });
}

const kinds = (entries: readonly TimelineEntry[]): string[] => entries.map((e) => e.kind);

describe('explainRun', () => {
  it('gives the whole run in time order, same-time records in the order they were journaled', () => {
    scriptedRun(j);
    const t = explainRun(j, 'run')!;
    expect(t.run).toMatchObject({ id: 'run', exitReason: 'stopped', endedAt: 20_000 });
    expect(t.entries.map((e) => [e.time, e.kind])).toEqual([
      [1_000, 'run-start'],
      [1_000, 'health'],
      [1_010, 'health'],
      [1_010, 'reconciliation'],
      [1_010, 'balance'],
      [2_000, 'intent'],
      [2_000, 'request'],
      [2_000, 'order'],
      [2_003, 'answer'],
      [2_003, 'order'],
      [3_000, 'fill'],
      [3_000, 'order'],
      // the fill found by the resync sits at its trade time
      [3_500, 'fill'],
      [4_000, 'health'],
      [4_000, 'health'],
      [4_001, 'order'],
      [4_001, 'reconciliation'],
      [4_001, 'balance'],
      [4_001, 'health'],
      [5_000, 'intent'],
      [5_000, 'request'],
      [5_000, 'answer'],
      [6_000, 'intent'],
      [6_000, 'request'],
      [16_000, 'answer'],
      [16_050, 'resolution'],
      [20_000, 'run-stop'],
    ]);
    const times = t.entries.map((e) => e.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(t.entries.map((e) => e.text)).toEqual([
      'run run (live) started: grid[BTCPHP] {"levels":2}',
      'stream user: (new) -> CONNECTING',
      'stream user: CONNECTING -> LIVE',
      'start-up: nothing missed, journal and venue agree',
      'balances (reconciliation): PHP 100000 free 0 locked',
      'intent place by grid as hyk3x9zqggrid-1: {"side":"BUY","price":"3150000","qty":"0.002"}',
      'sent place hyk3x9zqggrid-1 BTCPHP BUY LIMIT 0.002 @ 3150000',
      'order hyk3x9zqggrid-1 created -> PENDING_NEW',
      'acknowledged place hyk3x9zqggrid-1 BTCPHP: {"orderId":"1375445991893797391","status":"NEW"}',
      'order hyk3x9zqggrid-1 ack -> NEW',
      'fill BTCPHP BUY 0.001 @ 3150000 trade 9007199254740993 order 1375445991893797391 hyk3x9zqggrid-1, fee 0.000001 BTC, maker',
      'order hyk3x9zqggrid-1 update -> PARTIALLY_FILLED',
      'fill BTCPHP BUY 0.001 @ 3150000 trade 9007199254740999 order 1375445991893797391 hyk3x9zqggrid-1, fee 0.000001 BTC, maker',
      'stream user: LIVE -> STALE (no message or pong for 60000 ms)',
      'stream user: STALE -> RESYNCING',
      'order hyk3x9zqggrid-1 update -> FILLED',
      'resync: 1 missed fill applied',
      'balances (rest): BTC 0.001998 free 0 locked, PHP 93700 free 0 locked',
      'stream user: RESYNCING -> LIVE',
      'intent place by grid as hyk3x9zqggrid-2: {}',
      'sent place hyk3x9zqggrid-2 BTCPHP BUY LIMIT 0.002 @ 3100000',
      'acknowledged place hyk3x9zqggrid-2 BTCPHP: {"orderId":"1375445991893797400"}',
      'intent cancel by grid as hyk3x9zqggrid-2: {}',
      'sent cancel hyk3x9zqggrid-2 BTCPHP',
      'unknown cancel hyk3x9zqggrid-2 BTCPHP: {"reason":"timeout after 10000 ms"}',
      'resolved cancel hyk3x9zqggrid-2 BTCPHP: {"found":true,"status":"CANCELED"}',
      'run run ended: stopped',
    ]);
  });

  it('is complete: every record of the run appears once, and nothing of another run', () => {
    scriptedRun(j);
    // Another run on the same journal, before and after.
    j.liveRuns.begin({ id: 'other', kind: 'sandbox', strategies: [{ name: 'sma' }], config: {}, startedAt: 2_500 });
    j.runs.addIntent({ runId: 'other', time: 2_600, strategy: 'sma', kind: 'place', payload: {} });
    j.fills.insert(fill('1', { runId: 'other', time: 2_700 }));
    j.fills.insert(fill('2', { time: 2_800 })); // a fill outside any run
    const t = explainRun(j, 'run')!;
    const count = (kind: string): number => t.entries.filter((e) => e.kind === kind).length;
    expect(count('intent')).toBe(j.runs.intents('run').length);
    expect(count('request')).toBe(j.requests.byRun('run').length);
    expect(count('answer')).toBe(j.requests.byRun('run').filter((r) => r.answeredAt !== null).length);
    expect(count('resolution')).toBe(j.requests.byRun('run').filter((r) => r.state === 'resolved').length);
    expect(count('order')).toBe(j.orders.eventsByRun('run').length);
    expect(count('fill')).toBe(j.fills.list({ runId: 'run' }).length);
    expect(count('balance')).toBe(j.balances.byRun('run').length);
    expect(count('health')).toBe(j.streamHealth.byRun('run').length);
    expect(count('reconciliation')).toBe(j.reconciliations.byRun('run').length);
    expect(t.entries).toHaveLength(27);
    expect(new Set(t.entries.map((e) => e.seq)).size).toBe(27);
    expect(kinds(explainRun(j, 'other')!.entries)).toEqual(['run-start', 'intent', 'fill']);
    expect(explainRun(j, 'nope')).toBeUndefined();
  });

  it("order 'journal' gives the order in which the bot learned things: the resync's fill after the gap", () => {
    scriptedRun(j);
    const t = explainRun(j, 'run', { order: 'journal' })!;
    const seqs = t.entries.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const texts = t.entries.map((e) => e.text);
    expect(texts.indexOf('stream user: STALE -> RESYNCING')).toBeLessThan(texts.findIndex((x) => x.includes('trade 9007199254740999')));
  });

  it('a crashed run ends in a crashed stop at its last record; its unanswered request is pending', () => {
    j.liveRuns.begin({ id: 'a', strategies: [{ name: 'grid' }], config: {}, startedAt: 100 });
    j.runs.addIntent({ runId: 'a', time: 200, strategy: 'grid', kind: 'place', payload: {}, clientOrderId: 'hyk3x9zqggrid-1' });
    j.requests.record(commandRequest('a', place(1), 200));
    // SIGKILL here: no answer, no stop. The next run starts.
    j.liveRuns.begin({ id: 'b', strategies: [{ name: 'grid' }], config: {}, startedAt: 9_000 });
    const t = explainRun(j, 'a')!;
    expect(kinds(t.entries)).toEqual(['run-start', 'intent', 'request', 'run-stop']);
    expect(t.entries.at(-1)).toMatchObject({ time: 200, text: 'run a ended: crashed {"detectedAt":9000,"detectedBy":"b","lastActivityAt":200}' });
    expect(pendingRequests(j).map((r) => [r.runId, r.clientOrderId, r.kind, r.state])).toEqual([['a', 'hyk3x9zqggrid-1', 'place', 'sent']]);
  });

  it('treasury actions of the run show each status they passed through', () => {
    j.liveRuns.begin({ id: 'r', strategies: [{ name: 'sweep' }], config: {}, startedAt: 0 });
    j.treasury.record({ id: 'tr-1', runId: 'r', time: 10, kind: 'transfer', asset: 'PHP', amount: '-500', status: 'sent', payload: { to: 'sub' } });
    j.treasury.setStatus('tr-1', 'done', 20, { result: 'ok' });
    expect(explainRun(j, 'r')!.entries.filter((e) => e.kind === 'treasury').map((e) => [e.time, e.text])).toEqual([
      [10, 'treasury transfer -500 PHP tr-1: sent'],
      [20, 'treasury transfer -500 PHP tr-1: done'],
    ]);
  });
});

describe('journal of live runs on a file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'halyard-live-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a schema-4 journal upgraded to the latest schema explains its earlier runs: events linked to their run, the log filled in', () => {
    const file = join(dir, 'old.db');
    const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 4) }).db;
    old.exec(`
      INSERT INTO runs (id, kind, strategy, params, config, started_at) VALUES ('r', 'sandbox', 'grid', '{}', '{}', 10);
      INSERT INTO intents (run_id, time, strategy, kind, payload, client_order_id) VALUES ('r', 20, 'grid', 'place', '{}', 'c1');
      INSERT INTO orders (client_order_id, run_id, symbol, side, type, qty, status, created_at, updated_at) VALUES ('c1', 'r', 'BTCPHP', 'BUY', 'LIMIT', '1', 'NEW', 20, 20);
      INSERT INTO order_events (client_order_id, time, kind, status) VALUES ('c1', 20, 'created', 'NEW');
      INSERT INTO fills (symbol, trade_id, run_id, client_order_id, side, price, qty, quote_qty, commission, commission_asset, is_maker, time)
        VALUES ('BTCPHP', '5', 'r', 'c1', 'BUY', '1', '1', '1', '0', 'BTC', 1, 30);
      UPDATE runs SET ended_at = 40, result = '{"ok":true}' WHERE id = 'r';
    `);
    old.close();

    const up = openJournal(file);
    try {
      expect(up.schemaVersion).toBe(MIGRATIONS.length);
      expect(up.orders.events('c1').map((e) => e.runId)).toEqual(['r']);
      expect(explainRun(up, 'r')!.entries.map((e) => [e.time, e.kind])).toEqual([
        [10, 'run-start'],
        [20, 'intent'],
        [20, 'order'],
        [30, 'fill'],
        [40, 'run-stop'],
      ]);
      // A sandbox run left unfinished before the upgrade is found by the next one, like any other.
      up.runs.start({ id: 'open', kind: 'sandbox', strategy: 'grid', startedAt: 50 });
      expect(up.liveRuns.begin({ id: 'next', kind: 'sandbox', strategies: [{ name: 'grid' }], config: {}, startedAt: 60 }).crashed.map((r) => r.id)).toEqual(['open']);
    } finally {
      up.close();
    }
  });

  it('throughput smoke check: 10,000 requests and 10,000 fills journaled one by one within a few seconds of CPU', () => {
    const live = openJournal(join(dir, 'live.db'));
    try {
      live.liveRuns.begin({ id: 'r', strategies: [{ name: 'grid' }], config: {}, startedAt: 0 });
      // CPU time, not wall time: a loaded machine (shared cores) stretches the wall clock, not the work.
      const started = process.cpuUsage();
      for (let i = 1; i <= 10_000; i++) {
        const command = place(i);
        live.requests.record(commandRequest('r', command, i));
        live.fills.insert(fill(String(9007199254740993n + BigInt(i)), { runId: 'r', clientOrderId: command.clientOrderId, exchangeOrderId: String(10n ** 18n + BigInt(i)), time: i }));
      }
      const used = process.cpuUsage(started);
      const ms = (used.user + used.system) / 1000;
      expect(live.requests.byRun('r')).toHaveLength(10_000);
      expect(live.fills.count()).toBe(10_000);
      expect(pendingRequests(live)).toHaveLength(10_000);
      expect(live.runLog.rows('r')).toHaveLength(1 + 20_000);
      // Smoke, not a benchmark: about 1.5 s of CPU for the 20,000 writes (each its own transaction,
      // as the live venue writes them) on a machine shared by a dozen processes.
      expect(ms).toBeLessThan(5_000);
    } finally {
      live.close();
    }
  }, 60_000);
});
