/**
 * The order manager's side of per-strategy capital (capital.ts holds the ledgers): what a
 * strategy may still commit of an asset, for the pre-trade check, and the balances its context
 * reads.
 *
 * - A strategy with a ledger: its ledger less what its open orders still hold (reserve.ts
 *   `remainingReserve`: pending or acknowledged, after their fills; an order being replaced is
 *   left out, as its funds pass to the replacement).
 * - A strategy without one: the account's available funds less what every ledger still has free
 *   (a ledger below zero claims nothing), so it cannot reach into another strategy's capital.
 *
 * Open orders are walked per check: capital is for a live bot's handful of strategies and orders;
 * a run without capital never comes here.
 */
import type { Instrument } from '../../market/instrument.ts';
import type { Dec } from '../../money/decimal.ts';
import { D } from '../../money/decimal.ts';
import type { CapitalLedgers } from './capital.ts';
import type { ManagedOrder } from '../managed-order.ts';
import type { OrderRegistry } from '../order-registry.ts';
import type { CapitalLimit } from '../pre-trade/pre-trade.ts';
import { remainingReserve } from '../pre-trade/reserve.ts';
import type { BalanceOut } from '../types.ts';

const ZERO = new D(0);

export interface CapitalHost {
  readonly orders: OrderRegistry;
  instrument(symbol: string): Instrument | undefined;
  lastPrice(symbol: string): Dec | undefined;
}

export class CapitalGuard {
  constructor(
    readonly ledgers: CapitalLedgers,
    private readonly host: CapitalHost,
  ) {}

  /** What `strategy`'s open orders (but `except`) still hold of `asset`. */
  held(strategy: string, asset: string, except?: ManagedOrder): Dec {
    let sum = ZERO;
    for (const o of this.host.orders.openOrders(strategy)) {
      if (o === except) continue;
      const inst = this.host.instrument(o.symbol);
      if (inst === undefined || (inst.baseAsset !== asset && inst.quoteAsset !== asset)) continue;
      const r = remainingReserve(inst, o.fields, o.executedQty, o.cumQuote, this.host.lastPrice(o.symbol));
      if (r.asset === asset) sum = sum.plus(r.amount);
    }
    return sum;
  }

  /** What `strategy` may still commit of `asset`; `accountAvailable` is the account's (free less pending reserves). */
  limit(strategy: string, asset: string, accountAvailable: Dec, except?: ManagedOrder): CapitalLimit {
    const l = this.ledgers;
    if (l.has(strategy)) return { strategy, own: true, available: l.totalOf(strategy, asset).minus(this.held(strategy, asset, except)) };
    let rest = accountAvailable;
    for (const s of l.strategies()) {
      const free = l.totalOf(s, asset).minus(this.held(s, asset));
      if (free.gt(0)) rest = rest.minus(free);
    }
    return { strategy, own: false, available: rest };
  }

  /** The balances a strategy with a ledger sees: per asset of its ledger, free (not held by its open orders) and locked (held). */
  balances(strategy: string): readonly BalanceOut[] {
    return Object.freeze(
      this.ledgers.assetsOf(strategy).map((asset) => {
        const locked = this.held(strategy, asset);
        return Object.freeze({ asset, free: this.ledgers.totalOf(strategy, asset).minus(locked), locked });
      }),
    );
  }
}
