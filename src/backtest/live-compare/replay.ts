/**
 * Replays one strategy of a live run through the backtester (run-backtest.ts, run-several.ts for
 * several symbols): the same definition and params, the bars the run recorded with those before it
 * as warm-up, the run's id (so client order ids come out as the live ones did while the two sides
 * decide alike), its starting balances and the fee rates its fills paid, on the chosen fill model.
 */
import type { Instrument } from '../../core/market/index.ts';
import type { KlineInterval } from '../../data/intervals.ts';
import type { Journal } from '../../journal/journal.ts';
import type { LiveRunRecord } from '../../journal/runs/live-run-store.ts';
import { resolveSetup, warmupOf, type AnyStrategyDefinition } from '../../strategy/define.ts';
import { parseParams } from '../../strategy/params.ts';
import { INTERVALS, type Interval } from '../../strategy/types.ts';
import { resolveFillModel, type FillModel, type ResolvedFillModel } from '../run/fill-model.ts';
import type { IntentRecord } from '../record/recorder.ts';
import { runBacktest } from '../run/run-backtest.ts';
import type { BacktestRun } from '../types.ts';
import type { RecordedBar } from './bars.ts';
import { barMs, liveFeeRates, runBalances, runBars } from './replay-input.ts';

export interface ReplayOptions {
  readonly journal: Journal;
  readonly run: LiveRunRecord;
  readonly definition: AnyStrategyDefinition;
  /** The params the run recorded for it. */
  readonly params: unknown;
  /** A symbol's rules (and configured fees), as the backtest command finds them. */
  readonly rules: (symbol: string) => { instrument: Instrument; fees?: { maker: string; taker: string } | undefined };
  /** --fee: both rates; else the live fills' rates, else the configured ones, else 0.001. */
  readonly fee?: string | undefined;
  /** The starting balances (--balance, the strategy's capital); else the run's snapshot. */
  readonly balances?: Readonly<Record<string, string>> | undefined;
  /** Where `balances` came from, for the report. */
  readonly balancesFrom?: string | undefined;
  readonly fillModel?: FillModel | undefined;
}

export interface Replay {
  readonly params: Record<string, unknown>;
  readonly symbols: readonly string[];
  readonly interval: Interval;
  readonly backtest: BacktestRun;
  readonly intents: IntentRecord[];
  readonly bars: ReadonlyMap<string, readonly RecordedBar[]>;
  readonly historyBars: number;
  readonly fees: { maker: string; taker: string };
  readonly feesFrom: string;
  readonly balances: Record<string, string>;
  readonly balancesFrom: string;
  readonly fillModel: ResolvedFillModel;
  readonly baseAsset: (symbol: string) => string | undefined;
}

export function replayStrategy(o: ReplayOptions): Replay {
  const def = o.definition;
  const params = parseParams(def.name, def.params, o.params ?? {}) as Record<string, unknown>;
  const setup = resolveSetup(def, params as never);
  // The shortest declared interval is the run's; longer ones are made from it (run-backtest.ts).
  const interval = [...setup.intervals].sort((a, b) => INTERVALS.indexOf(a) - INTERVALS.indexOf(b))[0] as Interval;
  // Enough of the run's interval to cover every declared interval's warm-up.
  const historyBars = Math.max(0, ...setup.intervals.map((iv) => warmupOf(setup, iv) * Math.ceil(barMs(iv) / barMs(interval))));
  const rules = new Map(setup.symbols.map((s) => [s, o.rules(s)]));
  const instrument = (s: string) => (rules.get(s) as { instrument: Instrument }).instrument;
  const baseAsset = (s: string) => rules.get(s)?.instrument.baseAsset;
  const legs = setup.symbols.map((symbol) => ({ symbol, ...runBars(o.journal, o.run, symbol, interval as KlineInterval, historyBars) }));
  const fees = feesOf(o, setup.symbols, rules, baseAsset);
  const quotes = [...new Set(setup.symbols.map((s) => instrument(s).quoteAsset))];
  const bases = [...new Set(setup.symbols.map((s) => instrument(s).baseAsset))];
  const start = o.balances === undefined ? runBalances(o.journal, o.run, quotes, bases) : { balances: { ...o.balances }, from: o.balancesFrom ?? 'given' };
  const intents: IntentRecord[] = [];
  const common = { strategy: def, params, interval, fees: { maker: fees.maker, taker: fees.taker }, balances: start.balances, fillModel: o.fillModel ?? {}, runId: o.run.id, onIntent: (r: IntentRecord) => intents.push(r) };
  const backtest =
    legs.length === 1
      ? runBacktest({ ...common, symbol: legs[0]!.symbol, instrument: instrument(legs[0]!.symbol), bars: legs[0]!.bars, ...(legs[0]!.history.length > 0 ? { history: legs[0]!.history } : {}) })
      : runBacktest({ ...common, symbols: legs.map((l) => ({ symbol: l.symbol, instrument: instrument(l.symbol), bars: l.bars, ...(l.history.length > 0 ? { history: l.history } : {}) })) });
  return {
    params,
    symbols: setup.symbols,
    interval,
    backtest,
    intents,
    bars: new Map(legs.map((l) => [l.symbol, l.bars])),
    historyBars: Math.max(0, ...legs.map((l) => l.history.length)),
    fees: { maker: fees.maker, taker: fees.taker },
    feesFrom: fees.from,
    balances: start.balances,
    balancesFrom: start.from,
    fillModel: resolveFillModel(o.fillModel),
    baseAsset,
  };
}

function feesOf(o: ReplayOptions, symbols: readonly string[], rules: Map<string, { fees?: { maker: string; taker: string } | undefined }>, baseAsset: (s: string) => string | undefined): { maker: string; taker: string; from: string } {
  if (o.fee !== undefined) return { maker: o.fee, taker: o.fee, from: '--fee' };
  const configured = symbols.map((s) => rules.get(s)?.fees).find((f) => f !== undefined) ?? { maker: '0.001', taker: '0.001' };
  const paid = liveFeeRates(o.journal, o.run.id, baseAsset);
  if (paid.maker === undefined && paid.taker === undefined) return { ...configured, from: 'the configured rates (no live fill to read them from)' };
  const maker = paid.maker ?? configured.maker;
  const taker = paid.taker ?? configured.taker;
  const from = paid.maker !== undefined && paid.taker !== undefined ? "the rates the live fills paid" : `the rate the live ${paid.maker !== undefined ? 'maker' : 'taker'} fills paid, the configured ${paid.maker !== undefined ? 'taker' : 'maker'} rate`;
  return { maker, taker, from };
}
