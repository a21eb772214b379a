import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CancelReplaceCommand, PlaceCommand } from '../ports/venue.ts';
import { openDatabase } from './db.ts';
import { JournalError } from './errors.ts';
import { openJournal, type Journal } from './journal.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { commandRequest, pendingRequests, type NewRequest } from './request-store.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
  j.liveRuns.begin({ id: 'run1', strategies: [{ name: 'grid' }], config: {}, startedAt: 0 });
});
afterEach(() => j.close());

const place: PlaceCommand = { kind: 'place', symbol: 'BTCPHP', clientOrderId: 'hy0k3x9zqgrid-1', side: 'BUY', type: 'LIMIT', quantity: '0.0123', price: '3150000.5', timeInForce: 'GTC' };
const req = (over: Partial<NewRequest> = {}): NewRequest => ({ ...commandRequest('run1', place, 100), ...over });

describe('RequestStore', () => {
  it('round-trips a request as it left, then its answer', () => {
    expect(j.requests.record(req())).toBe(true);
    expect(j.requests.get('hy0k3x9zqgrid-1', 'place')).toEqual({
      id: 1,
      runId: 'run1',
      clientOrderId: 'hy0k3x9zqgrid-1',
      kind: 'place',
      attempt: 1,
      symbol: 'BTCPHP',
      cancelClientOrderId: null,
      request: place,
      sentAt: 100,
      state: 'sent',
      answeredAt: null,
      answer: null,
      resolvedAt: null,
      resolution: null,
    });
    expect(j.requests.answer('hy0k3x9zqgrid-1', 'place', { state: 'acknowledged', time: 105, answer: { orderId: '1375445991893797391', status: 'NEW' } })).toBe(true);
    expect(j.requests.get('hy0k3x9zqgrid-1', 'place')).toMatchObject({ state: 'acknowledged', answeredAt: 105, answer: { orderId: '1375445991893797391', status: 'NEW' } });
    expect(j.requests.byRun('run1').map((r) => r.clientOrderId)).toEqual(['hy0k3x9zqgrid-1']);
  });

  it('the same request twice is journaled once: the second record says do not send', () => {
    expect(j.requests.record(req())).toBe(true);
    expect(j.requests.record(req({ sentAt: 999, request: { ...place, price: '1' } }))).toBe(false);
    expect(j.requests.byRun('run1')).toHaveLength(1);
    expect(j.requests.get('hy0k3x9zqgrid-1', 'place')).toMatchObject({ sentAt: 100, request: place });
    // A cancel of that order is another request; a second cancel while the first is in flight is not sent.
    expect(j.requests.record(commandRequest('run1', { kind: 'cancel', symbol: 'BTCPHP', clientOrderId: 'hy0k3x9zqgrid-1' }, 200))).toBe(true);
    expect(j.requests.record(commandRequest('run1', { kind: 'cancel', symbol: 'BTCPHP', clientOrderId: 'hy0k3x9zqgrid-1' }, 201))).toBe(false);
    // Another run finds it journaled too.
    j.liveRuns.begin({ id: 'run2', strategies: [{ name: 'grid' }], config: {}, startedAt: 300 });
    expect(j.requests.record(req({ runId: 'run2' }))).toBe(false);
    expect(j.db.prepare('SELECT count(*) FROM requests').pluck().get()).toBe(2);
  });

  it('a cancel may be sent again once the earlier one was answered: attempts 2, 3 (a place never)', () => {
    const cancel = (t: number) => commandRequest('run1', { kind: 'cancel', symbol: 'BTCPHP', clientOrderId: 'hy0k3x9zqgrid-1' }, t);
    expect(j.requests.record(req())).toBe(true);
    expect(j.requests.record(cancel(200))).toBe(true);
    // In flight: refused.
    expect(j.requests.record(cancel(201))).toBe(false);
    // Its outcome unknown (a timeout): another cancel may go.
    expect(j.requests.answer('hy0k3x9zqgrid-1', 'cancel', { state: 'unknown', time: 210, answer: { reason: 'timeout' } })).toBe(true);
    expect(j.requests.record(cancel(220))).toBe(true);
    expect(j.requests.get('hy0k3x9zqgrid-1', 'cancel')).toMatchObject({ attempt: 2, state: 'sent', sentAt: 220 });
    // The look-up of attempt 1 resolves attempt 1 only; attempt 2 is still waiting for its answer.
    expect(j.requests.resolve('hy0k3x9zqgrid-1', 'cancel', 225, { found: true, status: 'NEW' }, 1)).toBe(true);
    expect(j.requests.answer('hy0k3x9zqgrid-1', 'cancel', { state: 'rejected', time: 230, answer: { code: -2011 } })).toBe(true);
    // Answered (even refused): a third may go.
    expect(j.requests.record(cancel(240))).toBe(true);
    expect(j.requests.attempts('hy0k3x9zqgrid-1', 'cancel').map((r) => [r.attempt, r.state, r.sentAt])).toEqual([
      [1, 'resolved', 200],
      [2, 'rejected', 220],
      [3, 'sent', 240],
    ]);
    // Without an attempt, a resolution reaches every attempt still waiting (start-up reconciliation after a crash).
    expect(j.requests.resolve('hy0k3x9zqgrid-1', 'cancel', 250, { found: true, status: 'CANCELED' })).toBe(true);
    expect(j.requests.pending()).toEqual([expect.objectContaining({ kind: 'place' })]);
    // The place stays once; the schema refuses a second attempt of a place even written by hand.
    expect(j.requests.record(req({ sentAt: 300 }))).toBe(false);
    expect(() => j.db.prepare("INSERT INTO requests (run_id, client_order_id, kind, attempt, symbol, request, sent_at) VALUES ('run1', 'x-1', 'place', 2, 'BTCPHP', '{}', 1)").run()).toThrow(/CHECK/);
    // Every attempt is in the run log, in the order it was journaled.
    expect(j.db.prepare("SELECT count(*) FROM run_log WHERE kind = 'request'").pluck().get()).toBe(4);
  });

  it('a cancelReplace is keyed by its new order and names the order it cancels', () => {
    const cr: CancelReplaceCommand = { kind: 'cancelReplace', symbol: 'BTCPHP', cancelClientOrderId: 'hy0k3x9zqgrid-1', order: { ...place, clientOrderId: 'hy0k3x9zqgrid-2', price: '3150001' } };
    expect(j.requests.record(commandRequest('run1', cr, 300))).toBe(true);
    expect(j.requests.get('hy0k3x9zqgrid-2', 'cancelReplace')).toMatchObject({ cancelClientOrderId: 'hy0k3x9zqgrid-1', symbol: 'BTCPHP', request: cr });
    // Its new order's id cannot be placed again by a place, nor a placed id reused by a cancelReplace.
    expect(() => j.requests.record(commandRequest('run1', cr.order, 301))).toThrow(/place request hy0k3x9zqgrid-2: UNIQUE constraint failed: requests.client_order_id/);
    j.requests.record(req());
    expect(() => j.requests.record(commandRequest('run1', { ...cr, order: place }, 302))).toThrow(/cancelReplace request hy0k3x9zqgrid-1: UNIQUE/);
    expect(j.requests.record(commandRequest('run1', cr, 303))).toBe(false);
  });

  it('states move forward only: an answer once, a resolution once, only for sent or unknown', () => {
    j.requests.record(req());
    j.requests.record(req({ clientOrderId: 'b' }));
    j.requests.record(req({ clientOrderId: 'c' }));
    expect(j.requests.answer('hy0k3x9zqgrid-1', 'place', { state: 'unknown', time: 110, answer: { reason: 'timeout after 10000 ms' } })).toBe(true);
    expect(j.requests.answer('hy0k3x9zqgrid-1', 'place', { state: 'acknowledged', time: 111 })).toBe(false);
    expect(j.requests.resolve('hy0k3x9zqgrid-1', 'place', 120, { found: true, status: 'FILLED', orderId: '9007199254740993' })).toBe(true);
    expect(j.requests.resolve('hy0k3x9zqgrid-1', 'place', 121, { found: false })).toBe(false);
    expect(j.requests.get('hy0k3x9zqgrid-1', 'place')).toMatchObject({ state: 'resolved', answeredAt: 110, answer: { reason: 'timeout after 10000 ms' }, resolvedAt: 120, resolution: { orderId: '9007199254740993' } });
    expect(j.requests.answer('b', 'place', { state: 'rejected', time: 130, answer: { code: -1013, msg: 'Filter failure: LOT_SIZE' } })).toBe(true);
    expect(j.requests.resolve('b', 'place', 131, {})).toBe(false);
    // A request never answered (the process died with it in flight) is resolved straight from sent.
    expect(j.requests.resolve('c', 'place', 140, { found: false })).toBe(true);
    expect(j.requests.answer('nope', 'place', { state: 'acknowledged', time: 1 })).toBe(false);
    expect(() => j.requests.answer('c', 'place', { state: 'resolved' as never, time: 1 })).toThrow(/an answer is acknowledged, rejected or unknown/);
  });

  it('pending lists what was sent without a known outcome, oldest first, across runs', () => {
    j.requests.record(req({ clientOrderId: 'acked', sentAt: 10 }));
    j.requests.record(req({ clientOrderId: 'unknown', sentAt: 30 }));
    j.requests.record(req({ clientOrderId: 'in-flight', sentAt: 20 }));
    j.requests.record(req({ clientOrderId: 'resolved', sentAt: 5 }));
    j.requests.answer('acked', 'place', { state: 'acknowledged', time: 11 });
    j.requests.answer('unknown', 'place', { state: 'unknown', time: 31 });
    j.requests.answer('resolved', 'place', { state: 'unknown', time: 6 });
    j.requests.resolve('resolved', 'place', 7, { found: false });
    j.liveRuns.begin({ id: 'run2', strategies: [{ name: 'grid' }], config: {}, startedAt: 40 });
    j.requests.record(req({ runId: 'run2', clientOrderId: 'later', sentAt: 50 }));
    expect(pendingRequests(j).map((r) => [r.clientOrderId, r.state])).toEqual([
      ['in-flight', 'sent'],
      ['unknown', 'unknown'],
      ['later', 'sent'],
    ]);
    expect(pendingRequests(j, { runId: 'run1' }).map((r) => r.clientOrderId)).toEqual(['in-flight', 'unknown']);
  });

  it('refuses money as a number, an unknown kind, an empty client id, an unknown run', () => {
    expect(() => j.requests.record(req({ request: { ...place, price: 3150000.5 } }))).toThrow(/place request hy0k3x9zqgrid-1: price must be decimal text/);
    const cr = { kind: 'cancelReplace', symbol: 'BTCPHP', cancelClientOrderId: 'a', order: { ...place, quantity: 0.1 } };
    expect(() => j.requests.record(req({ kind: 'cancelReplace', request: cr }))).toThrow(/\(its order\): quantity must be decimal text/);
    expect(() => j.requests.record(req({ kind: 'amend' as never }))).toThrow(JournalError);
    expect(() => j.requests.record(req({ clientOrderId: '' }))).toThrow(/clientOrderId must be a non-empty string/);
    expect(() => j.requests.record(req({ runId: 'ghost' }))).toThrow(/FOREIGN KEY/);
    expect(j.db.prepare('SELECT count(*) FROM requests').pluck().get()).toBe(0);
  });
});

describe('a request journaled before it leaves survives the process being killed', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'halyard-requests-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('SIGKILL right after record(): the next run finds the run crashed and the request pending', async () => {
    const file = join(dir, 'live.db');
    const child = join(dir, 'child.mjs');
    const journalUrl = pathToFileURL(join(import.meta.dirname, 'journal.ts')).href;
    writeFileSync(
      child,
      `import { openJournal } from ${JSON.stringify(journalUrl)};
const j = openJournal(${JSON.stringify(file)});
j.liveRuns.begin({ id: 'killed', strategies: [{ name: 'grid' }], config: {}, startedAt: 1000 });
j.runs.addIntent({ runId: 'killed', time: 1001, strategy: 'grid', kind: 'place', payload: {}, clientOrderId: 'hy0000000-1' });
j.requests.record({ runId: 'killed', clientOrderId: 'hy0000000-1', kind: 'place', symbol: 'BTCPHP', request: { price: '1.5' }, sentAt: 1002 });
process.stdout.write('sent\\n');
setInterval(() => {}, 60000);
`,
    );
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const proc = spawn(process.execPath, ['--import', tsx, child], { env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      proc.stdout.on('data', (d: Buffer) => d.toString().includes('sent') && resolve());
      proc.on('exit', (code) => reject(new Error(`child exited ${String(code)} before sending: ${err}`)));
    });
    const exited = new Promise((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const next = openJournal(file);
    try {
      expect(next.liveRuns.begin({ id: 'next', strategies: [{ name: 'grid' }], config: {}, startedAt: 5000 }).crashed.map((r) => [r.id, r.exitReason, r.endedAt])).toEqual([['killed', 'crashed', 1002]]);
      expect(pendingRequests(next).map((r) => [r.runId, r.clientOrderId, r.state])).toEqual([['killed', 'hy0000000-1', 'sent']]);
    } finally {
      next.close();
    }
  });
});

describe('schema 6 (cancel attempts) on a schema-5 journal', () => {
  it('keeps every request with its id as attempt 1, its run-log rows and the once-only rule for new orders', () => {
    const dir = mkdtempSync(join(tmpdir(), 'halyard-requests-v5-'));
    try {
      const file = join(dir, 'j.db');
      const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 5) }).db;
      old.exec(`
        INSERT INTO runs (id, kind, strategy, params, config, started_at) VALUES ('r', 'sandbox', 'grid', '{}', '{}', 10);
        INSERT INTO requests (run_id, client_order_id, kind, symbol, request, sent_at) VALUES ('r', 'c1', 'place', 'BTCPHP', '{}', 20);
        INSERT INTO requests (run_id, client_order_id, kind, symbol, request, sent_at, state) VALUES ('r', 'c1', 'cancel', 'BTCPHP', '{}', 30, 'unknown');
      `);
      old.close();
      const up = openJournal(file);
      try {
        expect(up.schemaVersion).toBe(MIGRATIONS.length);
        expect(up.requests.byRun('r').map((x) => [x.id, x.kind, x.attempt, x.state])).toEqual([
          [1, 'place', 1, 'sent'],
          [2, 'cancel', 1, 'unknown'],
        ]);
        expect(up.db.prepare("SELECT ref FROM run_log WHERE kind = 'request' ORDER BY seq").pluck().all()).toEqual(['1', '2']);
        // The cancel may go again; the place may not; the triggers still log.
        expect(up.requests.record({ runId: 'r', clientOrderId: 'c1', kind: 'cancel', symbol: 'BTCPHP', request: {}, sentAt: 40 })).toBe(true);
        expect(up.requests.record({ runId: 'r', clientOrderId: 'c1', kind: 'place', symbol: 'BTCPHP', request: {}, sentAt: 40 })).toBe(false);
        expect(() => up.requests.record({ runId: 'r', clientOrderId: 'c1', kind: 'cancelReplace', symbol: 'BTCPHP', request: {}, sentAt: 40 })).toThrow(JournalError);
        expect(up.db.prepare("SELECT count(*) FROM run_log WHERE kind = 'request'").pluck().get()).toBe(3);
      } finally {
        up.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
