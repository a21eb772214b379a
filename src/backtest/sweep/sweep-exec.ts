/**
 * Running one BacktestJob in this thread: load the strategy (cached by reference), parse the
 * params and the instrument, stream the bars, call runBacktest, compute the metrics (and, when the
 * job asks, a thinned equity curve: a walk-forward's test runs). A failure of
 * the job (bad params, a throwing backtest) is an outcome with the message, never a crash of the
 * worker: one bad grid point must not stop a sweep.
 */
import { parseInstrument } from '../../core/market/instrument.ts';
import type { AnyStrategyDefinition, StrategySetup } from '../../strategy/define.ts';
import { loadStrategy } from '../../strategy/loading/loader.ts';
import { parseParams } from '../../strategy/params.ts';
import type { FillModel } from '../run/fill-model.ts';
import { fmtTime } from '../metrics/metrics-format.ts';
import { computeMetrics } from '../metrics/metrics.ts';
import { thinnedEquity } from '../output/equity-thin.ts';
import { runBacktest } from '../run/run-backtest.ts';
import type { BarInput } from '../sources/bar-input.ts';
import { barsBefore, barsOf, symbolsBars } from './sweep-data.ts';
import { warmupHistoryStart } from '../sources/warmup-span.ts';
import { resolveSetup } from '../../strategy/define.ts';
import { INTERVALS } from '../../strategy/types.ts';
import type { Interval } from '../../strategy/types.ts';
import type { BacktestJob, DataSource, JobOutcome } from './sweep-job.ts';
import type { BacktestRun } from '../types.ts';
import type { StrategyLogEntry } from '../../strategy/types.ts';

const isInterval = (i: string): i is Interval => (INTERVALS as readonly string[]).includes(i);

const strategies = new Map<string, Promise<AnyStrategyDefinition>>();

function strategyOf(job: BacktestJob): Promise<AnyStrategyDefinition> {
  const key = JSON.stringify([job.strategy, job.strategiesDir, job.cwd]);
  let p = strategies.get(key);
  if (!p) {
    const options = { ...(job.strategiesDir ? { strategiesDir: job.strategiesDir } : {}), ...(job.cwd ? { cwd: job.cwd } : {}) };
    p = loadStrategy(job.strategy, options).then((l) => l.definition);
    strategies.set(key, p);
  }
  return p;
}

export async function executeJob(job: BacktestJob): Promise<JobOutcome> {
  try {
    const strategy = await strategyOf(job);
    const params = parseParams(strategy.name, strategy.params, { ...job.baseParams, ...job.params }) as Record<string, unknown>;
    // What the strategy logged: counted, and the first line kept (a sweep writes no log file).
    let logs = 0;
    let firstLog: string | undefined;
    const onLog = (entry: StrategyLogEntry): void => {
      if (logs++ === 0) firstLog = `${fmtTime(entry.time)}  ${entry.message}`;
    };
    const run = job.symbols !== undefined && job.symbols.length > 1 ? runSeveralJob(job, strategy, params, onLog) : runBacktest({
      strategy,
      params,
      symbol: job.symbol,
      interval: job.interval,
      bars: barsOf(job.data, job.symbol, job.interval, job.window),
      ...historyOf(job, strategy, params),
      instrument: parseInstrument(job.instrument),
      fees: job.fees,
      balances: job.balances,
      ...(job.fillModel ? { fillModel: job.fillModel as FillModel } : {}),
      ...(job.data.kind === 'journal' && job.data.detail === true ? { detailed: true } : {}),
      onLog,
    });
    return {
      ok: true,
      metrics: computeMetrics(run),
      barCount: run.barCount,
      from: run.from,
      to: run.to,
      denials: run.denials.length,
      strategyFailures: run.strategyFailures.length,
      ...(run.strategyFailures[0] ? { firstFailure: failureText(run.strategyFailures[0]) } : {}),
      logs,
      ...(firstLog === undefined ? {} : { firstLog }),
      ...(run.notices === undefined || run.notices.length === 0 ? {} : { notices: run.notices }),
      ...(job.curvePoints === undefined ? {} : { equity: thinnedEquity(run, job.curvePoints) }),
    };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * A job of several symbols (SweepJob.symbols): each symbol's bars from its source, cut to the
 * job's window in periods (sweep-data.ts symbolsBars), its rules parsed here; run in one account.
 * Fills are played on the stored bars when a symbol's journal source says `detail`. Without a
 * window, each symbol gets the bars before its source's `from` a warmup per interval needs (startupOf).
 */
function runSeveralJob(job: BacktestJob, strategy: AnyStrategyDefinition, params: Record<string, unknown>, onLog: (entry: StrategyLogEntry) => void): BacktestRun {
  const list = job.symbols ?? [];
  const bars = symbolsBars(job, list, job.window);
  const detail = list.some((s) => isDetailed(s.data ?? job.data));
  const setup = (): StrategySetup => resolveSetup(strategy, params as never);
  return runBacktest({
    strategy,
    params,
    interval: job.interval,
    symbols: list.map((s, i) => {
      const b = bars[i] as (typeof bars)[number];
      const history = b.history !== undefined ? { history: b.history } : job.window === undefined ? startupOf(s.data ?? job.data, s.symbol, job.interval, setup) : {};
      return { symbol: s.symbol, bars: b.bars, instrument: parseInstrument(s.instrument), ...history };
    }),
    fees: job.fees,
    balances: job.balances,
    ...(job.fillModel ? { fillModel: job.fillModel as FillModel } : {}),
    ...(detail ? { detailed: true } : {}),
    onLog,
  });
}

const isDetailed = (d: DataSource): boolean => d.kind === 'journal' && d.detail === true;

/** A stopped strategy's failure as one line (what the sweep table and JSON show). */
function failureText(f: { readonly handler: string; readonly time: number; readonly message: string }): string {
  return `${f.handler} at ${fmtTime(f.time)}: ${f.message}`;
}

/**
 * The bars before the job's window it asks for as history (BarWindow.history), as runBacktest
 * options; without a window, a journal range's bars before `from` that a warmup per interval
 * needs, as `halyard backtest --from` loads them (warmup-span.ts).
 */
function historyOf(job: BacktestJob, strategy: AnyStrategyDefinition, params: Record<string, unknown>): { history?: Iterable<BarInput> } {
  const w = job.window;
  if (w === undefined) return startupOf(job.data, job.symbol, job.interval, () => resolveSetup(strategy, params as never));
  const n = Math.min(w.history ?? 0, w.skip);
  if (n <= 0) return {};
  return { history: barsOf(job.data, job.symbol, job.interval, { skip: w.skip - n, take: n }) };
}

/** A journal range's bars before its `from` that a warmup per interval needs (none from a synthetic source or without `from`). */
function startupOf(data: DataSource, symbol: string, interval: string, setup: () => StrategySetup): { history?: Iterable<BarInput> } {
  const from = data.kind === 'journal' ? data.from : undefined;
  if (from === undefined || !isInterval(interval)) return {};
  const start = warmupHistoryStart(setup(), interval, from);
  return start === undefined ? {} : { history: barsBefore(data, symbol, interval, start, from) };
}
