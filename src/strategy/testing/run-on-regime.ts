/**
 * The testing kit's backtest helper: run a strategy through `runBacktest` (the real engine, the
 * same fill model as `halyard backtest`) on one of the canned synthetic markets (slowUp, sharpUp,
 * flat, slowDown, sharpDown, upThenDown, ...), deterministic per seed, and get back what a test
 * asserts on: the intents with their times, the fills, the strategy's log lines, the whole run
 * (trades, equity, denials, failures) and its metrics (the summary's figures, computed when read).
 *
 *   const { intents, fills, run, metrics } = runOnRegime(smaCrossover, 'upThenDown', { fast: 10, slow: 30 });
 *   expect(metrics.netPnl).toBeGreaterThan(0);
 *
 * The symbol and interval are the strategy's own (its first, under these params); the market is
 * generated at that interval. Defaults: 1000 bars, seed 1, testInstrument() under the strategy's
 * symbol, 100 000 of the quote asset, fees 0.1% maker and taker.
 *
 * Several symbols in one account (run-several.ts): give each symbol its market, a canned name or
 * candles of its own (candlesFromCloses), in place of the one regime:
 *
 *   const { run } = runOnRegime(pairRotation, { BTCPHP: 'slowUp', ETHPHP: 'sharpDown' }, { lookback: 12 });
 *
 * The symbols are the record's, in its order (a strategy with a `symbols` parameter gets them unless
 * `params` gives it); the i-th symbol's canned market is generated with the seed + i, so two
 * symbols of one regime differ. Rules: `instruments[symbol]`, else testInstrument() under its
 * name; the balances default to 100 000 of the first symbol's quote asset.
 */
import type { Instrument } from '../../core/market/instrument.ts';
import { intervalMs } from '../../core/market/intervals.ts';
import type { FeeRates } from '../../core/matching/index.ts';
import type { Candle } from '../../core/indicators/candle.ts';
import { CANNED_MARKETS, seedOf } from '../../core/synthetic/index.ts';
import type { CannedMarketName, CannedOptions, Seed } from '../../core/synthetic/index.ts';
import { paramNames } from '../../backtest/sources/cli-input.ts';
import type { FillModel } from '../../backtest/run/fill-model.ts';
import { computeMetrics } from '../../backtest/metrics/metrics.ts';
import { runBacktest } from '../../backtest/run/run-backtest.ts';
import type { IntentRecord } from '../../backtest/run/run-backtest.ts';
import type { BacktestFill, BacktestMetrics, BacktestRun } from '../../backtest/types.ts';
import type { AnyStrategyDefinition } from '../define.ts';
import { resolveSetup } from '../define.ts';
import { parseParams } from '../params.ts';
import type { StrategyLogEntry } from '../types.ts';
import { testInstrument } from './test-instrument.ts';

export interface RegimeRunOptions {
  readonly seed?: Seed;
  readonly bars?: number;
  readonly instrument?: Instrument;
  /** Of several symbols: each one's rules (default testInstrument() under its name). */
  readonly instruments?: Readonly<Record<string, Instrument>>;
  /** Default: 100 000 of the instrument's quote asset. */
  readonly balances?: Readonly<Record<string, string>>;
  readonly fees?: FeeRates;
  readonly fillModel?: FillModel;
  /** Generator options (start price, tick, start time...). */
  readonly market?: CannedOptions;
}

export interface RegimeRun {
  readonly intents: readonly IntentRecord[];
  readonly fills: readonly BacktestFill[];
  /** What the strategy logged (`ctx.log`), in order, at the backtest's times. */
  readonly logs: readonly StrategyLogEntry[];
  readonly run: BacktestRun;
  /**
   * The run's metrics, as `halyard backtest` prints them (net PnL, return, buy and hold, max
   * drawdown, Sharpe, win rate, profit factor, trades...: src/backtest/metrics/metrics.ts), computed on
   * first read.
   */
  readonly metrics: BacktestMetrics;
}

/** Of several symbols: each symbol's market, a canned one by name or candles of its own (oldest first). */
export type SymbolMarkets = Readonly<Record<string, CannedMarketName | readonly Candle[]>>;

function cannedMarket(regime: CannedMarketName) {
  const market = CANNED_MARKETS[regime];
  if (!market) throw new RangeError(`unknown regime '${String(regime)}' (one of ${Object.keys(CANNED_MARKETS).join(', ')})`);
  return market;
}

export function runOnRegime(strategy: AnyStrategyDefinition, regime: CannedMarketName | SymbolMarkets, params: Record<string, unknown> = {}, options: RegimeRunOptions = {}): RegimeRun {
  if (typeof regime !== 'string') return runOnMarkets(strategy, regime, params, options);
  const setup = resolveSetup(strategy, parseParams(strategy.name, strategy.params, params));
  const symbol = setup.symbols[0] as string;
  const interval = setup.intervals[0] as (typeof setup.intervals)[number];
  const ms = intervalMs(interval);
  if (ms === undefined) throw new RangeError(`runOnRegime: the canned markets have fixed bar lengths; '${interval}' has none`);
  const instrument = options.instrument ?? testInstrument({ symbol });
  const market = cannedMarket(regime);
  const bars = market(options.seed ?? 1, options.bars ?? 1000, { intervalMs: ms, ...options.market });
  const intents: IntentRecord[] = [];
  const logs: StrategyLogEntry[] = [];
  const run = runBacktest({
    strategy,
    params,
    symbol,
    interval,
    bars,
    instrument,
    fees: options.fees ?? { maker: '0.001', taker: '0.001' },
    balances: options.balances ?? { [instrument.quoteAsset]: '100000' },
    ...(options.fillModel ? { fillModel: options.fillModel } : {}),
    onIntent: (r) => intents.push(r),
    onLog: (e) => logs.push(e),
    // What the strategy plots (ctx.plot) is in run.plots, for a test to read.
    recordPlots: true,
  });
  return regimeRun(run, intents, logs);
}

/** runOnRegime of several symbols, each on its own market, in one account. */
function runOnMarkets(strategy: AnyStrategyDefinition, markets: SymbolMarkets, params: Record<string, unknown>, options: RegimeRunOptions): RegimeRun {
  const symbols = Object.keys(markets);
  if (symbols.length === 0) throw new RangeError('runOnRegime: give at least one symbol its market');
  const given = paramNames(strategy.params).includes('symbols') && params['symbols'] === undefined ? { ...params, symbols } : params;
  const setup = resolveSetup(strategy, parseParams(strategy.name, strategy.params, given));
  const interval = setup.intervals[0] as (typeof setup.intervals)[number];
  const ms = intervalMs(interval);
  if (ms === undefined) throw new RangeError(`runOnRegime: the canned markets have fixed bar lengths; '${interval}' has none`);
  const seed = seedOf(options.seed ?? 1);
  const legs = symbols.map((symbol, i) => {
    const market = markets[symbol] as CannedMarketName | readonly Candle[];
    const bars = typeof market === 'string' ? cannedMarket(market)(seed + i, options.bars ?? 1000, { intervalMs: ms, ...options.market }) : market;
    return { symbol, bars, instrument: options.instruments?.[symbol] ?? testInstrument({ symbol }) };
  });
  const intents: IntentRecord[] = [];
  const logs: StrategyLogEntry[] = [];
  const run = runBacktest({
    strategy,
    params: given,
    interval,
    symbols: legs,
    fees: options.fees ?? { maker: '0.001', taker: '0.001' },
    balances: options.balances ?? { [(legs[0] as (typeof legs)[number]).instrument.quoteAsset]: '100000' },
    ...(options.fillModel ? { fillModel: options.fillModel } : {}),
    onIntent: (r) => intents.push(r),
    onLog: (e) => logs.push(e),
    recordPlots: true,
  });
  return regimeRun(run, intents, logs);
}

function regimeRun(run: BacktestRun, intents: readonly IntentRecord[], logs: readonly StrategyLogEntry[]): RegimeRun {
  let metrics: BacktestMetrics | undefined;
  return {
    intents,
    fills: run.fills,
    logs,
    run,
    get metrics() {
      return (metrics ??= computeMetrics(run));
    },
  };
}
