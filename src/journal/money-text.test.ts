import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from './journal.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

/** What an untyped (JavaScript) caller can pass: a float where the journal takes decimal text. */
const float = (0.1 + 0.2) as unknown as string;
const invalid = (what: RegExp) => expect.objectContaining({ name: 'JournalError', code: 'INVALID_RECORD', message: expect.stringMatching(what) as string });

describe('money columns take decimal text only', () => {
  it('a fill, an order, a balance, a kline and a treasury amount given a JS number are refused naming the field; nothing is stored', () => {
    const fill = { symbol: 'BTCPHP', tradeId: '1', side: 'BUY' as const, price: '100', qty: float, quoteQty: '30', commission: '0', commissionAsset: 'PHP', isMaker: false, time: 1 };
    expect(() => j.fills.insert(fill)).toThrow(invalid(/fill BTCPHP trade 1: qty must be decimal text \(a string\), got the number 0\.30000000000000004/));
    expect(() => j.fills.insertMany([{ ...fill, qty: '0.3' }, { ...fill, tradeId: '2' }])).toThrow(invalid(/fill BTCPHP trade 2: qty/));
    expect(j.fills.count()).toBe(0);

    expect(() => j.orders.insert({ clientOrderId: 'c1', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', qty: '1', price: float, status: 'NEW', createdAt: 1 })).toThrow(invalid(/order c1: price must be decimal text/));
    j.orders.insert({ clientOrderId: 'c2', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', qty: '1', price: '100', status: 'NEW', createdAt: 1 });
    expect(() => j.orders.update('c2', { status: 'PARTIALLY_FILLED', updatedAt: 2, executedQty: float })).toThrow(invalid(/order c2 -> PARTIALLY_FILLED: executedQty/));
    expect(j.orders.get('c2')?.executedQty).toBe('0');

    expect(() => j.balances.record({ takenAt: 1, source: 'rest', balances: [{ asset: 'PHP', free: '1', locked: float }] })).toThrow(invalid(/balance snapshot at 1, PHP: locked/));
    expect(() => j.klines.insertKlines([{ symbol: 'BTCPHP', interval: '1m', openTime: 0, closeTime: 59_999, open: '1', high: '1', low: '1', close: float, volume: '1', source: 't' }])).toThrow(invalid(/kline 0 of the batch \(BTCPHP 1m open time 0\): close/));
    expect(() => j.treasury.record({ id: 't1', time: 1, kind: 'convert', amount: float, status: 'planned', payload: {} })).toThrow(invalid(/treasury action t1: amount/));
  });
});
