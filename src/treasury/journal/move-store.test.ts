import { afterEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from '../../journal/index.ts';
import { JournalError } from '../../journal/errors.ts';
import type { Move } from '../moves.ts';
import { openMoveStore } from './move-store.ts';

let journal: Journal | undefined;
afterEach(() => journal?.close());

const store = () => {
  journal = openJournal(':memory:');
  return openMoveStore(journal);
};

const transfer: Move = { kind: 'transfer', clientId: 'trabc0000001', reason: 'desk-a below its PHP band', from: 'master', to: 'desk-a@example.com', asset: 'PHP', amount: '25000.5' };
const convert: Move = { kind: 'convert', clientId: 'trabc0000002', reason: 'BTC above 35%', account: 'master', from: 'BTC', to: 'PHP', sourceAmount: '0.01' };

describe('treasury move store (schema 7)', () => {
  it('records a move as planned before sending, then sent with an attempt, then its final state', () => {
    const s = store();
    const { row, created } = s.record(transfer, { planId: 'p1', seq: 0, now: 1000 });
    expect(created).toBe(true);
    expect(row).toMatchObject({ clientId: 'trabc0000001', state: 'planned', kind: 'transfer', fromAccount: 'master', toAccount: 'desk-a@example.com', asset: 'PHP', amount: '25000.5', attempts: 0, sentAt: null });
    expect(s.markSent('trabc0000001', 1001)).toMatchObject({ state: 'sent', attempts: 1, sentAt: 1001 });
    const unknown = s.update('trabc0000001', 1002, { state: 'unknown', error: 'HTTP 500' });
    expect(unknown).toMatchObject({ state: 'unknown', error: 'HTTP 500', finishedAt: null });
    const done = s.update('trabc0000001', 1003, {
      state: 'succeeded',
      venueId: 'trabc0000001',
      resolution: { by: 'subAccount.universalTransferHistory', key: 'trabc0000001', found: true, at: 1003, record: { status: 'success' } },
      error: null,
    });
    expect(done).toMatchObject({ state: 'succeeded', venueId: 'trabc0000001', finishedAt: 1003, error: null, resolution: { found: true, by: 'subAccount.universalTransferHistory' } });
    expect(done.move).toEqual(transfer);
  });

  it('recording the same client id again changes nothing and returns the row there; another plan may not reuse it', () => {
    const s = store();
    s.record(transfer, { planId: 'p1', seq: 0, now: 1000 });
    s.markSent(transfer.clientId, 1001);
    const again = s.record(transfer, { planId: 'p1', seq: 0, now: 2000 });
    expect(again.created).toBe(false);
    expect(again.row).toMatchObject({ state: 'sent', attempts: 1, createdAt: 1000 });
    expect(() => s.record(transfer, { planId: 'p2', seq: 0, now: 2000 })).toThrow(/journaled already for plan p1 move 0/);
  });

  it('keeps convert source and target, merges detail, lists in plan order', () => {
    const s = store();
    s.record(convert, { planId: 'p1', seq: 1, now: 1000 });
    s.record(transfer, { planId: 'p1', seq: 0, now: 1000 });
    s.update(convert.clientId, 1001, { state: 'planned', detail: { quotes: ['q1'] } });
    s.markSent(convert.clientId, 1002, { quoteId: 'q1' });
    const row = s.update(convert.clientId, 1003, { state: 'succeeded', venueId: 'o1', received: '299.4' });
    expect(row).toMatchObject({ asset: 'BTC', toAsset: 'PHP', amount: '0.01', received: '299.4', detail: { quotes: ['q1'], quoteId: 'q1' } });
    expect(s.list().map((r) => r.seq)).toEqual([0, 1]);
    expect(s.list({ planId: 'p1' }).map((r) => r.clientId)).toEqual([transfer.clientId, convert.clientId]);
  });

  it('refuses an amount that is not decimal text, naming the field', () => {
    const s = store();
    const bad = { ...transfer, amount: 0.1 as unknown as string };
    expect(() => s.record(bad, { planId: 'p1', seq: 0, now: 1 })).toThrow(JournalError);
    expect(() => s.record(bad, { planId: 'p1', seq: 0, now: 1 })).toThrow(/amount must be decimal text/);
    expect(() => s.record({ ...transfer, amount: '-5' }, { planId: 'p1', seq: 0, now: 1 })).toThrow(/CHECK constraint/);
  });

  it('sums what moves sent since a time moved or may have moved, per source asset, exactly', () => {
    const s = store();
    const t = (id: string, amount: string): Move => ({ ...transfer, clientId: id, amount });
    s.record(t('a', '0.1'), { planId: 'p', seq: 0, now: 10 });
    s.record(t('b', '0.2'), { planId: 'p', seq: 1, now: 10 });
    s.record(t('c', '5'), { planId: 'p', seq: 2, now: 10 });
    s.record(t('d', '7'), { planId: 'p', seq: 3, now: 10 });
    s.record(convert, { planId: 'p', seq: 4, now: 10 });
    s.markSent('a', 100);
    s.update('a', 101, { state: 'succeeded' });
    s.markSent('b', 100);
    s.update('b', 101, { state: 'unknown' });
    s.markSent('c', 100);
    s.update('c', 101, { state: 'failed' });
    s.markSent('d', 50);
    s.markSent(convert.clientId, 100);
    expect(s.movedSince(100)).toEqual({ PHP: '0.3', BTC: '0.01' });
  });
});
