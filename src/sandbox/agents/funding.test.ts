import { describe, expect, it } from 'vitest';
import { FakeBalances } from '../accounts/fake-balances.ts';
import { Funding } from './funding.ts';

describe('Funding', () => {
  it('tops up only when the free balance falls short, with headroom', () => {
    const balances = new FakeBalances();
    const f = new Funding(balances);
    f.ensure('a', 'USDT', '10');
    expect(balances.get('a', 'USDT').free).toBe('500');
    f.ensure('a', 'USDT', '400');
    expect(balances.get('a', 'USDT').free).toBe('500');
    f.ensure('a', 'USDT', '600');
    expect(balances.get('a', 'USDT').free).toBe('30000');
    f.ensure('a', 'USDT', '0');
    expect(f.credited.get('USDT')?.toFixed()).toBe('30000');
  });
});
