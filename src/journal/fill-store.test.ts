import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase } from './db.ts';
import { JournalError } from './errors.ts';
import type { NewFill } from './fill-store.ts';
import { openJournal, type Journal } from './journal.ts';
import { MIGRATIONS } from './migrations/index.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

function fill(tradeId: string, over: Partial<NewFill> = {}): NewFill {
  return {
    symbol: 'BTCPHP',
    tradeId,
    side: 'BUY',
    price: '3150000.50',
    qty: '0.0123',
    quoteQty: '38751.00615',
    commission: '0.0000123',
    commissionAsset: 'BTC',
    isMaker: false,
    time: 1_000,
    ...over,
  };
}

describe('FillStore', () => {
  it('inserting the same fill twice is a no-op', () => {
    expect(j.fills.insert(fill('1375445991893797391'))).toBe(true);
    expect(j.fills.insert(fill('1375445991893797391', { qty: '9' }))).toBe(false);
    expect(j.fills.count()).toBe(1);
    expect(j.fills.list()[0]!.qty).toBe('0.0123');
  });

  it('the same trade id on another symbol is another fill', () => {
    j.fills.insert(fill('7'));
    expect(j.fills.insert(fill('7', { symbol: 'ETHPHP' }))).toBe(true);
    expect(j.fills.count()).toBe(2);
  });

  it('a self-trade keeps both sides: one trade id, a BUY and a SELL', () => {
    expect(j.fills.insert(fill('9007199254740993', { side: 'BUY', isMaker: true, clientOrderId: 'b' }))).toBe(true);
    expect(j.fills.insert(fill('9007199254740993', { side: 'SELL', isMaker: false, clientOrderId: 's' }))).toBe(true);
    expect(j.fills.insert(fill('9007199254740993', { side: 'SELL', isMaker: false, clientOrderId: 's' }))).toBe(false);
    expect(j.fills.insertMany([fill('9007199254740993', { side: 'BUY' }), fill('9007199254740993', { side: 'SELL' })])).toBe(0);
    expect(j.fills.list().map((f) => [f.side, f.clientOrderId])).toEqual([
      ['BUY', 'b'],
      ['SELL', 's'],
    ]);
  });

  it('one fill per (orderId, tradeId), whichever path brings it first: the same key as (symbol, tradeId, side)', () => {
    j.runs.start({ id: 'live', kind: 'live', strategy: 'grid', startedAt: 0 });
    const viaStream = fill('9007199254740993', { runId: 'live', exchangeOrderId: '1375445991893797391', clientOrderId: 'hy-1', raw: { e: 'executionReport' } });
    const viaRest = { ...viaStream, raw: { source: 'myTrades' } };
    expect(j.fills.insert(viaStream)).toBe(true);
    expect(j.fills.insert(viaRest)).toBe(false);
    expect(j.fills.insertMany([viaRest, viaStream])).toBe(0);
    expect(j.fills.list({ runId: 'live' }).map((f) => f.raw)).toEqual([{ e: 'executionReport' }]);
    // The run's timeline holds it once.
    expect(j.runLog.rows('live').filter((r) => r.kind === 'fill')).toHaveLength(1);
    // The same order and trade reported with the other side contradicts the venue: refused, not a second fill.
    expect(() => j.fills.insert({ ...viaStream, side: 'SELL' })).toThrow(/fill BTCPHP trade 9007199254740993: UNIQUE constraint failed: fills.symbol, fills.exchange_order_id, fills.trade_id/);
    // The other side of the trade is the other order's fill.
    expect(j.fills.insert({ ...viaStream, side: 'SELL', exchangeOrderId: '1375445991893797392', clientOrderId: null })).toBe(true);
    expect(j.fills.insert({ ...viaStream, tradeId: '9007199254740994' })).toBe(true);
    expect(j.fills.count()).toBe(3);
  });

  it('a schema-2 journal keeps its fills when the key gains the side (schema 3)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'halyard-fills-'));
    try {
      const file = join(dir, 'old.db');
      const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 2) }).db;
      old.prepare(
        `INSERT INTO fills (symbol, trade_id, side, price, qty, quote_qty, commission, commission_asset, is_maker, time, raw)
         VALUES ('BTCPHP', '1375445991893797391', 'BUY', '1.5', '2', '3', '0', 'BTC', 1, 7, '{"a":1}')`,
      ).run();
      old.close();
      const up = openJournal(file);
      expect(up.fills.list()).toEqual([
        { ...fill('1375445991893797391', { price: '1.5', qty: '2', quoteQty: '3', commission: '0', isMaker: true, time: 7 }), runId: null, clientOrderId: null, exchangeOrderId: null, raw: { a: 1 } },
      ]);
      expect(up.fills.insert(fill('1375445991893797391', { side: 'SELL' }))).toBe(true);
      expect((up.db.pragma('index_list(fills)') as { name: string }[]).map((i) => i.name).sort()).toEqual(['fills_order', 'fills_order_trade', 'fills_run', 'fills_time', 'sqlite_autoindex_fills_1']);
      up.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('insertMany counts only new fills, in one transaction', () => {
    expect(j.fills.insertMany([fill('1'), fill('2'), fill('3')])).toBe(3);
    expect(j.fills.insertMany([fill('2'), fill('3'), fill('4')])).toBe(1);
    expect(() => j.fills.insertMany([fill('5'), fill('6', { price: '1e3' })])).toThrow(/fill BTCPHP trade 6/);
    expect(j.fills.count()).toBe(4);
  });

  it('round-trips every field, ids above 2^53 exact, raw JSON kept', () => {
    const f = fill('1375445991893797391', { runId: null, clientOrderId: 'c1', exchangeOrderId: '1375445991893797000', isMaker: true, raw: { id: '1375445991893797391', n: 1 } });
    j.fills.insert(f);
    expect(j.fills.list()[0]).toEqual({ ...f, runId: null });
  });

  it('lastTradeId orders ids numerically, not as text', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.bigInt({ min: 0n, max: 2n ** 64n }), { minLength: 1, maxLength: 30 }), (ids) => {
        const db = openJournal(':memory:');
        db.fills.insertMany(ids.map((id) => fill(id.toString())));
        const max = ids.reduce((a, b) => (b > a ? b : a));
        expect(db.fills.lastTradeId('BTCPHP')).toBe(max.toString());
        db.close();
      }),
      { numRuns: 30 },
    );
    expect(j.fills.lastTradeId('NONE')).toBeUndefined();
  });

  it('list filters by symbol, run, order and time [from, to)', () => {
    j.runs.start({ id: 'r', kind: 'sandbox', strategy: 's', startedAt: 0 });
    j.fills.insertMany([
      fill('1', { time: 10, runId: 'r', clientOrderId: 'a' }),
      fill('2', { time: 20, runId: 'r', clientOrderId: 'b' }),
      fill('3', { time: 30, symbol: 'ETHPHP' }),
    ]);
    expect(j.fills.list({ runId: 'r' }).map((f) => f.tradeId)).toEqual(['1', '2']);
    expect(j.fills.list({ clientOrderId: 'b' }).map((f) => f.tradeId)).toEqual(['2']);
    expect(j.fills.list({ symbol: 'ETHPHP' }).map((f) => f.tradeId)).toEqual(['3']);
    expect(j.fills.list({ from: 20, to: 30 }).map((f) => f.tradeId)).toEqual(['2']);
  });

  it('refuses a non-numeric trade id and an unknown run', () => {
    expect(() => j.fills.insert(fill('abc'))).toThrow(JournalError);
    expect(() => j.fills.insert(fill('1', { runId: 'missing' }))).toThrow(/FOREIGN KEY/);
  });
});
