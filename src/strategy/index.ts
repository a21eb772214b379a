/**
 * Public surface of the strategy layer: what strategy authors import (defineStrategy, intent
 * builders, the `exits()` helper, indicators, `z`, money helpers, types) and what the engine uses to host them
 * (StrategyRunner, the StrategyStateView port, the loader). Examples import from here:
 * `import { defineStrategy, place, z } from '../src/strategy/index.ts'`.
 */
export { z } from 'zod';

export { defineStrategy, isStrategyDefinition, resolveSetup, warmupOf } from './define.ts';
export type { AnyStrategyDefinition, Params, StrategyDefinition, StrategyHandlers, StrategySetup, StrategySpec, WarmupByInterval } from './define.ts';
export { decimalParam, intervalParam, parseParams } from './params.ts';
// Bars an indicator needs before its value stops depending on where the history started: `warmup: (p) => warmupFor.rsi(p.rsiPeriod)`.
export { WARMUP_TOLERANCE, warmupFor } from './series/warmup-for.ts';
export type { ParamsSchema } from './params.ts';

export { cancel, cancelReplace, place } from './intents/intents.ts';
export type {
  CancelIntent,
  CancelReplaceIntent,
  CancelReplaceIntentInput,
  HandlerResult,
  Intent,
  IntentInput,
  IntentKind,
  OrderFieldsOf,
  PlaceIntent,
  PlaceIntentInput,
} from './intents/intents.ts';
export { MAX_INTENTS_PER_CALL, TAG_PATTERN, checkIntents } from './intents/intent-schema.ts';

// Stop-loss, take-profit, trailing stop and time limit for a long position, kept as one exit order.
export { EXIT_REASONS, ExitsConfigError, PositionExits, exits, parseExitsConfig } from './exits/exits.ts';
export type { ExitOrder, ExitReason, ExitState, ExitsConfig } from './exits/exits.ts';
// Cooldown, stoploss guard, max drawdown, low profit: locks that keep a strategy from entering for a while.
export { PROTECTION_NAMES, Protections, ProtectionsConfigError, parseProtectionsConfig, protections } from './exits/protections.ts';
export type { ClosedTrade, ProtectionLock, ProtectionName, ProtectionsConfig, ProtectionsState } from './exits/protections.ts';

export type { StrategyContext } from './context.ts';
export type { AdxLines, BarSeries, BollingerLines, LineSource, MacdLines, StochasticLines } from './series/bar-series.ts';
export type { InstrumentView } from './instrument-view.ts';
export { crossover, crossunder } from './series/line.ts';
export type { Line, LineLike } from './series/line.ts';

export { StrategyRunner, createRunner } from './runner.ts';
export type { AnyStrategyRunner, RunnerStatus, StrategyRunnerOptions } from './runner.ts';
export type { StrategyStateView } from './state-view.ts';

export { DEFAULT_STRATEGIES_DIR, listStrategies, loadStrategy, resolveStrategy } from './loading/loader.ts';
export type { LoadOptions, LoadedStrategy } from './loading/loader.ts';

export { RunnerInputError, StrategyContextError, StrategyDefinitionError, StrategyLoadError, StrategyParamsError } from './errors.ts';
export type { StrategyLoadErrorCode } from './errors.ts';

export { HANDLER_NAMES, INTERVALS, TERMINAL_STATUSES, TIME_IN_FORCE } from './types.ts';
export type {
  Amount,
  Balance,
  BalanceInput,
  Bar,
  BookTop,
  BookTopInput,
  Denied,
  Fill,
  FillInput,
  HandlerName,
  Interval,
  OpenOrder,
  OpenOrderInput,
  OrderSide,
  OrderStatus,
  OrderType,
  OrderUpdate,
  OrderUpdateInput,
  Position,
  PositionInput,
  StopReason,
  StrategyFailure,
  StrategyLogEntry,
  StrategyPlotEntry,
  PlotOptions,
  PlotPane,
  TimeInForce,
  Trade,
  TradeInput,
} from './types.ts';

// Indicators (pure, number-based) for authors who keep their own, and money helpers.
export {
  Adx,
  Atr,
  BaseIndicator,
  Bollinger,
  CrossDetector,
  Ema,
  Highest,
  Lowest,
  Macd,
  Rsi,
  Sma,
  StdDev,
  Stochastic,
  Vwap,
  adx,
  atr,
  bollinger,
  crossedAbove,
  crossedBelow,
  ema,
  highest,
  lowest,
  macd,
  rsi,
  sma,
  stddev,
  stochastic,
  trueRange,
  vwap,
} from '../core/indicators/index.ts';
export type {
  AdxValue,
  BollingerBands,
  Candle,
  CandleField,
  CandleText,
  Crossing,
  Hlcv,
  Indicator,
  MacdValue,
  StochasticValue,
} from '../core/indicators/index.ts';
export { D, dec, toWire } from '../core/money/decimal.ts';
export type { Dec, DecimalLike } from '../core/money/decimal.ts';
