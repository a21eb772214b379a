import { describe, expect, it } from 'vitest';
import { Balances, InsufficientBalanceError } from './balances.ts';

describe('Balances', () => {
  it('credits, debits, locks and unlocks exactly', () => {
    const b = new Balances();
    b.credit('a', 'BTC', '1.1');
    b.credit('a', 'BTC', '0.2');
    expect(b.get('a', 'BTC')).toEqual({ free: '1.3', locked: '0' });
    b.lock('a', 'BTC', '0.3');
    expect(b.get('a', 'BTC')).toEqual({ free: '1', locked: '0.3' });
    b.unlock('a', 'BTC', '0.1');
    b.debit('a', 'BTC', '1.1');
    expect(b.get('a', 'BTC')).toEqual({ free: '0', locked: '0.2' });
  });

  it('reports unknown balances as zero without creating them', () => {
    const b = new Balances();
    expect(b.get('x', 'ETH')).toEqual({ free: '0', locked: '0' });
    expect(b.all('x')).toEqual([]);
    expect(b.accounts()).toEqual([]);
  });

  it('lists every touched asset in first-touch order, zeros included', () => {
    const b = new Balances();
    b.credit('a', 'PHP', '5');
    b.credit('a', 'BTC', '0');
    expect(b.all('a')).toEqual([
      { asset: 'PHP', free: '5', locked: '0' },
      { asset: 'BTC', free: '0', locked: '0' },
    ]);
  });

  it('throws InsufficientBalanceError and changes nothing when funds are short', () => {
    const b = new Balances();
    b.credit('a', 'PHP', '10');
    expect(() => b.debit('a', 'PHP', '10.01')).toThrow(InsufficientBalanceError);
    expect(() => b.lock('a', 'PHP', '11')).toThrow(InsufficientBalanceError);
    expect(() => b.unlock('a', 'PHP', '1')).toThrow(/locked PHP 0 is less than 1/);
    expect(b.get('a', 'PHP')).toEqual({ free: '10', locked: '0' });
    try {
      b.debit('a', 'PHP', '20');
    } catch (e) {
      expect(e).toMatchObject({ accountId: 'a', asset: 'PHP', side: 'free', needed: '20', available: '10' });
    }
  });

  it('rejects negative amounts', () => {
    const b = new Balances();
    expect(() => b.credit('a', 'PHP', '-1')).toThrow(RangeError);
    expect(() => b.creditUnits('a', 'PHP', -1n)).toThrow(RangeError);
  });

  it('totals an asset over all accounts and moves funds between them', () => {
    const b = new Balances();
    b.credit('a', 'PHP', '7');
    b.credit('b', 'PHP', '3.5');
    b.lock('b', 'PHP', '1');
    b.transferUnits('a', 'c', 'PHP', 2n * 10n ** 18n);
    expect(b.total('PHP')).toBe('10.5');
    expect(b.get('c', 'PHP').free).toBe('2');
  });
});
