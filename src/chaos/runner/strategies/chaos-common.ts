/**
 * What the chaos strategies share (issue 22 deliverable 1: "the bot with several strategies (market
 * orders, resting limits, cancel-replace, stops)"): their params, the intent budget (each strategy
 * asks for at most `intents` intents, counted in the run's recorder so the run stops at N) and the
 * seeded draw behind each intent. The k-th intent of a strategy draws from its own stream
 * `seed:<strategy>:<k>`, so what a strategy asks for depends on the seed and on what it saw (its
 * open orders, its position, the last price), never on Math.random or the wall clock. Every chaos
 * strategy has an empty onTrade so the bot feeds it the symbol's trades: MARKET orders are checked
 * at the last price, and limits and stops are priced around it.
 */
import { D, type Dec } from '../../../core/money/decimal.ts';
import { defineStrategy, z, type StrategyDefinition } from '../../../strategy/index.ts';
import type { StrategyContext } from '../../../strategy/context.ts';
import type { HandlerResult } from '../../../strategy/intents/intents.ts';
import { streamOf, type Prng } from '../prng.ts';
import { recordFill, recorderOf } from '../recorder.ts';

export const chaosParams = z.object({
  /** The run's recorder (recorder.ts). */
  run: z.string().min(1),
  /** This strategy's name in the run (its recorder key and its PRNG stream). */
  key: z.string().min(1),
  seed: z.string().min(1),
  /** Intents this strategy asks for, then it is quiet. */
  intents: z.number().int().nonnegative(),
  symbol: z.string().default('BTCPHP'),
  everyMs: z.number().int().positive().default(4000),
  /** Base quantity of one order. */
  quantity: z.string().default('0.0002'),
  /** Orders it keeps open at most. */
  maxOpen: z.number().int().positive().default(4),
  /** Also append each fill here (a bot in a child process). */
  recordFile: z.string().default(''),
});
export type ChaosParams = z.infer<typeof chaosParams>;

/** The draw for this strategy's next intent, counted; undefined once its budget is spent. */
export function nextDraw(p: ChaosParams): Prng | undefined {
  const r = recorderOf(p.run);
  const k = r.intents.get(p.key) ?? 0;
  if (k >= p.intents) return undefined;
  r.intents.set(p.key, k + 1);
  return streamOf(p.seed, `${p.key}:${k}`);
}

/** The symbol's last trade price, exact; undefined before the first trade. */
export function lastPrice(ctx: StrategyContext<ChaosParams, unknown>): Dec | undefined {
  const t = ctx.lastTrade(ctx.params.symbol);
  return t === undefined ? undefined : new D(t.exact.price);
}

/** `price` moved by `bps` basis points, on the tick grid. */
export function offset(ctx: StrategyContext<ChaosParams, unknown>, price: Dec, bps: number): string {
  return ctx.instrument(ctx.params.symbol).roundPrice(price.times(1 + bps / 10_000));
}

/** Base this strategy holds and may still sell (its own position less what its open sells reserve). */
export function sellable(ctx: StrategyContext<ChaosParams, unknown>): Dec {
  let free = ctx.position(ctx.params.symbol).base;
  for (const o of ctx.openOrders(ctx.params.symbol)) {
    if (o.side === 'SELL') free = free.minus((o.origQty ?? new D(0)).minus(o.executedQty));
  }
  return free;
}

export const onFillRecorded = (ctx: StrategyContext<ChaosParams, unknown>, fill: { orderId: string; tradeId: string }): void => {
  recordFill(ctx.params.run, ctx.params.key, fill, ctx.params.recordFile);
};

export type ChaosContext = StrategyContext<ChaosParams, unknown>;

/**
 * A chaos strategy: its symbol's trades fed (empty onTrade), its fills recorded, and `tick` called
 * every `everyMs` once the symbol has traded, with the last price. The tick draws its own intent
 * (`nextDraw`), so a strategy can decide not to spend one (the replace waits for its quote first).
 */
export function defineChaosStrategy(name: string, tick: (ctx: ChaosContext, price: Dec) => HandlerResult): StrategyDefinition<typeof chaosParams> {
  return defineStrategy({
    name,
    params: chaosParams,
    symbols: (p) => [p.symbol],
    timerMs: (p) => p.everyMs,
    onTrade: () => [],
    onFill: (ctx, fill) => void onFillRecorded(ctx, fill),
    onTimer(ctx) {
      const price = lastPrice(ctx);
      return price === undefined ? [] : tick(ctx, price);
    },
  });
}
