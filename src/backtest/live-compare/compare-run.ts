/**
 * backtest/live-compare/: a live run against its replay, each difference explained. The last
 * backtest folder: it may import any other.
 *
 * Live against backtest for a whole run (issue 21 deliverable 6): the live run chosen from the
 * journal (by id, else the latest live or sandbox run), each of its strategies replayed on the
 * bars it recorded (replay.ts), and its trades against the replay's (compare-trades.ts), trade by
 * trade. What cannot be compared (no run, a strategy that cannot be loaded, no bars for the run's
 * span, no balances) is a ReplayInputError naming what is missing.
 */
import type { Instrument } from '../../core/market/index.ts';
import type { Journal } from '../../journal/journal.ts';
import type { LiveRunRecord, RunStrategy } from '../../journal/runs/live-run-store.ts';
import { fmtTime } from '../metrics/metrics-format.ts';
import type { AnyStrategyDefinition } from '../../strategy/define.ts';
import type { FillModel } from '../run/fill-model.ts';
import { BarIndex } from './bars.ts';
import { compareTrades } from './compare-trades.ts';
import { backtestTrades } from './backtest-trades.ts';
import { liveTrades } from './live-trades.ts';
import { replayStrategy } from './replay.ts';
import { barMs, ReplayInputError } from './replay-input.ts';
import type { LiveComparison, StrategyComparison } from './types.ts';

export interface CompareRunOptions {
  readonly journal: Journal;
  /** The run's id; default the latest live or sandbox run. */
  readonly runId?: string | undefined;
  /**
   * Loads a strategy the run recorded (by the reference its config gave, else its name), under the
   * run's name for it (its client order ids' key), with the capital its config gave it, if any.
   */
  readonly load: (strategy: RunStrategy, run: LiveRunRecord) => Promise<LoadedRunStrategy>;
  readonly rules: (symbol: string, at: number) => { instrument: Instrument; fees?: { maker: string; taker: string } | undefined };
  readonly fee?: string | undefined;
  readonly balances?: Readonly<Record<string, string>> | undefined;
  readonly fillModel?: FillModel | undefined;
}

/** The handlers a strategy runs between bars live (market events the backtest does not replay). */
function betweenBarHandlers(d: AnyStrategyDefinition): string[] {
  const spec = d as { onTrade?: unknown; onBookTop?: unknown };
  return [...(typeof spec.onTrade === 'function' ? ['trades (onTrade)'] : []), ...(typeof spec.onBookTop === 'function' ? ['book tops (onBookTop)'] : [])];
}

/** The run asked for, or the latest; none is a ReplayInputError listing what the journal holds. */
export function chooseRun(journal: Journal, runId: string | undefined): LiveRunRecord {
  const runs = journal.liveRuns.list();
  if (runId === undefined) {
    const last = runs[runs.length - 1];
    if (last === undefined) throw new ReplayInputError(`${journal.file} holds no live run: \`halyard run --config BOT.json\` (or \`npm start\`) journals one`);
    return last;
  }
  const run = journal.liveRuns.get(runId);
  if (run === undefined || (run.kind !== 'live' && run.kind !== 'sandbox')) {
    const listed = runs.slice(-10).map((r) => `${r.id} (${r.kind}, ${fmtTime(r.startedAt)})`);
    throw new ReplayInputError(`${journal.file} holds no live run '${runId}': ${listed.length === 0 ? 'it holds no live run at all' : `its live runs: ${listed.join(', ')}`}`);
  }
  return run;
}

export interface LoadedRunStrategy {
  readonly definition: AnyStrategyDefinition;
  /** Its sub-ledger in the run's config: what it could spend, the replay's starting balances. */
  readonly capital?: Readonly<Record<string, string>> | undefined;
}

export async function compareRun(o: CompareRunOptions): Promise<LiveComparison> {
  const run = chooseRun(o.journal, o.runId);
  if (run.strategies.length === 0) throw new ReplayInputError(`run ${run.id} recorded no strategies: nothing to replay`);
  const strategies: StrategyComparison[] = [];
  for (const s of run.strategies) {
    const { definition, capital } = await o.load(s, run);
    const replay = replayStrategy({
      journal: o.journal,
      run,
      definition,
      params: s.params,
      rules: (symbol) => o.rules(symbol, run.startedAt),
      fee: o.fee,
      balances: o.balances ?? capital,
      balancesFrom: o.balances !== undefined ? '--balance' : capital !== undefined ? "the strategy's capital in the run's config" : undefined,
      fillModel: o.fillModel,
    });
    const bars = new BarIndex(replay.bars);
    const live = liveTrades(o.journal, run.id, s.name);
    const bt = backtestTrades(run.id, definition.name, replay.intents, replay.backtest.fills);
    const pairs = compareTrades({
      strategy: s.name,
      live: live.trades,
      backtest: bt,
      toleranceMs: 2 * barMs(replay.interval),
      liveReasons: live.reasons,
      ctx: { bars, fillModel: replay.fillModel, fees: replay.fees, baseAsset: replay.baseAsset, liveEnd: run.endedAt ?? undefined, betweenBars: betweenBarHandlers(definition) },
    });
    const notes = [
      ...(definition.name === s.name ? [] : [`the run recorded the strategy as '${s.name}', its file defines '${definition.name}': client order ids differ, trades are paired by time`]),
      ...replay.backtest.strategyFailures.map((f) => `the replay's ${f.handler} failed at ${fmtTime(f.time)}: ${f.message}`),
      ...(replay.backtest.notices ?? []),
      ...replay.backtest.denials.slice(0, 5).map((d) => `the replay denied an order at ${fmtTime(d.time)}: ${d.reasons.join('; ')}`),
    ];
    strategies.push({
      strategy: s.name,
      params: replay.params,
      symbols: replay.symbols,
      interval: replay.interval,
      from: replay.backtest.from,
      to: replay.backtest.to,
      bars: replay.backtest.barCount,
      historyBars: replay.historyBars,
      fees: replay.fees,
      feesFrom: replay.feesFrom,
      balances: replay.balances,
      balancesFrom: replay.balancesFrom,
      fillModel: { ...replay.fillModel },
      pairs,
      notes,
    });
  }
  return { journal: o.journal.file, runId: run.id, runKind: run.kind, startedAt: run.startedAt, endedAt: run.endedAt, exitReason: run.exitReason, strategies };
}
