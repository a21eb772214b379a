/**
 * The taker agent: an ordinary sandbox account that trades toward the path price with IOC LIMIT
 * orders limited at that price, so it can sweep the book up to the path (eating the quotes in
 * between, and any bot order there) but never trades beyond it. Its trades are the market's
 * trades: the klines, tickers and avgPrice the sandbox serves are built from them.
 */
import { D, dec, type Dec } from '../../core/money/decimal.ts';
import type { OrderSide } from '../../core/matching/index.ts';
import { placeFor, type AgentEnv } from './agent-env.ts';

export class TakerAgent {
  constructor(
    private readonly env: AgentEnv,
    readonly accountId: string,
  ) {}

  /** True when the book's best quote on the far side is at or through `units` (a sweep would trade). */
  reaches(side: OrderSide, units: number): boolean {
    const { engine, rules } = this.env;
    const best = side === 'BUY' ? engine.bestAsk(rules.symbol) : engine.bestBid(rules.symbol);
    if (best === undefined) return false;
    const at = rules.units(best.price);
    return side === 'BUY' ? at <= units : at >= units;
  }

  /** IOC LIMIT `side` of `qty` at `units`; returns the quantity filled. */
  take(side: OrderSide, units: number, qty: string): Dec {
    const { rules, funding } = this.env;
    const price = rules.price(units);
    const inst = rules.inst;
    if (side === 'BUY') funding.ensure(this.accountId, inst.quoteAsset, dec(price).times(qty));
    else funding.ensure(this.accountId, inst.baseAsset, qty);
    const r = placeFor(this.env, this.accountId, { side, type: 'LIMIT', timeInForce: 'IOC', price, quantity: qty, newOrderRespType: 'FULL' });
    if (r === undefined) return new D(0);
    this.env.stats.trades += r.fills.length;
    return dec(r.order.executedQty);
  }
}
