import { describe, expect, it } from 'vitest';
import { AccountLimits } from './limits.ts';

const T = Date.parse('2024-03-31T15:00:00Z');
const HOUR = 3_600_000;

describe('AccountLimits', () => {
  it('charges every period and frees the day at midnight of the configured timezone', () => {
    const limits = new AccountLimits('Asia/Manila'); // UTC+8: T is 23:00 local on 31 March
    limits.charge('a', { book: 'account', kind: 'totalWithdraw', amount: '1000', time: T });
    expect(limits.remaining('a', 'account', 'daily', 'totalWithdraw', T).toFixed()).toBe('499000');
    const nextDay = T + 2 * HOUR; // 1 April local: new day, new month, same year
    expect(limits.remaining('a', 'account', 'daily', 'totalWithdraw', nextDay).toFixed()).toBe('500000');
    expect(limits.remaining('a', 'account', 'monthly', 'totalWithdraw', nextDay).toFixed()).toBe('10000000');
    expect(limits.remaining('a', 'account', 'annually', 'totalWithdraw', nextDay).toFixed()).toBe('119999000');
    expect(limits.remaining('a', 'account', 'daily', 'cashOut', T).toFixed()).toBe('500000');
    expect(limits.remaining('b', 'account', 'daily', 'totalWithdraw', T).toFixed()).toBe('500000');
  });

  it('refunds with a negative charge at the original time, and reports the first exceeded period', () => {
    const limits = new AccountLimits();
    limits.setLimit({ book: 'p2p', period: 'monthly', limit: '300' });
    limits.setLimit({ accountId: 'a', book: 'p2p', period: 'daily', kind: 'cashOut', limit: '50' });
    expect(limits.check('a', { book: 'p2p', kind: 'cashOut', amount: '60', now: T })).toEqual({ period: 'daily', limit: '50', remaining: '50' });
    expect(limits.check('b', { book: 'p2p', kind: 'cashOut', amount: '301', now: T })).toEqual({ period: 'monthly', limit: '300', remaining: '300' });
    limits.charge('a', { book: 'p2p', kind: 'cashOut', amount: '40', time: T });
    expect(limits.check('a', { book: 'p2p', kind: 'cashOut', amount: '20', now: T })?.remaining).toBe('10');
    limits.charge('a', { book: 'p2p', kind: 'cashOut', amount: '-40', time: T });
    expect(limits.check('a', { book: 'p2p', kind: 'cashOut', amount: '20', now: T })).toBeUndefined();
    expect(limits.view('a', 'p2p', T).daily).toMatchObject({ cashOutLimit: '50', cashOutRemaining: '50', cashInLimit: '100000' });
  });
});
