/**
 * The agents' money. Agent accounts stand for the rest of the market, so they never run dry: before
 * an order, the account is topped up (BalancePort.credit) to a multiple of what the order needs
 * when its free balance falls short. The money is created, like a configured starting balance; the
 * total credited is counted for the status route. Amounts are decimals (never floats).
 */
import { D, dec, type Dec, type DecimalLike } from '../../core/money/decimal.ts';
import type { BalancePort } from '../accounts/balance-port.ts';

/** A top-up covers this many orders like the one that needed it. */
const HEADROOM = 50;

export class Funding {
  /** Asset -> total credited. */
  readonly credited = new Map<string, Dec>();

  constructor(private readonly balances: BalancePort) {}

  /** Make sure `accountId` has at least `amount` free `asset`. */
  ensure(accountId: string, asset: string, amount: DecimalLike): void {
    const need = dec(amount, 'amount');
    if (!need.gt(0)) return;
    const free = dec(this.balances.get(accountId, asset).free, 'free');
    if (free.gte(need)) return;
    const top = need.times(HEADROOM).minus(free);
    // Credit whole units of 1e-8 and up: far finer than any asset's precision matters here.
    const amountText = top.toDecimalPlaces(8, D.ROUND_UP).toFixed();
    this.balances.credit(accountId, asset, amountText);
    this.credited.set(asset, (this.credited.get(asset) ?? new D(0)).plus(amountText));
  }
}
