/**
 * What a test reads of the account in a StrategyHarness: the order manager's view (the one the
 * strategy's context reads) with money as decimal strings, easy to compare with toEqual; plus
 * the clock, and `setPosition` to start a test holding something (balances come from options).
 */
import type { Instrument } from '../../core/market/instrument.ts';
import { dec, toWire } from '../../core/money/decimal.ts';
import type { OrderManager } from '../../core/orders/index.ts';
import type { Amount, BalanceInput, OpenOrderInput, PositionInput } from '../types.ts';

const text = (a: Amount): string => (typeof a === 'string' ? a : toWire(a));

export class HarnessView {
  constructor(
    private readonly clock: { t: number },
    private readonly orders: OrderManager,
    private readonly strategy: string,
  ) {}

  /** The harness clock (ms). */
  get time(): number {
    return this.clock.t;
  }

  set time(t: number) {
    this.clock.t = t;
  }

  now(): number {
    return this.clock.t;
  }

  instrument(symbol: string): Instrument | undefined {
    return this.orders.instrument(symbol);
  }

  balances(): BalanceInput[] {
    return this.orders.account.balances().map((b) => ({ asset: b.asset, free: text(b.free), locked: text(b.locked) }));
  }

  position(symbol: string): PositionInput | undefined {
    const p = this.orders.account.positionOf(this.strategy, symbol);
    if (!p) return undefined;
    return p.avgEntryPrice === undefined ? { symbol, base: text(p.base) } : { symbol, base: text(p.base), avgEntryPrice: text(p.avgEntryPrice) };
  }

  openOrders(symbol?: string): readonly OpenOrderInput[] {
    return this.orders.view(this.strategy).openOrders(symbol);
  }

  /** Start the test holding `base` of the symbol, bought at `avgEntryPrice` (the balances are the options'). */
  setPosition(symbol: string, base: Amount, avgEntryPrice?: Amount): void {
    this.orders.account.setPosition(symbol, dec(base, 'base'), avgEntryPrice === undefined ? undefined : dec(avgEntryPrice, 'avgEntryPrice'));
  }
}
