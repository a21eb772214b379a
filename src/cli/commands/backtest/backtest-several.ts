/**
 * `halyard backtest --symbol BTCPHP,ETHPHP ...` (or `--symbol` repeated): one strategy over
 * several symbols in one account (src/backtest/run/run-several.ts). The symbols share the run's
 * interval and must share their quote asset (refused otherwise, naming them). Each symbol's bars
 * come from the journal as a single run's do (stored, or made from shorter ones, or --detail),
 * its rules from --exchange-info, else the journal's snapshot, else the sandbox config; --balance
 * may give the quote and each base asset. The fees: --fee, else the config's when every symbol
 * has the same, else 0.1% (symbols configured with different fees need --fee: one rate for the run).
 * A strategy with a `symbols` parameter gets the run's symbols unless --param gives it.
 * With --sweep (and --walk-forward) the grid runs over the symbols in one account each point
 * (backtest-sweep.ts): the job carries every symbol's rules and series; walk-forward windows count
 * periods (the bars of every symbol opening together). A warmup per interval gets each symbol's
 * bars before --from it needs from the journal, as a single run's does (journal-series.ts warmupHistory).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { loadConfig } from '../../../config/load.ts';
import type { Instrument } from '../../../core/market/index.ts';
import type { KlineInterval } from '../../../core/market/intervals.ts';
import type { FillModel } from '../../../backtest/run/fill-model.ts';
import { StrategyLogFile } from '../../../backtest/output/log-file.ts';
import { computeMetrics } from '../../../backtest/metrics/metrics.ts';
import { writeReport } from '../../../backtest/report/html-report.ts';
import { runBacktest } from '../../../backtest/run/run-backtest.ts';
import type { BacktestSymbol } from '../../../backtest/run/run-several.ts';
import { seriesBars, seriesSpan, warmupHistory } from '../../../backtest/sources/journal-series.ts';
import type { JournalSeries } from '../../../backtest/sources/journal-series.ts';
import { formatTime } from '../../../data/time-text.ts';
import { makeDirs } from '../../../fs/make-dirs.ts';
import { UsageError } from '../../errors.ts';
import { openExistingJournal } from '../../journal-file.ts';
import { ioStep } from '../../paths.ts';
import type { CliIo } from '../../io.ts';
import { detailContext, detailText, held, periodsText, pickSeries, RunGaps, rulesLines, strategyArg, strategyParams, usage, writeRunFiles } from './backtest.ts';
import { runBalances, runFees, symbolRules } from './run-options.ts';
import { runSweepCommand } from './backtest-sweep.ts';
import type { SweepArgs } from './backtest-sweep.ts';
import type { BacktestArgs, BacktestFiles } from './backtest.ts';

export interface SeveralInput {
  readonly config: ReturnType<typeof loadConfig>;
  readonly symbols: readonly string[];
  readonly interval: string;
  readonly from: number | undefined;
  readonly to: number | undefined;
  readonly fillModel: FillModel;
}

/** One symbol as the run reads it: its series, its rules and where they came from. */
interface SymbolSource {
  readonly symbol: string;
  readonly series: JournalSeries;
  readonly instrument: Instrument;
  readonly source: 'file' | 'journal' | 'fallback';
  /** The --exchange-info file its rules came from (source 'file'). */
  readonly file?: string | undefined;
  readonly fees: { maker: string; taker: string } | undefined;
  /** Its exchangeInfo object (spec 2.2), as a sweep's workers parse it. */
  readonly raw: unknown;
  /** The open time of its first bar in the range. */
  readonly first: number;
  /** Open times of the partial periods at the range's ends its bars leave out (made from shorter ones: journal-series.ts). */
  readonly partial: readonly number[];
}

/** A single run answers the files it wrote; a sweep (`sweepArgs.sweep`) writes its own and answers undefined. */
export async function runSeveralCommand(io: CliIo, args: BacktestArgs, input: SeveralInput, sweepArgs: SweepArgs = {}): Promise<BacktestFiles | undefined> {
  const { config, symbols, interval, from, to, fillModel } = input;
  const strategy = await strategyArg(args.strategy);
  const { params, setup } = strategyParams(strategy, args, symbols, interval);
  const { file, journal } = openExistingJournal(args.journal, io.env, config.journal.path);
  try {
    const asked = from === undefined && to === undefined ? 'the journal' : `${from === undefined ? 'the start' : formatTime(from)} .. ${to === undefined ? 'the end' : formatTime(to)}`;
    const sources: SymbolSource[] = symbols.map((symbol) => {
      const series = pickSeries(journal, file, symbol, interval as KlineInterval, args.detail as KlineInterval | undefined);
      const span = seriesSpan(journal, series, from, to);
      if (span?.bars === undefined) {
        const partial = span === undefined || span.partial.length === 0 ? '' : `: its ${series.stored} bars there cover only part of the ${interval} ${periodsText(span.partial)}`;
        throw new UsageError(`no complete ${symbol} ${interval} bars in ${asked}${partial}; ${held(journal)}`);
      }
      return { symbol, series, ...symbolRules(journal, config, symbol, span.bars.first, args.exchangeInfo), first: span.bars.first, partial: span.partial };
    });
    const quote = (sources[0] as SymbolSource).instrument.quoteAsset;
    if (sources.some((s) => s.instrument.quoteAsset !== quote)) {
      throw new UsageError(`--symbol ${symbols.join(',')}: the symbols of one run share the quote asset, and ${sources.map((s) => `${s.symbol} is quoted in ${s.instrument.quoteAsset}`).join(', ')}`);
    }
    const fees = runFees(args.fee, sources);
    const balances = runBalances(args.balance, sources);

    const outDir = args.outDir ?? 'backtest/out';
    if (sweepArgs.sweep?.length) {
      // Each symbol's series as the workers read it: the stored interval and --detail are per symbol.
      const legs = sources.map((s) => ({ symbol: s.symbol, instrument: s.raw, ...(s.series.stored !== interval ? { storedInterval: s.series.stored } : {}), ...detailContext(s.series) }));
      const ctx = { strategyRef: args.strategy ?? '', strategy, params, symbol: symbols.join(','), symbols: legs, interval, journalFile: file, from, to, fees, balances, fillModel, outDir, json: args.json, report: args.report };
      await runSweepCommand(io, sweepArgs, ctx, (sources[0] as SymbolSource).raw);
      return undefined;
    }
    const joined = symbols.join('+');
    const runDir = path.dirname(path.resolve(args.json ?? path.join(outDir, 'run.json')));
    await ioStep('create the folder', runDir, () => makeDirs(runDir));
    const log = new StrategyLogFile(path.join(runDir, `.${strategy.name}-${joined}-${interval}-${process.pid}.log.part`));
    const gaps = new Map(symbols.map((s) => [s, new RunGaps(interval)]));
    // Each symbol's bars before --from a warmup per interval needs, as for one symbol (journal-series.ts warmupHistory).
    const legs: BacktestSymbol[] = sources.map((s) => ({ symbol: s.symbol, bars: seriesBars(journal, s.series, from, to), instrument: s.instrument, ...warmupHistory(journal, s.series, setup, from, s.first) }));
    let run;
    try {
      run = usage(() =>
        runBacktest({
          ...{ strategy, params, interval, symbols: legs, fees, balances, fillModel, from, to },
          ...{ runId: `backtest-${strategy.name}`, onLog: (e) => log.add(e), recordPlots: true, onGap: (prev: number, open: number, symbol: string) => gaps.get(symbol)?.add(prev, open) },
          ...(args.detail !== undefined ? { detailed: true } : {}),
        }),
      );
    } catch (e) {
      const partial = log.close();
      if (partial !== undefined) await rm(partial, { force: true });
      throw e;
    }
    // Bars missing where the exchange had none (record asked), symbol by symbol, where stored as run.
    const quiet = sources.reduce((n, s) => n + (s.series.stored === interval && s.series.detailed !== true ? (gaps.get(s.symbol)?.noTradeBars(journal, s.symbol) ?? 0) : 0), 0);
    if (quiet > 0) run.missingNoTrades = quiet;
    const metrics = computeMetrics(run);
    // As one symbol's `bars` line: what they were made from, and the partial periods left out.
    const made = sources
      .filter((s) => s.series.stored !== s.series.interval || s.series.detailed === true)
      .map((s) => `bars    ${s.symbol} ${interval} made from its ${s.series.stored} bars${detailText(s.series)}${s.partial.length === 0 ? '' : `; ${s.partial.length} partial ${periodsText(s.partial)} left out`}`);
    const rules = rulesLines(sources);
    return await writeRunFiles(io, {
      run,
      metrics,
      base: `${strategy.name}-${joined}-${interval}`,
      args,
      outDir,
      log,
      writeReportFile: (file) => {
        const symbolBars = sources.map((s) => ({ symbol: s.symbol, bars: seriesBars(journal, s.series, from, to) }));
        return writeReport(file, { run, metrics, bars: (symbolBars[0] as { bars: Iterable<never> }).bars, symbolBars });
      },
      notes: [...made, ...rules],
    });
  } finally {
    journal.close();
  }
}
