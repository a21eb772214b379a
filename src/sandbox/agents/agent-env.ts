/**
 * What the market agents share: the engine they trade on (orders go through it like anyone's, so
 * trades, klines, tickers, depth and avgPrice come from the existing plumbing), the sandbox clock,
 * their funding, the symbol's rules, the log, and the market's counters.
 */
import type { Logger } from 'pino';
import type { NewOrderRequest, PlaceResult, SpotEngine } from '../../core/matching/index.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Funding } from './funding.ts';
import type { MarketRules } from './market-rules.ts';

export interface MarketStats {
  symbol: string;
  source: string;
  state: 'starting' | 'running' | 'holding' | 'stopped';
  /** Source bars played, path points played. */
  bars: number;
  points: number;
  /** Orders the agents placed, engine rejections among them, fills of the taker. */
  orders: number;
  rejections: number;
  trades: number;
  /** Steps that threw (logged; the agent carries on with the next step). */
  errors: number;
  lastError: string | undefined;
  /** The path's current price. */
  price: string | undefined;
}

export interface AgentEnv {
  readonly engine: SpotEngine;
  readonly clock: Clock;
  readonly funding: Funding;
  readonly rules: MarketRules;
  readonly log: Logger;
  readonly stats: MarketStats;
}

/** Place an order for an agent, counting it; a rejection is logged at debug level and gives undefined. */
export function placeFor(env: AgentEnv, accountId: string, req: Omit<NewOrderRequest, 'symbol'>): (PlaceResult & { ok: true }) | undefined {
  env.stats.orders++;
  const r = env.engine.placeOrder(accountId, { ...req, symbol: env.rules.symbol }, env.clock.now());
  if (r.ok) return r;
  env.stats.rejections++;
  env.log.debug({ symbol: env.rules.symbol, accountId, code: r.code, msg: r.msg, req }, 'market agent order rejected');
  return undefined;
}
