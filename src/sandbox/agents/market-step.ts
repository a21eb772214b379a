/**
 * One point of the path, played by the agents (synchronously, so no one trades in between):
 *
 * 1. The taker owes the point's volume (plus what earlier points could not trade). When the path
 *    moved through the quotes within a bar, it sweeps the book with an IOC limited at the path
 *    price: a fast move eats depth, as it does on a real book.
 * 2. The liquidity agent re-quotes its ladder around the new price.
 * 3. Unless the last trade is already at the path price with nothing left to trade, the liquidity
 *    agent rests the rest of the volume (at least one minimum order) exactly at the path price and
 *    the taker takes it: the trade prints at the path price, so the kline's open, high, low and
 *    close are the source bar's (on the symbol's tick grid).
 *
 * The taker buys when the path rises, sells when it falls, and flips a seeded coin when it is flat.
 * A bar's first point never sweeps: a source bar may open away from the last close, and the sweep
 * would print prices of neither bar.
 */
import { D, type Dec } from '../../core/money/decimal.ts';
import type { OrderSide } from '../../core/matching/index.ts';
import type { Prng } from '../../core/synthetic/index.ts';
import type { AgentEnv } from './agent-env.ts';
import type { LiquidityAgent } from './liquidity-agent.ts';
import type { PathPoint } from './path-source.ts';
import type { TakerAgent } from './taker-agent.ts';

export class MarketStep {
  private owed: Dec = new D(0);
  private last: number | undefined;

  constructor(
    private readonly env: AgentEnv,
    private readonly maker: LiquidityAgent,
    private readonly taker: TakerAgent | undefined,
    private readonly rng: Prng,
  ) {}

  /** Quote around a price without trading (the book before the first point, and after the path ends). */
  quoteOnly(units: number): void {
    this.maker.quote(units);
  }

  play(p: PathPoint): void {
    const { rules, engine, stats } = this.env;
    stats.price = p.price;
    const side = this.direction(p.units);
    this.last = p.units;
    if (this.taker === undefined) {
      this.maker.quote(p.units);
      return;
    }
    this.owed = this.owed.plus(p.volume);
    let filled: Dec = new D(0);
    if (p.step > 0 && this.taker.reaches(side, p.units)) {
      const qty = rules.fitQty(this.owed, p.price);
      if (qty !== undefined) filled = this.taker.take(side, p.units, qty);
    }
    this.maker.quote(p.units);
    const rest = this.owed.minus(filled);
    const lastTrade = engine.lastPrice(rules.symbol);
    if (rest.gt(0) || lastTrade === undefined || rules.units(lastTrade) !== p.units) {
      const qty = rules.fitQty(D.max(rest, 0), p.price);
      if (qty !== undefined) {
        const id = this.maker.post(opposite(side), p.units, qty);
        if (id !== undefined) {
          try {
            filled = filled.plus(this.taker.take(side, p.units, qty));
          } finally {
            this.maker.withdraw(id);
          }
        }
      }
    }
    // Minimum orders may trade more than a quiet point owes; the excess is not carried as a debt.
    this.owed = D.max(this.owed.minus(filled), 0);
  }

  private direction(units: number): OrderSide {
    const prev = this.last;
    if (prev === undefined || prev === units) return this.rng.next() < 0.5 ? 'BUY' : 'SELL';
    return units > prev ? 'BUY' : 'SELL';
  }
}

const opposite = (side: OrderSide): OrderSide => (side === 'BUY' ? 'SELL' : 'BUY');
