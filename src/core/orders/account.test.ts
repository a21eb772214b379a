import { describe, expect, it } from 'vitest';
import { D } from '../money/decimal.ts';
import { AccountState } from './account.ts';

describe('AccountState balances', () => {
  it('keeps venue balance texts and reads them as Decimals and numbers', () => {
    const a = new AccountState({ PHP: '100' });
    const v = a.version;
    a.setBalanceText('PHP', '99000.00018928', '0');
    a.setBalanceText('BTC', '0.5', '0.25');
    expect(a.version).toBe(v + 2);
    expect(a.freeOf('PHP').toFixed()).toBe('99000.00018928');
    expect(a.totalOf('BTC').toFixed()).toBe('0.75');
    expect(a.totalNumberOf('PHP')).toBe(Number('99000.00018928'));
    expect(a.totalNumberOf('BTC')).toBe(0.75);
    expect(a.totalNumberOf('ETH')).toBe(0);
    expect(a.balances().map((b) => [b.asset, String(b.free), String(b.locked)])).toEqual([
      ['PHP', '99000.00018928', '0'],
      ['BTC', '0.5', '0.25'],
    ]);
    a.setBalance('PHP', new D('1.5'), new D('0'));
    expect(a.totalNumberOf('PHP')).toBe(1.5);
    expect(a.balanceTexts()).toEqual({ BTC: '0.75', PHP: '1.5' });
  });
});
