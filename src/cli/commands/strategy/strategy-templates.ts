/**
 * The starting points `halyard new-strategy` writes (docs/guides/writing-strategies.md): a strategy and
 * its vitest test per template, as text. Each is an idiomatic small version of an example in
 * `strategies/` (sma-crossover, rsi-exits with protections() as rsi-guarded, grid), or `blank`,
 * the smallest valid strategy with every other handler stubbed as a comment. The import
 * specifiers are the caller's (relative inside this repository, `halyard/strategy` outside it):
 * the texts only fill them in, with the strategy's name.
 *
 * The generated code uses no template literals, so these texts need no escaping of `${`.
 */

export const TEMPLATE_NAMES = ['sma', 'rsi-exits', 'grid', 'blank'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export function isTemplateName(name: string): name is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(name);
}

export interface TemplateInput {
  /** The strategy's name (kebab-case): its `name`, and its file's `<name>.ts`. */
  readonly name: string;
  /** Specifier of the strategy API: `../src/strategy/index.ts` (relative) or `halyard/strategy`. */
  readonly strategyImport: string;
  /** Specifier of the testing kit: `../src/strategy/testing/index.ts` or `halyard/strategy/testing`. */
  readonly testingImport: string;
  /** Whether the files are outside this repository (the header then points at that docs page). */
  readonly outside: boolean;
}

export interface TemplateFiles {
  readonly strategy: string;
  readonly test: string;
}

export function renderTemplate(template: TemplateName, input: TemplateInput): TemplateFiles {
  const t = TEMPLATES[template];
  const fill = (text: string) =>
    text
      .replaceAll('__NAME__', input.name)
      .replaceAll('__STRATEGY__', input.strategyImport)
      .replaceAll('__TESTING__', input.testingImport)
      .replaceAll('__README__', readmeLine(input.outside));
  return { strategy: fill(t.strategy), test: fill(t.test) };
}

function readmeLine(outside: boolean): string {
  const where = outside
    ? ' * strategy-project.md (types in an editor: a tsconfig.json beside this file).'
    : ' * backtesting.md.';
  return ` * Halyard's docs/guides/: writing-strategies.md (params, warmup, ctx, indicators, intents), testing-strategies.md,\n${where}`;
}

const SMA_STRATEGY = `/**
 * __NAME__: an SMA crossover, long only (from \`halyard new-strategy --template sma\`). Buys
 * quoteAmount at MARKET when the fast SMA crosses above the slow one while flat, and sells the
 * position at MARKET when it crosses back under. Change the signal in onBar; the test beside
 * this file (__NAME__.test.ts) runs it on canned markets.
 *
__README__
 */
import { crossover, crossunder, decimalParam, defineStrategy, intervalParam, place, TERMINAL_STATUSES, z } from '__STRATEGY__';
import type { StrategyContext } from '__STRATEGY__';

export default defineStrategy({
  name: '__NAME__',
  description: 'SMA crossover, long only: buy on a golden cross when flat, sell the position on a death cross.',
  // A zod schema: defaults and ranges; \`--param fast=5\` sets one, and a bad or unknown one is refused by name.
  params: z
    .object({
      symbol: z.string().min(1).default('BTCPHP'),
      interval: intervalParam().default('1m'),
      fast: z.number().int().min(2).default(10),
      slow: z.number().int().min(3).default(30),
      quoteAmount: decimalParam().default('1000'), // quote spent on each entry (quoteOrderQty)
    })
    .refine((p) => p.slow > p.fast, { message: 'slow must be greater than fast', path: ['slow'] }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  // Closed bars before onBar first runs: one more than the slow SMA, so it has a value to cross from.
  warmup: (p) => p.slow + 1,
  // Fresh for each run (never keep state at module level: runs would share it).
  state: () => ({ pending: false, exiting: false }),

  onBar(ctx) {
    const bars = ctx.bars(); // closed bars only: the forming bar is unreachable
    const fast = bars.sma(ctx.params.fast);
    const slow = bars.sma(ctx.params.slow);
    ctx.plot('fast SMA', fast.value); // lines over the candles in the backtest report
    ctx.plot('slow SMA', slow.value);
    if (ctx.state.pending) return; // its own order is still in flight
    const flat = isFlat(ctx);
    if (flat) ctx.state.exiting = false;
    // A position larger than LOT_SIZE maxQty leaves in pieces, one a bar, until flat.
    if (!flat && (ctx.state.exiting || crossunder(fast, slow))) {
      ctx.state.pending = true;
      ctx.state.exiting = true;
      return [place({ symbol: ctx.symbol, side: 'SELL', type: 'MARKET', quantity: ctx.instrument().capQty(ctx.position().base), tag: 'exit' })];
    }
    if (flat && crossover(fast, slow)) {
      ctx.state.pending = true;
      return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quoteAmount, tag: 'entry' })];
    }
  },

  // Every order ends in one of TERMINAL_STATUSES; DENIED is the pre-trade checks' refusal.
  onOrderUpdate(ctx, update) {
    if (!TERMINAL_STATUSES.includes(update.status)) return;
    ctx.state.pending = false;
    if (update.status === 'FILLED') return;
    ctx.log(update.tag + ' order ended ' + update.status, { reason: update.reason });
    if (update.tag === 'exit') ctx.state.exiting = false; // refused: wait for the next death cross
  },
});

/**
 * Flat, or holding only what no order can sell: below LOT_SIZE minQty or the minimum notional at
 * the last close (dust, e.g. what a commission taken in the base asset leaves).
 */
function isFlat(ctx: StrategyContext<{ readonly symbol: string }, unknown>): boolean {
  const position = ctx.position();
  const last = ctx.bars().last;
  if (position.flat || last === undefined) return position.flat;
  const inst = ctx.instrument();
  return !inst.meetsMinimums(inst.roundQty(position.base), last.exact.close);
}
`;

const SMA_TEST = `/**
 * __NAME__ on the testing kit's canned markets (docs/guides/testing-strategies.md): the real backtester, the
 * pre-trade checks and the simulated venue, deterministic per seed.
 */
import { describe, expect, it } from 'vitest';
import { runOnRegime } from '__TESTING__';
import strategy from './__NAME__.ts';

describe('__NAME__', () => {
  it('buys in a rising then falling market, and runs without failures or denials', () => {
    const { run, fills } = runOnRegime(strategy, 'upThenDown', { fast: 10, slow: 30 });
    expect(run.strategyFailures).toEqual([]);
    expect(run.denials).toEqual([]);
    expect(fills.filter((f) => f.tag === 'entry').length).toBeGreaterThan(0);
    // Long only: entries and exits alternate, so no trade is ever short.
    for (const t of run.trades) expect(t.direction).toBe('LONG');
  });

  it('sells what it bought: in a sideways market every closed trade left by its exit', () => {
    const { run } = runOnRegime(strategy, 'flat');
    expect(run.trades.length).toBeGreaterThan(5);
    for (const t of run.trades) expect([t.entryTag, t.exitTag]).toEqual(['entry', 'exit']);
  });

  it('refuses a slow SMA that is not longer than the fast one', () => {
    expect(() => runOnRegime(strategy, 'flat', { fast: 30, slow: 10 })).toThrow('slow must be greater than fast');
  });
});
`;

const RSI_EXITS_STRATEGY = `/**
 * __NAME__: an RSI entry guarded by exits() and protections() (from \`halyard new-strategy
 * --template rsi-exits\`). Buys quoteAmount at MARKET when the RSI crosses up through buyLevel
 * while flat; from the entry fill on, exits() keeps one exit order for the position: a
 * STOP_LOSS stopLoss under the average entry, replaced by a MARKET exit at the takeProfit target.
 * protections() holds entries back for cooldownBars bars after each trade. The backtest summary's
 * Exits line separates the exit tags (sl, tp).
 *
__README__
 * Exits: "Exits: stop-loss, take-profit, trailing stop"; locks: "Protections: cooldown, stoploss
 * guard, max drawdown, low profit".
 */
import { crossover, decimalParam, defineStrategy, exits, intervalParam, place, protections, TERMINAL_STATUSES, warmupFor, z } from '__STRATEGY__';

export default defineStrategy({
  name: '__NAME__',
  description: 'RSI crossing up through buyLevel buys at MARKET; exits() keeps a stop-loss and a take-profit; a cooldown after each trade.',
  params: z.object({
    symbol: z.string().min(1).default('BTCPHP'),
    interval: intervalParam().default('1m'),
    rsiPeriod: z.number().int().min(2).default(14),
    buyLevel: z.number().gt(0).lt(100).default(30),
    quoteAmount: decimalParam().default('1000'), // quote spent on each entry
    stopLoss: z.number().gt(0).lt(1).default(0.02), // the stop 2% under the average entry
    takeProfit: z.number().gt(0).default(0.01), // leave at MARKET 1% over it
    cooldownBars: z.number().int().min(0).default(10), // no entry this many bars after a trade closes; 0: off
  }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  // Wilder's RSI remembers every close: the bars before its value stops depending on where the
  // history started (233 for 14; rsiPeriod + 2 would be its first value, 6% off; \`halyard check\`).
  warmup: (p) => warmupFor.rsi(p.rsiPeriod),
  state: (p) => ({
    entering: false,
    // Also: trailingStop: { activation, distance }, timeLimitMs (docs/guides/exits-and-protections.md).
    exit: exits({ stopLoss: p.stopLoss, takeProfit: p.takeProfit }),
    // Also: stoplossGuard, maxDrawdown, lowProfit (docs/guides/exits-and-protections.md).
    guard: protections(p.cooldownBars > 0 ? { cooldown: { bars: p.cooldownBars } } : {}),
  }),

  onBar(ctx, bar) {
    ctx.state.guard.onBar(ctx, bar); // first: the protections measure every bar
    const out = ctx.state.exit.onBar(ctx, bar); // take-profit: before anything else, and never locked
    const rsi = ctx.bars().rsi(ctx.params.rsiPeriod);
    ctx.plot('RSI', rsi.value, { pane: 'below' });
    if (out.length) return out;
    // exit.flat: flat, or holding dust no exit can sell.
    if (ctx.state.entering || !ctx.state.exit.flat(ctx) || !crossover(rsi, ctx.params.buyLevel)) return;
    if (ctx.state.guard.locked(ctx)) {
      ctx.log('entry skipped: ' + (ctx.state.guard.reason(ctx) ?? ''));
      return;
    }
    ctx.state.entering = true;
    return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quoteAmount, tag: 'entry' })];
  },
  onFill(ctx, fill) {
    ctx.state.guard.onFill(ctx, fill); // a fill that closes a trade may lock
    return ctx.state.exit.onFill(ctx, fill); // an entry fill places (or re-sizes) the stop
  },
  onOrderUpdate(ctx, update) {
    if (update.tag === 'entry' && TERMINAL_STATUSES.includes(update.status)) ctx.state.entering = false;
    return ctx.state.exit.onOrderUpdate(ctx, update);
  },
  onDenial: (ctx, denial) => ctx.state.exit.onDenial(ctx, denial),
});
`;

const RSI_EXITS_TEST = `/**
 * __NAME__ on the testing kit's canned markets (docs/guides/testing-strategies.md): the real backtester, the
 * pre-trade checks and the simulated venue (which triggers the stop on the bar's path).
 */
import { describe, expect, it } from 'vitest';
import { runOnRegime } from '__TESTING__';
import strategy from './__NAME__.ts';

describe('__NAME__', () => {
  it('in a sharp fall the stop protects: trades leave at the stop, and it loses far less than the market', () => {
    const { run, metrics } = runOnRegime(strategy, 'sharpDown');
    expect(run.strategyFailures).toEqual([]);
    expect(run.denials).toEqual([]);
    expect(run.trades.length).toBeGreaterThan(0);
    for (const t of run.trades) {
      expect(t.exitTag).toBe('sl');
      expect(Number(t.exitPrice)).toBeLessThan(Number(t.entryPrice));
    }
    expect(metrics.returnPct).toBeGreaterThan(metrics.marketReturnPct);
  });

  it('in a slow rise it takes profits at the target', () => {
    const { run } = runOnRegime(strategy, 'slowUp');
    expect(run.strategyFailures).toEqual([]);
    const tp = run.trades.filter((t) => t.exitTag === 'tp');
    expect(tp.length).toBeGreaterThan(0);
    for (const t of tp) expect(Number(t.exitPrice)).toBeGreaterThan(Number(t.entryPrice));
  });

  it('refuses a stop-loss that is not a fraction', () => {
    expect(() => runOnRegime(strategy, 'flat', { stopLoss: 2 })).toThrow(/stopLoss/);
  });
});
`;

const GRID_STRATEGY = `/**
 * __NAME__: a grid around the first close (from \`halyard new-strategy --template grid\`).
 * Level i sits at close x (1 + spacing x (i - levels)): \`levels\` levels under the first close,
 * as many over it, the close's own level left empty. On the first bar it places a LIMIT BUY at
 * every level under the price (and a LIMIT SELL at each level over it that the position covers);
 * when a level's order fills completely it re-arms the grid one step away: a filled BUY at level
 * i places a SELL at level i+1, a filled SELL a BUY at level i-1, so each round trip earns one
 * step. Each order is quoteAmount's worth at the first close, tagged L<i>; onStop cancels what
 * is live.
 *
__README__
 */
import { cancel, D, decimalParam, defineStrategy, intervalParam, place, TERMINAL_STATUSES, z } from '__STRATEGY__';
import type { Dec, IntentInput, StrategyContext } from '__STRATEGY__';

interface GridState {
  /** Level prices (decimal strings, on the tick), once armed on the first bar. */
  prices: string[] | undefined;
  /** Each level's order quantity, on the LOT_SIZE step. */
  quantity: string;
  /** Levels with a live (or in-flight) order. */
  live: Set<number>;
  /** Base commission paid so far by each level's live BUY: what its SELL will not have. */
  baseFees: Map<number, Dec>;
}

const levelTag = (i: number) => 'L' + String(i);
const levelOf = (tag: string | undefined): number | undefined => (tag && /^L\\d+$/.test(tag) ? Number(tag.slice(1)) : undefined);

export default defineStrategy({
  name: '__NAME__',
  description: 'LIMIT buys under and sells over the first close, spacing apart; a filled level re-arms the next one.',
  params: z
    .object({
      symbol: z.string().min(1).default('BTCPHP'),
      interval: intervalParam().default('1m'),
      levels: z.number().int().min(1).max(50).default(5), // levels on each side of the first close
      spacing: z.number().gt(0).lt(1).default(0.002), // between two levels, a fraction of the first close
      quoteAmount: decimalParam().default('500'), // each order's worth at the first close
    })
    .refine((p) => p.spacing * p.levels < 1, { message: 'spacing x levels must be under 1 (the lowest level above 0)', path: ['spacing'] }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  warmup: 1, // one closed bar: its close centres the grid
  state: (): GridState => ({ prices: undefined, quantity: '0', live: new Set(), baseFees: new Map() }),

  onBar(ctx, bar) {
    if (ctx.state.prices) return;
    const inst = ctx.instrument();
    const close = new D(bar.exact.close);
    const { levels, spacing } = ctx.params;
    const prices = Array.from({ length: 2 * levels + 1 }, (_, i) => inst.roundPrice(close.times(new D(spacing).times(i - levels).plus(1))));
    const quantity = inst.roundQty(new D(ctx.params.quoteAmount).div(close));
    // Thrown errors stop the strategy with the message (run.strategyFailures in a test).
    if (!inst.meetsMinimums(quantity, prices[0] as string)) throw new Error('quoteAmount ' + ctx.params.quoteAmount + ' is below ' + ctx.symbol + "'s minimums at the lowest level: set a larger quoteAmount");
    ctx.state.prices = prices;
    ctx.state.quantity = quantity;
    const out: IntentInput[] = [];
    for (let i = levels - 1; i >= 0; i--) out.push(order(ctx, i, 'BUY', quantity));
    let sellable: Dec = ctx.position().base;
    for (let i = levels + 1; i < prices.length && sellable.gte(quantity); i++) {
      out.push(order(ctx, i, 'SELL', quantity));
      sellable = sellable.minus(quantity);
    }
    return out;
  },

  onFill(ctx, fill) {
    const i = levelOf(fill.tag);
    if (i === undefined || ctx.state.prices === undefined) return;
    const inst = ctx.instrument();
    const fees = ctx.state.baseFees;
    if (fill.side === 'BUY' && fill.commissionAsset === inst.baseAsset && !fill.commission.isZero()) fees.set(i, (fees.get(i) ?? new D(0)).plus(fill.commission));
    if (fill.orderStatus !== 'FILLED') return; // partly filled: wait for the rest
    ctx.state.live.delete(i);
    const paid = fees.get(i);
    fees.delete(i);
    const next = fill.side === 'BUY' ? i + 1 : i - 1;
    if (next < 0 || next >= ctx.state.prices.length || ctx.state.live.has(next)) return;
    // A BUY delivered its quantity less a commission taken in base: sell that, down to the step.
    const quantity = fill.side === 'BUY' && paid !== undefined ? inst.roundQty(new D(ctx.state.quantity).minus(paid)) : ctx.state.quantity;
    if (!new D(quantity).gt(0)) return;
    return [order(ctx, next, fill.side === 'BUY' ? 'SELL' : 'BUY', quantity)];
  },

  onOrderUpdate(ctx, update) {
    const i = levelOf(update.tag);
    if (i === undefined || update.status === 'FILLED' || !TERMINAL_STATUSES.includes(update.status)) return;
    ctx.state.live.delete(i);
    ctx.state.baseFees.delete(i);
    if (update.status === 'DENIED' || update.status === 'REJECTED') ctx.log('level ' + String(i) + ' order ' + update.status, { reason: update.reason });
  },

  // The last call: the cancels it returns are still delivered.
  onStop(ctx) {
    return [...ctx.state.live].sort((a, b) => a - b).map((i) => cancel({ symbol: ctx.symbol, tag: levelTag(i) }));
  },
});

function order(ctx: StrategyContext<{ readonly symbol: string }, GridState>, i: number, side: 'BUY' | 'SELL', quantity: string): IntentInput {
  ctx.state.live.add(i);
  return place({ symbol: ctx.symbol, side, type: 'LIMIT', quantity, price: ctx.state.prices?.[i] as string, timeInForce: 'GTC', tag: levelTag(i) });
}
`;

const GRID_TEST = `/**
 * __NAME__ on the testing kit's canned markets (docs/guides/testing-strategies.md): the real backtester, the
 * pre-trade checks and the simulated venue's matching of LIMIT orders.
 */
import { describe, expect, it } from 'vitest';
import { runOnRegime } from '__TESTING__';
import strategy from './__NAME__.ts';

describe('__NAME__', () => {
  it('arms its buys under the first close on the first bar, one per level', () => {
    const { intents, run } = runOnRegime(strategy, 'flat', { levels: 3 });
    expect(run.strategyFailures).toEqual([]);
    const first = intents.filter((r) => r.time === intents[0]?.time).map((r) => r.intent);
    expect(first.map((i) => (i.kind === 'place' ? i.side + ' ' + (i.tag ?? '') : i.kind))).toEqual(['BUY L2', 'BUY L1', 'BUY L0']);
  });

  it('trades round trips in a sideways market: a filled buy re-arms a sell one level up', () => {
    const { run, fills } = runOnRegime(strategy, 'flat');
    expect(run.strategyFailures).toEqual([]);
    expect(run.denials).toEqual([]);
    expect(fills.some((f) => f.side === 'BUY')).toBe(true);
    expect(fills.some((f) => f.side === 'SELL')).toBe(true);
    // Each level's sell is one grid step above the buy it re-arms from.
    for (const t of run.trades) expect(Number(t.exitPrice)).toBeGreaterThan(Number(t.entryPrice));
  });

  it('refuses a grid reaching down to 0', () => {
    expect(() => runOnRegime(strategy, 'flat', { levels: 10, spacing: 0.2 })).toThrow('spacing x levels must be under 1');
  });
});
`;

const BLANK_STRATEGY = `/**
 * __NAME__: (say what it does). From \`halyard new-strategy --template blank\`: the smallest valid
 * strategy, every other handler stubbed as a comment. Handlers are synchronous and return intents
 * (place, cancel, cancelReplace) or nothing; they get no client and no keys.
 *
__README__
 */
import { defineStrategy, intervalParam, z } from '__STRATEGY__';
// More from the same module: place, cancel, cancelReplace, crossover, crossunder, decimalParam,
// exits (stop-loss, take-profit), protections (docs/guides/exits-and-protections.md), TERMINAL_STATUSES, D.

export default defineStrategy({
  name: '__NAME__',
  description: 'A blank strategy: it watches the bars and sends nothing yet.',
  // A zod schema: defaults and ranges; \`--param name=value\` sets one, a bad or unknown one is refused.
  params: z.object({
    symbol: z.string().min(1).default('BTCPHP'),
    interval: intervalParam().default('1m'),
  }),
  symbols: (p) => [p.symbol], // the first is ctx.symbol
  intervals: (p) => [p.interval], // a backtest runs on the first, making longer ones from it
  warmup: 1, // closed bars before onBar first runs (a count per interval also works)
  // history: 1000,        // closed bars kept for ctx.bars() (default the larger of 1000 and warmup)
  // timerMs: 60_000,      // with onTimer
  state: () => ({}), // fresh for each run: never keep state at module level

  // onStart(ctx) {},                // first call, before any bar
  onBar(_ctx) {
    // A bar closed (after the warmup): read ctx.bars() (closed bars, indicators: sma, ema, rsi, atr,
    // bollinger, macd...), ctx.position(), ctx.instrument() (roundPrice, roundQty, capQty), ctx.state,
    // and return intents, e.g.
    // return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'entry' })];
  },
  // onTrade(ctx, trade) {},          // a public trade of a declared symbol
  // onBookTop(ctx, top) {},          // the best bid and ask changed
  // onOrderUpdate(ctx, update) {},   // one of its orders changed state (DENIED: the pre-trade checks refused it)
  // onFill(ctx, fill) {},            // one of its orders filled, partly or wholly
  // onDenial(ctx, denial) {},        // a cancel or cancelReplace was refused
  // onTimer(ctx, time) {},           // every timerMs
  // onStop(ctx, reason) {},          // last call; cancels returned here are still delivered
});
`;

const BLANK_TEST = `/**
 * __NAME__ on the testing kit's canned markets (docs/guides/testing-strategies.md). Replace these with what
 * the strategy should do: an entry in a rise (fills, run.trades), a stop in a fall (t.exitTag).
 */
import { describe, expect, it } from 'vitest';
import { runOnRegime } from '__TESTING__';
import strategy from './__NAME__.ts';

describe('__NAME__', () => {
  it('runs a backtest of 1000 bars without failures, and sends nothing yet', () => {
    for (const regime of ['slowUp', 'sharpDown'] as const) {
      const { run, intents } = runOnRegime(strategy, regime);
      expect(run.strategyFailures).toEqual([]);
      expect(run.barCount).toBe(1000);
      expect(intents).toEqual([]);
    }
  });
});
`;

const TEMPLATES: Record<TemplateName, TemplateFiles> = {
  sma: { strategy: SMA_STRATEGY, test: SMA_TEST },
  'rsi-exits': { strategy: RSI_EXITS_STRATEGY, test: RSI_EXITS_TEST },
  grid: { strategy: GRID_STRATEGY, test: GRID_TEST },
  blank: { strategy: BLANK_STRATEGY, test: BLANK_TEST },
};
