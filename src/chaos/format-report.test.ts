import { describe, expect, it } from 'vitest';
import { checkRun } from './check-run.ts';
import { formatReport } from './format-report.ts';
import type { ChaosRunInput } from './input.ts';

function input(): ChaosRunInput {
  return {
    seed: '42',
    start: 0,
    end: 1_000,
    venue: {
      orders: [{ symbol: 'BTCPHP', orderId: '1', clientOrderId: 'hyaaaaaaa-1', status: 'FILLED', time: 100, updateTime: 200 }],
      trades: [{ symbol: 'BTCPHP', id: '10', orderId: '1', price: '1', qty: '1', isBuyer: true, time: 200 }],
      balances: [{ asset: 'BTC', free: '1', locked: '0' }],
    },
    journal: {
      requests: [{ clientOrderId: 'hyaaaaaaa-1', kind: 'place', attempt: 1, state: 'acknowledged' }],
      orders: [{ clientOrderId: 'hyaaaaaaa-1', exchangeOrderId: '1', status: 'FILLED' }],
      fills: [{ symbol: 'BTCPHP', tradeId: '10', clientOrderId: 'hyaaaaaaa-1', exchangeOrderId: '1', side: 'BUY' }],
      balances: [{ asset: 'BTC', free: '1', locked: '0' }],
      streamHealth: [{ time: 0, stream: 'user', to: 'LIVE' }],
    },
    strategies: [{ strategy: 's', fills: [{ orderId: '1', tradeId: '10' }] }],
    faults: [],
    outcomes: [],
    crashes: [],
  };
}

describe('formatReport', () => {
  it('prints one row per check and OK with the seed for a clean run', () => {
    const text = formatReport(checkRun(input()));
    expect(text).toMatch(/^duplicate orders +0 {2}OK$/m);
    expect(text).toMatch(/^lost fills \(journal\) +0 {2}OK$/m);
    expect(text).toMatch(/^balances journal = venue +equal {2}OK$/m);
    expect(text).not.toContain('FAIL');
    expect(text.trimEnd().endsWith('OK (seed 42)')).toBe(true);
  });

  it('marks what failed, lists the details and says how to replay', () => {
    const bad = input();
    bad.journal.fills = [];
    bad.journal.balances = [{ asset: 'BTC', free: '0.99999999', locked: '0' }];
    bad.outcomes = [{ time: 500, status: 418 }];
    const text = formatReport(checkRun(bad));
    expect(text).toMatch(/^lost fills \(journal\) +1 {2}FAIL$/m);
    expect(text).toMatch(/^bans earned \(418\) +1 \(injected 0\) {2}FAIL$/m);
    expect(text).toContain('lost from journal: order 1 trade 10');
    expect(text).toContain('balance BTC free: journal 0.99999999, venue 1 (diff -0.00000001)');
    expect(text).toContain('replay with --seed 42');
  });
});
