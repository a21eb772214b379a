/**
 * Configuration of the sandbox's living market (issue "Sandbox exchange", deliverable 6): which
 * symbols get market agents, where their price path comes from (seeded synthetic regimes, a kline
 * CSV in the 6/11/12-column layouts, or the journal), how fast it plays on the sandbox clock, and
 * how the liquidity and taker agents size their orders.
 *
 * Timing: a source bar lasts `barMs` sandbox ms; without it, the bar's own interval divided by
 * `speed` (speed 1 = real time, 60 = a 1m bar per sandbox second). Each bar is played as
 * `stepsPerBar` price points. Per-market keys override the top-level ones.
 */
import { z } from 'zod';
import { REGIME_NAMES, type RegimeName } from '../../core/synthetic/index.ts';
import { zDecimalText } from '../config/filters.ts';

/** About 70 days of 1-minute bars: laid out at start in a few seconds; the store keeps the newest anyway. */
export const MAX_HISTORY_BARS = 100_000;

const seedSchema = z.union([z.number().int(), z.string().min(1)]);
const intervalText = z.enum(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w']);
const epochMs = z.number().int().nonnegative();

const regimeSchema = z.union([
  z.enum(REGIME_NAMES as unknown as [RegimeName, ...RegimeName[]]),
  z.strictObject({
    drift: z.number(),
    volatility: z.number().nonnegative(),
    meanReversion: z.number().min(0).max(1).optional(),
    volumeFactor: z.number().positive().optional(),
  }),
]);

export const segmentSchema = z.strictObject({ regime: regimeSchema, bars: z.number().int().positive() });

const syntheticSource = z.strictObject({
  type: z.literal('synthetic'),
  /** Default: the symbol's last traded price, else "100". */
  startPrice: zDecimalText.optional(),
  /** One cycle of regimes, repeated (each cycle with its own seed) for as long as the sandbox runs. */
  regimes: z.array(segmentSchema).min(1).optional(),
  intervalMs: z.number().int().positive().default(60_000),
  /** Typical base volume of a quiet bar; default 10 minimum orders' worth. */
  baseVolume: z.number().positive().optional(),
  volatilityScale: z.number().nonnegative().default(1),
});

const csvSource = z.strictObject({
  type: z.literal('csv'),
  file: z.string().min(1),
  /** Default: from the file name, else the bar spacing (readKlineCsv). */
  interval: intervalText.optional(),
  from: epochMs.optional(),
  to: epochMs.optional(),
});

const journalSource = z.strictObject({
  type: z.literal('journal'),
  file: z.string().min(1),
  /** The journal's symbol; default the sandbox symbol (this is the symbol mapping). */
  symbol: z.string().min(1).optional(),
  interval: intervalText.default('1m'),
  from: epochMs.optional(),
  to: epochMs.optional(),
});

export const sourceSchema = z.discriminatedUnion('type', [syntheticSource, csvSource, journalSource]);

const liquiditySchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Quotes per side (2 x levels + 1 must stay under MAX_NUM_ORDERS). */
  levels: z.number().int().min(1).max(50).default(5),
  /** Distance between best bid and best ask around the path price. */
  spreadBps: z.number().positive().default(10),
  /** Distance between levels; levels sit on a grid of this step so small moves keep most quotes. */
  levelStepBps: z.number().positive().default(5),
  /** Base quantity per level; default 10 minimum orders' worth at the current price. */
  size: zDecimalText.optional(),
});

const takerSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Traded volume = source bar volume x this. */
  volumeScale: z.number().positive().default(1),
});

const timing = {
  seed: seedSchema.optional(),
  speed: z.number().positive().optional(),
  barMs: z.number().int().positive().optional(),
  stepsPerBar: z.number().int().min(4).max(600).optional(),
  /** At the end of a CSV / journal: start again, or keep quoting at the last close without trading. */
  onEnd: z.enum(['loop', 'hold']).optional(),
  /** Source bars laid out as closed klines before the live path starts (history.ts). */
  historyBars: z.number().int().min(0).max(MAX_HISTORY_BARS).optional(),
};

export const marketSchema = z.strictObject({
  symbol: z.string().regex(/^[A-Z0-9]{2,20}$/, 'a configured sandbox symbol'),
  source: sourceSchema.default({ type: 'synthetic', intervalMs: 60_000, volatilityScale: 1 }),
  liquidity: liquiditySchema.prefault({}),
  taker: takerSchema.prefault({}),
  ...timing,
});

export const marketAgentsConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  seed: seedSchema.default(1),
  speed: z.number().positive().default(1),
  barMs: z.number().int().positive().optional(),
  stepsPerBar: z.number().int().min(4).max(600).default(8),
  onEnd: z.enum(['loop', 'hold']).default('loop'),
  /** Start the first bar on a multiple of the bar length, so 1m bars at speed 1 are 1m klines. */
  align: z.boolean().default(true),
  /**
   * Bars of history each market starts with (per market: `historyBars`): the source's first bars,
   * one per bar length back from the start, served as closed klines so a bot's warm-up is there at
   * once. The live path goes on from the next bar, starting in the current bar period.
   */
  historyBars: z.number().int().min(0).max(MAX_HISTORY_BARS).default(0),
  markets: z.array(marketSchema).default([]),
});

export type MarketAgentsConfigInput = z.input<typeof marketAgentsConfigSchema>;
export type MarketAgentsConfig = z.infer<typeof marketAgentsConfigSchema>;
export type MarketConfig = z.infer<typeof marketSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
export type LiquidityConfig = MarketConfig['liquidity'];
export type TakerConfig = MarketConfig['taker'];

/** One market with the top-level timing filled in. */
export interface ResolvedMarket extends MarketConfig {
  readonly seed: string | number;
  readonly speed: number;
  readonly stepsPerBar: number;
  readonly onEnd: 'loop' | 'hold';
  readonly historyBars: number;
}

export function resolveMarkets(config: MarketAgentsConfig): ResolvedMarket[] {
  return config.markets.map((m) => ({
    ...m,
    seed: m.seed ?? `${String(config.seed)}:${m.symbol}`,
    speed: m.speed ?? config.speed,
    barMs: m.barMs ?? config.barMs,
    stepsPerBar: m.stepsPerBar ?? config.stepsPerBar,
    onEnd: m.onEnd ?? config.onEnd,
    historyBars: m.historyBars ?? config.historyBars,
  }));
}

/** Parse options (throws a ZodError naming the path). */
export function parseMarketAgentsConfig(input: MarketAgentsConfigInput | undefined): MarketAgentsConfig {
  return marketAgentsConfigSchema.parse(input ?? {});
}
