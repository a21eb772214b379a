import { describe, expect, it } from 'vitest';
import { Balances } from '../../core/portfolio/balances.ts';
import type { BalancePort } from './balance-port.ts';
import { FakeBalances } from './fake-balances.ts';

describe('BalancePort', () => {
  // The engine's Balances plugs in as it is; the fake behaves the same way.
  for (const [name, make] of [
    ['engine Balances', () => new Balances()],
    ['FakeBalances', () => new FakeBalances()],
  ] as const) {
    it(`${name}: credit, debit, refuse an overdraft, list`, () => {
      const port: BalancePort = make();
      port.credit('u', 'PHP', '100.5');
      port.debit('u', 'PHP', '0.5');
      expect(() => port.debit('u', 'PHP', '101')).toThrow();
      expect(port.get('u', 'PHP')).toEqual({ free: '100', locked: '0' });
      expect(port.get('u', 'BTC')).toEqual({ free: '0', locked: '0' });
      expect(port.all('u')).toEqual([{ asset: 'PHP', free: '100', locked: '0' }]);
    });
  }
});
