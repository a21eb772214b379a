/**
 * A model of the accounts the moves act on: what the balances become once a plan's moves are
 * applied (conversions at the valuation prices less a spread, transfers, fund collection, money
 * leaving). The planner's tests apply plans here and check every band; `treasury plan` prints the
 * balances it expects after. Pure; refuses a move the account cannot pay (a planner bug).
 */
import { D, type Dec } from '../../core/money/decimal.ts';
import { MASTER, type Move } from '../moves.ts';
import type { Balances } from './types.ts';

export function applyMoves(balances: Balances, moves: readonly Move[], prices: Record<string, string>, spreadBps = 0): Balances {
  const out: Balances = {};
  for (const [a, hs] of Object.entries(balances)) out[a] = Object.fromEntries(Object.entries(hs).map(([k, h]) => [k, { ...h }]));
  const take = (account: string, asset: string, amount: Dec, what: string) => {
    const h = (out[account] ??= {})[asset] ?? { free: '0', locked: '0' };
    const free = new D(h.free).minus(amount);
    if (free.lt(0)) throw new Error(`model: ${what} takes ${amount.toFixed()} ${asset} from ${account}, which has ${h.free} free`);
    (out[account] as Record<string, { free: string; locked: string }>)[asset] = { free: free.toFixed(), locked: h.locked };
  };
  const give = (account: string, asset: string, amount: Dec) => {
    const h = (out[account] ??= {})[asset] ?? { free: '0', locked: '0' };
    (out[account] as Record<string, { free: string; locked: string }>)[asset] = { free: new D(h.free).plus(amount).toFixed(), locked: h.locked };
  };
  for (const m of moves) {
    switch (m.kind) {
      case 'convert': {
        const amount = new D(m.sourceAmount);
        take(m.account, m.from, amount, m.clientId);
        const ps = prices[m.from];
        const pt = prices[m.to];
        if (ps === undefined || pt === undefined) throw new Error(`model: no price for ${m.from} or ${m.to}`);
        give(m.account, m.to, amount.times(ps).div(pt).times(new D(1).minus(new D(spreadBps).div(10_000))));
        break;
      }
      case 'transfer':
        take(m.from, m.asset, new D(m.amount), m.clientId);
        give(m.to, m.asset, new D(m.amount));
        break;
      case 'collect':
        for (const [account, hs] of Object.entries(out)) {
          if (account === MASTER) continue;
          for (const [asset, h] of Object.entries(hs)) {
            const free = new D(h.free);
            if (free.gt(0)) {
              take(account, asset, free, m.clientId);
              give(MASTER, asset, free);
            }
          }
        }
        break;
      case 'withdraw':
        take(MASTER, m.coin, new D(m.amount), m.clientId);
        break;
      case 'cash-out':
        take(MASTER, m.currency, new D(m.amount), m.clientId);
        break;
    }
  }
  return out;
}
