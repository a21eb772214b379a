/**
 * The liquidity agent: an ordinary sandbox account that keeps a ladder of GTC LIMIT quotes around
 * the path price (ladder.ts) and re-quotes as the path moves: quotes off the wanted grid, or eaten
 * below half their size, are cancelled and the missing levels placed. It also rests the one-off
 * order the taker trades against so that a trade prints exactly at the path price (`post`).
 * Quantities and prices go through MarketRules, funds through Funding.
 */
import { D, dec, type Dec } from '../../core/money/decimal.ts';
import type { OrderSide } from '../../core/matching/index.ts';
import { placeFor, type AgentEnv } from './agent-env.ts';
import type { LiquidityConfig } from './config.ts';
import { ladderAround, ladderSteps } from './ladder.ts';

/** Default level size, in minimum orders at the current price. */
const DEFAULT_SIZE_IN_MIN_ORDERS = 10;

export class LiquidityAgent {
  constructor(
    private readonly env: AgentEnv,
    readonly accountId: string,
    private readonly cfg: LiquidityConfig,
  ) {}

  /** Re-quote the ladder around `center` ticks. */
  quote(center: number): void {
    if (!this.cfg.enabled) return;
    const { rules, engine, clock } = this.env;
    const approx = rules.approx(center);
    const { halfSpread, step } = ladderSteps(approx, rules.tick.toNumber(), this.cfg.spreadBps, this.cfg.levelStepBps);
    const want = ladderAround(center, { levels: this.cfg.levels, halfSpread, step, min: rules.minUnits, max: rules.maxUnits });
    const size = this.levelSize(rules.price(center));
    const missing = { BUY: new Set(want.bids), SELL: new Set(want.asks) };
    for (const o of engine.openOrders(this.accountId, rules.symbol)) {
      const wanted = missing[o.side];
      const units = rules.units(o.price);
      const left = dec(o.origQty).minus(o.executedQty);
      if (wanted.has(units) && left.times(2).gte(size)) wanted.delete(units);
      else engine.cancelOrder(this.accountId, rules.symbol, { orderId: o.orderId }, clock.now());
    }
    for (const side of ['BUY', 'SELL'] as const) {
      for (const units of missing[side]) this.place(side, units, size, 'GTC');
    }
  }

  /** Rest `qty` at exactly `units` on `side` for the taker to hit; the order id, or undefined when refused. */
  post(side: OrderSide, units: number, qty: string): string | undefined {
    return this.place(side, units, dec(qty), 'GTC');
  }

  /** Cancel an order if it is still open (a posted order the taker did not fully take). */
  withdraw(orderId: string): void {
    const { engine, rules, clock } = this.env;
    const [o] = engine.order(this.accountId, rules.symbol, { orderId });
    if (o && (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED')) engine.cancelOrder(this.accountId, rules.symbol, { orderId }, clock.now());
  }

  private levelSize(price: string): Dec {
    const { rules } = this.env;
    const min = rules.minQty(price);
    const size = this.cfg.size === undefined ? min.times(DEFAULT_SIZE_IN_MIN_ORDERS) : D.max(dec(this.cfg.size), min);
    return dec(rules.fitQty(size, price) ?? min);
  }

  private place(side: OrderSide, units: number, size: Dec, timeInForce: 'GTC'): string | undefined {
    const { rules, funding } = this.env;
    const price = rules.price(units);
    const quantity = rules.fitQty(size, price);
    if (quantity === undefined) return undefined;
    const inst = rules.inst;
    if (side === 'BUY') funding.ensure(this.accountId, inst.quoteAsset, dec(price).times(quantity));
    else funding.ensure(this.accountId, inst.baseAsset, quantity);
    return placeFor(this.env, this.accountId, { side, type: 'LIMIT', timeInForce, price, quantity })?.order.orderId;
  }
}
