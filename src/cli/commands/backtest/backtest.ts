/**
 * `halyard backtest --strategy NAME|PATH --symbol S[,S2...] --interval I [--from DATE] [--to DATE]
 *  [--param k=v ...] [--fee 0.001] [--balance ASSET=AMOUNT ...] [--journal PATH] [--slippage-bps N]
 *  [--limit-fill through|touch] [--volume-share X] [--json FILE] [--report FILE] [--out-dir DIR]
 *  [--csv] [--series sampled|csv|json]`
 *
 * Runs a strategy over the journal's klines on the one code path (src/backtest/run/run-backtest.ts;
 * fill model in src/backtest/run/fill-model.ts), prints the summary, and writes the run as JSON and
 * the HTML report (default names under --out-dir); the per-bar series sampled in the JSON, or
 * whole with --series (series-output.ts). The rules (filters) come from --exchange-info,
 * else the journal's exchangeInfo snapshot in force at the start, else the sandbox config's
 * symbol; the fees from --fee, else that symbol's config, else 0.1%. These options, --balance,
 * --detail and the fill model's are read in run-options.ts, shared with `halyard check` so that a
 * check runs the strategy as its backtest does. Bars made from a journal's shorter ones leave out
 * a partial period at either end (journal-series.ts), and the summary's `bars` line names it. Bad
 * input (unknown strategy, bad parameter, a range or symbol without bars or with only partial
 * periods, a file that is not a journal) is a usage error, exit code 2. Several symbols (`--symbol`
 * repeated or comma-separated) run in one account: backtest-several.ts.
 */
import { rm, writeFile } from 'node:fs/promises';
import { makeDirs } from '../../../fs/make-dirs.ts';
import path from 'node:path';
import type { Argv } from 'yargs';
import { loadConfig } from '../../../config/load.ts';
import { parseParamArgs, paramNames } from '../../../backtest/sources/cli-input.ts';
import { fillsCsv, tradesCsv } from '../../../backtest/output/csv-export.ts';
import { StrategyLogFile } from '../../../backtest/output/log-file.ts';
import { runForFile, SERIES_MODES, type SeriesMode } from '../../../backtest/output/series-output.ts';
import { writeSeriesCsv } from '../../../backtest/output/series-csv.ts';
import { computeMetrics } from '../../../backtest/metrics/metrics.ts';
import { fullGc } from '../../../backtest/output/full-gc.ts';
import { tightenHeapGrowth } from '../../../backtest/output/heap-growth.ts';
import { runOverview } from '../../../backtest/compare/run-overview.ts';
import type { RunOverview } from '../../../backtest/compare/run-overview.ts';
import { jsonReplacer } from '../../../backtest/metrics/metrics-json.ts';
import { writeJsonFile } from '../../../data/json-file.ts';
import { writeReport } from '../../../backtest/report/html-report.ts';
import { bucketForRange, CandleTap } from '../../../backtest/report/candle-tap.ts';
import { runBacktest } from '../../../backtest/run/run-backtest.ts';
import { chooseSeries, detailSeries, seriesBars, seriesSpan, warmupHistory } from '../../../backtest/sources/journal-series.ts';
import type { JournalSeries, SeriesSpan } from '../../../backtest/sources/journal-series.ts';
import { canResample } from '../../../data/resample.ts';
import type { KlineInterval } from '../../../core/market/intervals.ts';
import { formatSummary } from '../../../backtest/output/summary.ts';
import { BREAKDOWNS, formatBreakdown } from '../../../backtest/metrics/breakdown.ts';
import type { Breakdown } from '../../../backtest/metrics/breakdown.ts';
import type { BacktestMetrics, BacktestRun } from '../../../backtest/types.ts';
import { formatTime, notATimeReason, parseTimeText } from '../../../data/time-text.ts';
import { JournalError } from '../../../journal/errors.ts';
import type { Journal } from '../../../journal/journal.ts';
import { gapBefore } from '../../../data/kline-gaps.ts';
import type { KlineGap } from '../../../data/kline-gaps.ts';
import { isKlineInterval } from '../../../data/intervals.ts';
import { checkedGaps } from '../../checked-gaps.ts';
import { resolveSetup } from '../../../strategy/define.ts';
import type { AnyStrategyDefinition } from '../../../strategy/define.ts';
import { HalyardError } from '../../../exchange/errors/errors.ts';
import { loadStrategy } from '../../../strategy/loading/loader.ts';
import { parseParams } from '../../../strategy/params.ts';
import { INTERVALS } from '../../../strategy/types.ts';
import { UsageError } from '../../errors.ts';
import { intOption, numberFlag, numberOption } from '../../options.ts';
import { JOURNAL_OPTION, openExistingJournal } from '../../journal-file.ts';
import { checkOutputDir, checkOutputFile, ioStep } from '../../paths.ts';
import type { CliIo } from '../../io.ts';
import type { GlobalArgs } from '../../with-client.ts';
// A sweep, several symbols and several strategies are loaded when asked for (`await import`): a
// single run, the common case, does not load the sweep's pool, walk-forward, the comparison and
// their reports (24 modules of start-up).
import type { SweepArgs } from './backtest-sweep.ts';
import { feeArg, fillModelArgs, runBalances, runFees, runOptions, symbolRules } from './run-options.ts';
import type { RunOptionArgs } from './run-options.ts';
import { parseSweepSpecs } from '../../../backtest/sweep/sweep-spec.ts';
import { typeAxes } from '../../../backtest/sweep/sweep-grid.ts';
import { SEARCH_KINDS, type SearchKind } from '../../../backtest/sweep/sweep-sample.ts';
import { COMMANDS } from '../catalog.ts';

/** The sweep's number options arrive as text (cli/options.ts reads them). */
type SweepNumbers = 'workers' | 'folds' | 'trainBars' | 'testBars' | 'trials' | 'seed' | 'search';

/** The run options (--fee, --balance, --exchange-info, --detail, the fill model) are run-options.ts's, shared with `halyard check`. */
export interface BacktestArgs extends GlobalArgs, RunOptionArgs, Omit<SweepArgs, SweepNumbers> {
  workers?: string;
  folds?: string;
  trainBars?: string;
  testBars?: string;
  /** yargs' choices hold it to grid, random or tpe. */
  search?: string;
  trials?: string;
  seed?: string;
  strategy?: string;
  /** One symbol; several when repeated (yargs gives an array) or comma-separated. */
  symbol?: string | string[];
  interval?: string;
  from?: string;
  to?: string;
  param?: string[];
  journal?: string;
  json?: string;
  report?: string;
  csv?: boolean;
  /** yargs' choices hold it to SERIES_MODES. */
  series?: string;
  breakdown?: string[];
  outDir?: string;
  /** Not an option: a comparison of strategies asks each run for its overview (BacktestFiles.overview). */
  overview?: boolean;
}

/** The command line's arguments: `--strategy` repeated gives several (compared: backtest-compare.ts). */
export type BacktestCommandArgs = Omit<BacktestArgs, 'strategy'> & { strategy?: string | readonly string[] };

/**
 * The strategies `--strategy` names: repeated (`--strategy a --strategy b`) or comma-separated
 * (`--strategy a,b`); one named twice is refused. A path holding a comma is one strategy only when
 * given alone (the common case: one strategy, any path).
 */
export function strategyNames(arg: string | readonly string[] | undefined): string[] {
  const given = typeof arg === 'string' ? [arg] : [...(arg ?? [])];
  if (given.length === 1 && !(given[0] as string).includes(',')) return given;
  return listArg('--strategy', 'strategy', given);
}

/**
 * A list option's values: repeated or comma-separated, trimmed (then `normalize`d), empty ones
 * dropped; one given twice is refused. [''] when none is left (the option's own check names it).
 */
function listArg(flag: string, noun: string, arg: string | readonly string[] | undefined, normalize: (value: string) => string = (v) => v): string[] {
  const list = (typeof arg === 'string' ? [arg] : [...(arg ?? [])])
    .flatMap((a) => String(a).split(','))
    .map((v) => normalize(v.trim()))
    .filter((v) => v !== '');
  const twice = list.find((v, i) => list.indexOf(v) !== i);
  if (twice !== undefined) throw new UsageError(`${flag} ${twice} is given twice: name each ${noun} once`);
  return list.length === 0 ? [''] : list;
}

/** The strategy `--strategy` names (a name under strategies/ or a path); a load failure is bad input. */
export async function strategyArg(name: string | undefined): Promise<AnyStrategyDefinition> {
  try {
    return (await loadStrategy(name ?? '')).definition;
  } catch (e) {
    if (e instanceof HalyardError) throw new UsageError(e.message);
    throw e;
  }
}

/** The `--param` values, read with the strategy's schema; its symbol and interval parameters default to the run's. */
export function paramArgs(strategy: AnyStrategyDefinition, param: readonly string[] | undefined, symbol: string, interval: string): Record<string, unknown> {
  const raw = usage(() => parseParamArgs(param ?? [], strategy.params));
  const names = paramNames(strategy.params);
  if (names.includes('symbol') && raw['symbol'] === undefined) raw['symbol'] = symbol;
  if (names.includes('interval') && raw['interval'] === undefined) raw['interval'] = interval;
  return raw;
}

/**
 * The symbols `--symbol` names: repeated (`--symbol BTCPHP --symbol ETHPHP`) or comma-separated
 * (`--symbol BTCPHP,ETHPHP`), upper-cased; one given twice is refused.
 */
export function symbolArgs(arg: string | readonly string[] | undefined): string[] {
  return listArg('--symbol', 'symbol', arg, (v) => v.toUpperCase());
}

/**
 * A strategy's parameters as its run reads them, checked (paramArgs: the run's symbol and interval
 * stand in for parameters of those names, several symbols for a `symbols` one; swept parameters'
 * first values stand in), and its setup. A strategy that does not trade the run's symbols and
 * interval with them is bad input.
 */
export function strategyParams(strategy: AnyStrategyDefinition, args: Pick<BacktestArgs, 'param' | 'sweep'>, symbols: readonly string[], interval: string) {
  const raw = paramArgs(strategy, args.param, symbols[0] ?? '', interval);
  if (symbols.length > 1 && paramNames(strategy.params).includes('symbols') && raw['symbols'] === undefined) raw['symbols'] = [...symbols];
  standInSweptParams(strategy, args, raw);
  const params = usage(() => parseParams(strategy.name, strategy.params, raw)) as Record<string, unknown>;
  const setup = usage(() => resolveSetup(strategy, params as never));
  const foreign = symbols.filter((s) => !setup.symbols.includes(s));
  if (foreign.length > 0 || !(setup.intervals as readonly string[]).includes(interval)) {
    throw new UsageError(`strategy '${strategy.name}' trades ${setup.symbols.join(', ')} on ${setup.intervals.join(', ')} with these parameters, not ${symbols.join(', ')} ${interval}`);
  }
  return { params, setup };
}

/**
 * Every value of every axis is checked alone against its parameter's own schema first (a bad one
 * is bad input wherever it stands). A swept parameter needs no --param of its own (a required
 * one included): its first value stands in (in `raw`) while the base parameters are checked; every
 * point is then checked with its own values, and one that breaks only a rule across parameters is skipped.
 */
export function standInSweptParams(strategy: AnyStrategyDefinition, args: Pick<BacktestArgs, 'sweep' | 'param'>, raw: Record<string, unknown>): void {
  const sweep = args.sweep;
  if (sweep === undefined || sweep.length === 0) return;
  const fixed = new Map((args.param ?? []).map((p) => [p.slice(0, p.indexOf('=')).trim(), p.trim()]));
  const specs = usage(() => parseSweepSpecs(sweep));
  const both = specs.find((a) => fixed.has(a.name));
  if (both) throw new UsageError(`parameter '${both.name}' is both fixed (--param ${fixed.get(both.name) ?? ''}) and swept (--sweep ${both.spec}): give one of them`);
  const axes = usage(() => typeAxes(strategy, specs));
  for (const a of axes) if (raw[a.name] === undefined && a.values.length > 0) raw[a.name] = a.values[0];
}

/** The `--param` option of the commands that run a strategy. */
export const PARAM_OPTION = { type: 'string', array: true, describe: 'strategy parameter name=value (repeatable)' } as const;

/**
 * The options naming what a run runs: the strategy and the series (backtest and check). A
 * backtest takes several strategies (`several`: repeated or comma-separated, compared); a check one.
 */
export function strategySeriesOptions(y: Argv<GlobalArgs>, several = false) {
  return y
    .option('strategy', {
      type: 'string',
      demandOption: true,
      ...(several ? { array: true, describe: 'name in strategies/ or a path to a .ts/.js file; several (repeated, or a,b) run on the same bars one after the other and are compared' } : { describe: 'name in strategies/ or a path to a .ts/.js file' }),
    })
    .option('symbol', { type: 'string', demandOption: true, describe: 'symbol, e.g. BTCPHP; several (repeated, or BTCPHP,ETHPHP) run in one account' })
    .option('interval', { type: 'string', demandOption: true, choices: INTERVALS, describe: 'bar interval' });
}

export function backtestCommand(io: CliIo) {
  return {
    ...COMMANDS.backtest,
    builder: (y: Argv<GlobalArgs>) =>
      runOptions(
        strategySeriesOptions(y, true)
          .option('from', { type: 'string', describe: 'first bar open time: 2024-03-01, 2024-03-01T12:00 (UTC) or epoch ms' })
          .option('to', { type: 'string', describe: 'end, exclusive: the last bar opens before it (a bar made from shorter ones holds its whole period; default: the last bar)' })
          .option('param', PARAM_OPTION)
          .option('journal', JOURNAL_OPTION),
      )
        .option('json', { type: 'string', describe: 'write the run and its metrics as JSON here (with --sweep the sweep\'s, with several strategies the comparison\'s)' })
        .option('report', { type: 'string', describe: 'write the HTML report here (with --sweep the sweep\'s, with several strategies the comparison\'s)' })
        .option('csv', { type: 'boolean', describe: 'also write the trades and the fills as CSV beside the JSON (<run>-trades.csv, <run>-fills.csv)' })
        .option('series', { type: 'string', choices: SERIES_MODES, describe: "the per-bar series (equity, position, plotted lines): sampled (default: the JSON's equitySampled, at most 2,000 points keeping each stretch's lowest, highest and deepest drawdown), csv (also every bar in <run>-series.csv beside the JSON), json (every point in the JSON, run.equity and run.plots, as before: about 90 MB a year of 1-minute bars)" })
        .option('breakdown', { type: 'string', array: true, choices: Object.keys(BREAKDOWNS), describe: 'also print the run by calendar day, week or month (UTC): return, end equity, trades closed (repeatable)' })
        .option('out-dir', { type: 'string', default: 'backtest/out', describe: 'folder for the default JSON and report names' })
        .option('sweep', { type: 'string', array: true, describe: 'parameter grid, e.g. --sweep fast=5:20:5 slow=20:60:10 (start:stop:step or a,b,c); runs on worker threads' })
        .option('rank-by', { type: 'string', describe: 'metric that ranks a sweep or several strategies (default sharpe)' })
        .option('workers', numberFlag('worker threads for a sweep (default: the cores; 0 runs it in this process)'))
        .option('search', { type: 'string', choices: SEARCH_KINDS, describe: 'with --sweep: run every grid point (grid, the default), --trials of them drawn at random (random), or --trials proposed round by round from the results so far (tpe: a Tree-structured Parzen Estimator, as Freqtrade\'s hyperopt)' })
        .option('trials', numberFlag('with --search random or tpe: how many distinct grid points to run (at most the grid\'s size)'))
        .option('seed', numberFlag('with --search random or tpe: the seed of the draw (default 1; the same seed draws the same points, and for tpe proposes the same, whatever --workers is)'))
        .option('walk-forward', { type: 'boolean', describe: 'with --sweep: optimise on train windows, report out-of-sample results' })
        .option('folds', numberFlag('walk-forward folds (default 4)'))
        .option('train-bars', numberFlag('walk-forward train window in bars (default 3x the test window)'))
        .option('test-bars', numberFlag('walk-forward test window in bars'))
        .option('anchored', { type: 'boolean', describe: 'walk-forward train windows all start at the first bar' }),
    handler: async (args: BacktestCommandArgs) => {
      await runBacktestCommand(io, args);
    },
  };
}

export function timeArg(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseTimeText(text);
  if (ms === undefined) throw new UsageError(`--${name} '${text}' is not a date (${notATimeReason(text)})`);
  return ms;
}

/**
 * Options that only a sweep, a random or TPE search or a walk-forward reads, given without it, are
 * refused rather than ignored (--search random and tpe need their --trials); so is a single run's CSV output, which
 * a sweep does not write (its --report is the sweep's).
 */
function refuseIdleOptions(args: BacktestArgs): void {
  const sweep = (args.sweep?.length ?? 0) > 0;
  const walkForward = ['--folds', '--train-bars', '--test-bars', '--anchored'] as const;
  const given = { '--folds': args.folds !== undefined, '--train-bars': args.trainBars !== undefined, '--test-bars': args.testBars !== undefined, '--anchored': args.anchored === true };
  for (const flag of walkForward) {
    if (given[flag] && args.walkForward !== true) throw new UsageError(`${flag} is a walk-forward setting: it needs --walk-forward (with --sweep name=start:stop:step ...)`);
  }
  if (args.walkForward && !sweep) throw new UsageError('--walk-forward needs a parameter grid: add --sweep name=start:stop:step ...');
  if (args.rankBy !== undefined && !sweep) throw new UsageError('--rank-by ranks a sweep or several strategies: it needs --sweep name=start:stop:step ... or --strategy given more than once (or drop it for a single run)');
  for (const [flag, isGiven] of [['--workers', args.workers !== undefined], ['--search', args.search !== undefined]] as const) {
    if (isGiven && !sweep) throw new UsageError(`${flag} applies to a sweep: it needs --sweep name=start:stop:step ... (or drop it for a single run)`);
  }
  for (const [flag, isGiven] of [['--trials', args.trials !== undefined], ['--seed', args.seed !== undefined]] as const) {
    if (isGiven && args.search !== 'random' && args.search !== 'tpe') throw new UsageError(`${flag} is a search setting: it needs --search random or --search tpe (with --sweep name=start:stop:step ...)`);
  }
  if ((args.search === 'random' || args.search === 'tpe') && args.trials === undefined) throw new UsageError(`--search ${args.search} needs --trials N: how many grid points to run`);
  if (args.csv === true && sweep) throw new UsageError('--csv is written for a single run, not a sweep (a sweep writes its JSON and its HTML report): drop it, and run the best combination alone for its CSV files');
  if (args.series !== undefined && sweep) throw new UsageError(`--series ${args.series} is written for a single run, not a sweep (a sweep writes no per-bar series): drop it, and run the best combination alone for its series`);
}

const optional = <K extends string>(key: K, value: number | undefined): { [P in K]?: number } => (value === undefined ? {} : ({ [key]: value } as { [P in K]?: number }));

/** Errors of what the user typed (a strategy that does not load, a bad parameter, a bad number) become usage errors. */
export function usage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof HalyardError || e instanceof JournalError || e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
}

/** What the journal holds for a symbol and interval, for the "no bars" messages. */
export function held(journal: Journal): string {
  const series = journal.klines.series();
  if (series.length === 0) return 'it holds no klines (import some with `halyard import` or `halyard record`)';
  return `it holds ${series.map((s) => `${s.symbol} ${s.interval} (${s.count} bars, ${formatTime(s.first)} .. ${formatTime(s.last)})`).join(', ')}`;
}

/** The partial periods of a "no complete bars" message: 'period opening X' or 'periods opening X and Y'. */
export function periodsText(opens: readonly number[]): string {
  return `${opens.length === 1 ? 'period' : 'periods'} opening ${opens.map(formatTime).join(' and ')}`;
}

/**
 * The stored series, or a shorter one that tiles the interval (1m klines backtest on 1h); with
 * --detail, that one, or when the journal lacks it a shorter one that tiles it (1m klines play
 * --detail 5m on 5m bars made from them).
 */
export function pickSeries(journal: Journal, file: string, symbol: string, interval: KlineInterval, detail: KlineInterval | undefined): JournalSeries {
  if (detail !== undefined) {
    const series = detailSeries(journal, symbol, interval, detail);
    if (!series) throw new UsageError(`--detail ${detail}: ${canResample(detail, interval) ? `no ${symbol} ${detail} bars in ${file}, nor shorter ones that make them; ${held(journal)}` : `${detail} bars do not tile ${interval} ones (a shorter interval that divides it)`}`);
    return series;
  }
  const series = chooseSeries(journal, symbol, interval);
  if (!series) throw new UsageError(`no ${symbol} ${interval} bars in ${file}, nor shorter ones that make them; ${held(journal)}`);
  return series;
}

/** What a --detail run's `bars` line adds after "made from its N bars": the bars the fills are played on. */
export function detailText(series: JournalSeries): string {
  if (series.detailed !== true) return '';
  return series.detail === undefined ? ', fills played on them' : `, fills played on ${series.detail} bars made from them`;
}

/** A --detail series as a sweep's context gives it to the workers (backtest-sweep.ts). */
export function detailContext(series: JournalSeries): { detail?: true; detailInterval?: string } {
  if (series.detailed !== true) return {};
  return series.detail === undefined ? { detail: true } : { detail: true, detailInterval: series.detail };
}

/** The gaps a run reported (runBacktest onGap), and how many of their bars record found the exchange had none of. */
export class RunGaps {
  private readonly gaps: KlineGap[] = [];

  constructor(private readonly interval: string) {}

  add(prevOpen: number, open: number): void {
    if (!isKlineInterval(this.interval)) return;
    const g = gapBefore(prevOpen, open, this.interval);
    if (g !== undefined && !('kind' in g)) this.gaps.push(g);
  }

  /** Missing bars inside the ranges `record` checked with the exchange (checkedGaps): minutes it had no trade in. */
  noTradeBars(journal: Journal, symbol: string): number {
    if (!isKlineInterval(this.interval)) return 0;
    return checkedGaps(journal, symbol, this.interval, this.gaps).reduce((sum, g) => sum + (g.noTrades ? g.missing : 0), 0);
  }
}

/**
 * What every strategy-running command reads first, checked: the config, the symbols (the first
 * one alone for one), the interval, and the range (--to after --from).
 */
export function runArgs(args: { config?: unknown; symbol?: string | string[]; interval?: string; from?: string; to?: string }) {
  const config = usage(() => loadConfig(args.config as string | undefined));
  const symbols = symbolArgs(args.symbol);
  const symbol = symbols[0] ?? '';
  const interval = args.interval ?? '';
  if (!(INTERVALS as readonly string[]).includes(interval)) throw new UsageError(`--interval '${interval}' is not one of ${INTERVALS.join(', ')}`);
  const from = timeArg('from', args.from);
  const to = timeArg('to', args.to);
  if (from !== undefined && to !== undefined && to <= from) throw new UsageError(`--to ${formatTime(to)} is not after --from ${formatTime(from)}`);
  return { config, symbols, symbol, interval, from, to };
}

/** Where a run's symbol rules came from, for its `rules` line (the sandbox config's may not be the real exchange's). */
export function rulesText(source: 'file' | 'journal' | 'fallback', file: string | undefined, symbols: readonly string[]): string {
  if (source === 'file') return `exchangeInfo from ${file ?? ''}`;
  if (source === 'journal') return 'exchangeInfo from the journal';
  return `rules from the sandbox config (no exchangeInfo snapshot in the journal lists ${symbols.join(', ')}): tick, lot and notional may not be the real exchange's; give them with --exchange-info FILE`;
}

/** The `rules` lines of a run's symbols: one when they share where their rules came from, else one a symbol. */
export function rulesLines(sources: readonly { symbol: string; source: 'file' | 'journal' | 'fallback'; file?: string | undefined }[]): string[] {
  const first = sources[0];
  if (first === undefined) return [];
  if (sources.every((s) => s.source === first.source && s.file === first.file)) return [`rules   ${rulesText(first.source, first.file, sources.map((s) => s.symbol))}`];
  return sources.map((s) => `rules   ${s.symbol}: ${rulesText(s.source, s.file, [s.symbol])}`);
}

/**
 * What a single run writes and prints, whether of one symbol or several: the JSON (streamed, each
 * entry of the fills, trades and sampled equity on a line of its own; the per-bar series, which
 * for a year of 1-minute bars made it about 90 MB, sampled unless --series asks for every point:
 * series-output.ts; the points written from their columns, never made as objects), the series
 * CSV (--series csv: series-csv.ts), the HTML report, the strategy's log and CSV files
 * under the JSON's name, then the summary, the breakdowns, `notes` (bars made, rules) and the
 * files' paths. `base` is `<strategy>-<symbols>-<interval>`; the range's dates follow it.
 */
export async function writeRunFiles(
  io: CliIo,
  p: {
    run: BacktestRun;
    metrics: BacktestMetrics;
    base: string;
    args: Pick<BacktestArgs, 'json' | 'report' | 'csv' | 'series' | 'breakdown' | 'overview'>;
    outDir: string;
    log: StrategyLogFile;
    writeReportFile: (file: string) => Promise<void>;
    notes: readonly string[];
  },
): Promise<BacktestFiles> {
  const { run, metrics, args, log } = p;
  // The loop's garbage collected before the outputs allocate on top of it (full-gc.ts): a long run's peak RSS.
  if (run.barCount >= GC_FROM_BARS) fullGc();
  const base = `${p.base}-${formatTime(run.from).slice(0, 10)}-${formatTime(run.to).slice(0, 10)}`;
  const jsonFile = args.json ?? path.join(p.outDir, `${base}.json`);
  const reportFile = args.report ?? path.join(p.outDir, `${base}.html`);
  // In the JSON's directory (made by the caller), under its name; printed as it is (relative when
  // it was given so), as the JSON's and the report's paths are.
  const runBase = jsonFile.replace(/\.json$/i, '');
  const logFile = log.close(`${runBase}.log`);
  const series = (args.series ?? 'sampled') as SeriesMode;
  const seriesFile = series === 'csv' ? `${runBase}-series.csv` : undefined;
  // The series CSV's path as printed (relative when the JSON's was given so); the JSON's `run.series.csv` names it.
  await ioStep('write the JSON file', jsonFile, () => writeJsonFile(jsonFile, { run: runForFile(run, series, seriesFile), metrics }, { replacer: jsonReplacer, onlyNonFinite: true, entryPerLine: true }));
  if (seriesFile !== undefined) await ioStep('write the series CSV file', seriesFile, () => writeSeriesCsv(seriesFile, run));
  await ioStep('write the HTML report', reportFile, () => p.writeReportFile(reportFile));
  const csvFiles = args.csv ? [`${runBase}-trades.csv`, `${runBase}-fills.csv`] : [];
  if (args.csv) {
    await ioStep('write the trades CSV file', csvFiles[0] as string, () => writeFile(csvFiles[0] as string, tradesCsv(run.trades), 'utf8'));
    await ioStep('write the fills CSV file', csvFiles[1] as string, () => writeFile(csvFiles[1] as string, fillsCsv(run.fills), 'utf8'));
  }
  const logged = log.count === 0 ? [] : [`Log       ${log.count} line(s) from the strategy; first: ${log.first[0] ?? ''}`];
  const logLine = logFile !== undefined ? [`log     ${logFile}`] : log.error !== undefined ? [`log     not written: ${log.error.message}`] : [];
  const breakdowns = [...new Set(args.breakdown ?? [])].flatMap((by) => ['', ...formatBreakdown(run, metrics, by as Breakdown)]);
  io.out([formatSummary(run, metrics), ...breakdowns, ...logged, '', ...p.notes, `json    ${jsonFile}`, `report  ${reportFile}`, ...csvFiles.map((f) => `csv     ${f}`), ...(seriesFile === undefined ? [] : [`series  ${seriesFile}`]), ...logLine].join('\n'));
  // The thinned curve costs a pass over the run's points (about 50 ms a year of minutes): made only for a comparison.
  return { json: jsonFile, report: reportFile, metrics, ...(args.overview === true ? { overview: runOverview(run) } : {}) };
}

/** Bars from which a run's outputs are written after a full collection, and its old generation grows less (heap-growth.ts): a short run leaves little garbage, not worth it. */
const GC_FROM_BARS = 100_000;

/** What a single backtest wrote, and its figures (a sweep writes its own files and answers undefined). */
export interface BacktestFiles {
  readonly json: string;
  readonly report: string;
  readonly metrics: BacktestMetrics;
  /** Its setup and its equity and drawdown, thinned: what a comparison of strategies shows of it (backtest-compare.ts); made when BacktestArgs.overview asks. */
  readonly overview?: RunOverview;
}

/** One strategy's backtest, a sweep of it, or several strategies compared (backtest-compare.ts). */
export async function runBacktestCommand(io: CliIo, commandArgs: BacktestCommandArgs): Promise<BacktestFiles | undefined> {
  const names = strategyNames(commandArgs.strategy);
  if (names.length > 1) {
    const { runCompareCommand } = await import('./backtest-compare.ts');
    await runCompareCommand(io, { ...commandArgs, strategy: undefined }, names, runOneStrategy);
    return undefined;
  }
  return runOneStrategy(io, { ...commandArgs, strategy: names[0] });
}

async function runOneStrategy(io: CliIo, args: BacktestArgs): Promise<BacktestFiles | undefined> {
  const { config, symbols, symbol, interval, from, to } = runArgs(args);
  const fillModel = fillModelArgs(args);
  feeArg(args.fee);
  refuseIdleOptions(args);
  // Where the results go, checked before any work: a folder that is a file fails only at the end otherwise.
  checkOutputDir(args.outDir ?? 'backtest/out', '--out-dir');
  if (args.json !== undefined) checkOutputFile(args.json, '--json');
  if (args.report !== undefined) checkOutputFile(args.report, '--report');
  const sweepArgs: SweepArgs = {
    ...(args.sweep === undefined ? {} : { sweep: args.sweep }),
    ...(args.rankBy === undefined ? {} : { rankBy: args.rankBy }),
    ...(args.walkForward === undefined ? {} : { walkForward: args.walkForward }),
    ...(args.anchored === undefined ? {} : { anchored: args.anchored }),
    ...optional('workers', intOption('--workers', args.workers, 0, 'a whole number of worker threads >= 0 (0 runs the sweep in this process)')),
    ...(args.search === undefined ? {} : { search: args.search as SearchKind }),
    // Any number here: the grid's size is known only once it is built, and sampleGrid's (tpeGrid's) refusal of 0, a fraction or too many names it.
    ...optional('trials', numberOption('--trials', args.trials, 'a whole number of grid points', () => true)),
    ...optional('seed', intOption('--seed', args.seed, 0, 'a whole number >= 0')),
    ...optional('folds', intOption('--folds', args.folds, 1)),
    ...optional('trainBars', intOption('--train-bars', args.trainBars, 1)),
    ...optional('testBars', intOption('--test-bars', args.testBars, 1)),
  };

  if (symbols.length > 1) {
    const { runSeveralCommand } = await import('./backtest-several.ts');
    return runSeveralCommand(io, args, { config, symbols, interval, from, to, fillModel }, sweepArgs);
  }
  const strategy = await strategyArg(args.strategy);
  const { params, setup } = strategyParams(strategy, args, [symbol], interval);

  const { file, journal } = openExistingJournal(args.journal, io.env, config.journal.path);
  try {
    const series = pickSeries(journal, file, symbol, interval as KlineInterval, args.detail as KlineInterval | undefined);
    const madeFrom = series.stored === series.interval ? undefined : `made from its ${series.stored} bars${detailText(series)}`;
    const made = madeFrom === undefined ? '' : ` (${madeFrom})`;
    // pickSeries found stored bars; the bars they make may still be none (partial periods only).
    const all = seriesSpan(journal, series) as SeriesSpan;
    const span = seriesSpan(journal, series, from, to);
    if (span?.bars === undefined) {
      const asked = from === undefined && to === undefined ? 'the journal' : `${from === undefined ? 'the start' : formatTime(from)} .. ${to === undefined ? 'the end' : formatTime(to)}`;
      const holds = all.bars === undefined ? `${series.stored} bars ${formatTime(all.stored.first)} .. ${formatTime(all.stored.last)} only, no whole ${interval} period` : `${formatTime(all.bars.first)} .. ${formatTime(all.bars.last)}${all.bars.count === undefined ? made : ` (${all.bars.count} bars)`}`;
      if (span === undefined) throw new UsageError(`no ${symbol} ${interval} bars in ${asked}; the journal holds ${holds}`);
      // Stored bars there, but each period they fall in is partial (the journal starts or ends inside it: data/resample.ts).
      const elsewhere = from === undefined && to === undefined ? '' : `; the journal holds ${holds}`;
      throw new UsageError(`no complete ${symbol} ${interval} bars in ${asked}: its ${series.stored} bars there (${formatTime(span.stored.first)} .. ${formatTime(span.stored.last)}) cover only part of the ${interval} ${periodsText(span.partial)}${elsewhere}`);
    }
    const range = span.bars;
    // A warmup per interval gets its bars before --from from the journal; a numeric one is taken from the run's own, as always.
    const history = warmupHistory(journal, series, setup, from, range.first);
    // The periods the stored bars cover only in part at the ends, left out (said on the summary's bars line).
    const leftOut = span.partial.length === 0 ? '' : `; ${span.partial.length} partial ${periodsText(span.partial)} left out`;
    const barsLine = madeFrom === undefined ? [] : [`bars    ${interval} (${madeFrom}${leftOut})`];
    const rules = symbolRules(journal, config, symbol, range.first, args.exchangeInfo);
    const { instrument, source } = rules;
    const fees = runFees(args.fee, [{ symbol, fees: rules.fees }]);
    const balances = runBalances(args.balance, [{ symbol, instrument }]);

    const outDir = args.outDir ?? 'backtest/out';
    if (args.sweep?.length) {
      const ctx = { strategyRef: args.strategy ?? '', strategy, params, symbol, interval, journalFile: file, from, to, fees, balances, fillModel, outDir, json: args.json, report: args.report, ...(series.stored !== series.interval ? { storedInterval: series.stored } : {}), ...detailContext(series) };
      const { runSweepCommand } = await import('./backtest-sweep.ts');
      await runSweepCommand(io, sweepArgs, ctx, rules.raw);
      return undefined;
    }
    // The strategy's log lines go beside the JSON, under a working name until the run's range names the files.
    const runDir = path.dirname(path.resolve(args.json ?? path.join(outDir, 'run.json')));
    await ioStep('create the folder', runDir, () => makeDirs(runDir));
    const log = new StrategyLogFile(path.join(runDir, `.${strategy.name}-${symbol}-${interval}-${process.pid}.log.part`));
    let run;
    const gaps = new RunGaps(interval);
    // The report's candles are gathered while the run reads the bars (candle-tap.ts): a year of
    // 1-minute bars is not read from the journal a second time for them.
    const readBars = () => seriesBars(journal, series, from, to);
    const bucket = bucketForRange(interval, range);
    const bars = bucket === undefined ? readBars() : new CandleTap(readBars(), readBars, bucket);
    // A long run's promoted garbage collected sooner (heap-growth.ts): the command's peak memory.
    if (span.stored.count >= GC_FROM_BARS) tightenHeapGrowth(io.env);
    try {
      run = usage(() =>
        runBacktest({
          ...{ strategy, params, symbol, interval, bars, instrument, fees, balances, fillModel, from, to },
          ...{ runId: `backtest-${strategy.name}`, onLog: (e) => log.add(e), recordPlots: true, onGap: (prev, open) => gaps.add(prev, open) },
          ...(series.detailed === true ? { detailed: true } : {}),
          ...history,
        }),
      );
    } catch (e) {
      const partial = log.close();
      if (partial !== undefined) await rm(partial, { force: true });
      throw e;
    }
    // Bars missing where the exchange had none (record asked): a quiet market, not a hole in the data.
    if (series.stored === interval && series.detailed !== true) {
      const quiet = gaps.noTradeBars(journal, symbol);
      if (quiet > 0) run.missingNoTrades = quiet;
    }
    const metrics = computeMetrics(run);
    return await writeRunFiles(io, {
      run,
      metrics,
      base: `${strategy.name}-${symbol}-${interval}`,
      args,
      outDir,
      log,
      // The candles the run's pass gathered; else the same bars again, streamed from the journal's blocks: nothing collected.
      writeReportFile: (file) => writeReport(file, { run, metrics, bars: bucket === undefined ? readBars() : bars }),
      notes: [...barsLine, `rules   ${rulesText(source, rules.file, [symbol])}`],
    });
  } finally {
    journal.close();
  }
}
