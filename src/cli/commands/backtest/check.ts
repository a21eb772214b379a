/**
 * `halyard check --strategy NAME|PATH --symbol S[,S2...] --interval I [--from DATE] [--to DATE]
 *  [--param k=v ...] [--fee 0.001] [--balance ASSET=AMOUNT ...] [--journal PATH]
 *  [--exchange-info FILE] [--slippage-bps N] [--limit-fill through|touch] [--volume-share X]
 *  [--detail INTERVAL] [--startups 0,100,500,1000] [--tolerance 1e-6] [--json FILE]`
 *
 * Is the strategy's warm-up enough, and does it decide from its bars alone? Runs it over the
 * journal's bars several times (src/backtest/warmup/warmup-check.ts): with the warm-up's history before
 * the range and with N more bars for each N of --startups, comparing its orders and what it plots;
 * then cut in two, each part alone against the whole run. One sentence a finding. Exit code 0 when
 * every check passes, 1 when one finds a difference (a finding, not an error), 2 for bad input
 * (the strategy, a parameter, a run option, a range without bars, too little history before it for
 * the startups).
 * Reads its options with `halyard backtest`'s parsers (--strategy, --param, --from/--to, --journal),
 * and the options that change what orders the strategy places with the same meaning, defaults and
 * messages (run-options.ts): --fee, --balance, --exchange-info, --detail, --slippage-bps,
 * --limit-fill, --volume-share; every run compared gets the same, so a strategy that sizes by its
 * balance, or a symbol whose rules only a file gives, is checked as the user's backtest runs it.
 * Several symbols (`--symbol BTCPHP,ETHPHP`, or repeated) are checked in one account, as
 * `halyard backtest` runs them: history counted in periods, every symbol's orders compared.
 */
import { writeFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import type { KlineInterval } from '../../../core/market/intervals.ts';
import { seriesBars, seriesSpan } from '../../../backtest/sources/journal-series.ts';
import { checkWarmup, DEFAULT_STARTUPS, DEFAULT_TOLERANCE, formatWarmupCheck, WarmupCheckInputError } from '../../../backtest/warmup/warmup-check.ts';
import type { WarmupCheckReport } from '../../../backtest/warmup/warmup-check.ts';
import type { Interval } from '../../../strategy/types.ts';
import { UsageError } from '../../errors.ts';
import { EXIT, type CliIo } from '../../io.ts';
import { JOURNAL_OPTION, openExistingJournal } from '../../journal-file.ts';
import { numberFlag } from '../../options.ts';
import { checkOutputFile, ioStep } from '../../paths.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { PARAM_OPTION, pickSeries, rulesLines, runArgs, strategyArg, strategyParams, strategySeriesOptions, usage } from './backtest.ts';
import { feeArg, fillModelArgs, runBalances, runFees, runOptions, symbolRules } from './run-options.ts';
import type { RunOptionArgs } from './run-options.ts';
import { COMMANDS } from '../catalog.ts';

export interface CheckArgs extends GlobalArgs, RunOptionArgs {
  strategy?: string;
  symbol?: string | string[];
  interval?: string;
  from?: string;
  to?: string;
  param?: string[];
  journal?: string;
  startups?: string;
  tolerance?: string;
  json?: string;
}

/** `--startups 0,100,500,1000`: whole numbers >= 0, at least one above 0. */
export function parseStartups(text: string | undefined): number[] {
  if (text === undefined) return [...DEFAULT_STARTUPS];
  const parts = text.split(',').map((p) => p.trim());
  const bad = parts.find((p) => !/^\d+$/.test(p) || !Number.isSafeInteger(Number(p)));
  if (bad !== undefined) throw new UsageError(`--startups '${text}': expected bar counts >= 0 separated by commas, e.g. 0,100,500,1000 ('${bad}' is not one)`);
  const counts = parts.map(Number);
  if (!counts.some((n) => n > 0)) throw new UsageError(`--startups '${text}': give at least one count above 0 (the runs with more history are what the warm-up is compared with)`);
  return counts;
}

export function checkCommand(io: CliIo, setExit: (code: number) => void = () => {}) {
  return {
    ...COMMANDS.check,
    builder: (y: Argv<GlobalArgs>) =>
      runOptions(
        strategySeriesOptions(y)
          .option('from', { type: 'string', describe: 'first decision bar: 2024-03-01, 2024-03-01T12:00 (UTC) or epoch ms (default: the first bar with the warm-up and the largest startup before it)' })
          .option('to', { type: 'string', describe: 'end, exclusive (default: the last bar)' })
          .option('param', PARAM_OPTION)
          .option('journal', JOURNAL_OPTION),
      )
        .option('startups', { type: 'string', describe: `bars of history beyond the warm-up's, one run each, comma-separated (default ${DEFAULT_STARTUPS.join(',')})` })
        .option('tolerance', numberFlag(`relative difference under which plotted values agree (default ${DEFAULT_TOLERANCE})`))
        .option('json', { type: 'string', describe: 'also write the findings as JSON here' }),
    handler: async (args: CheckArgs) => {
      const report = await runCheckCommand(io, args);
      setExit(report.passed ? EXIT.ok : EXIT.failed);
    },
  };
}

/** `--tolerance`: a relative difference in [0, 1), as a decimal or in exponent form (1e-9: tolerances are written so). */
export function parseTolerance(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  const n = /^(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : Number.NaN;
  if (!(n >= 0 && n < 1)) throw new UsageError(`--tolerance: expected a relative difference in [0, 1) such as 1e-6 or 0.0001, got '${text}'`);
  return n;
}

/** JSON has no Infinity: a point one run plotted and the other did not is written as "Infinity". */
const finite = (_key: string, value: unknown): unknown => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value);

export async function runCheckCommand(io: CliIo, args: CheckArgs): Promise<WarmupCheckReport> {
  const { config, symbols, symbol, interval, from, to } = runArgs(args);
  // In `halyard backtest`'s order, so that a bad value gets the same message first.
  const fillModel = fillModelArgs(args);
  const fee = feeArg(args.fee);
  const startups = parseStartups(args.startups);
  const tolerance = parseTolerance(args.tolerance);
  if (args.json !== undefined) checkOutputFile(args.json, '--json');

  const strategy = await strategyArg(args.strategy);
  // Read as `halyard backtest` reads them (a strategy trading a list of symbols gets the ones checked).
  const { params } = strategyParams(strategy, { param: args.param }, symbols, interval);

  const { file, journal } = openExistingJournal(args.journal, io.env, config.journal.path);
  let report: WarmupCheckReport;
  let rules: string[] = [];
  try {
    const legs = symbols.map((name) => {
      const series = pickSeries(journal, file, name, interval as KlineInterval, args.detail as KlineInterval | undefined);
      // The rules in force at the first whole bar, as backtest picks them (a bar made from shorter ones may start after the first stored one).
      const start = seriesSpan(journal, series, from, to)?.bars?.first ?? from ?? journal.klines.klineRange(name, series.stored)?.first ?? 0;
      const { instrument, fees, source: rules, file: rulesFrom } = symbolRules(journal, config, name, start, args.exchangeInfo);
      return { symbol: name, instrument, fees, rules, rulesFrom, source: (f?: number, t?: number) => seriesBars(journal, series, f, t) };
    });
    const quote = (legs[0] as (typeof legs)[number]).instrument.quoteAsset;
    if (legs.some((l) => l.instrument.quoteAsset !== quote)) throw new UsageError(`--symbol ${symbols.join(',')}: the symbols of one run share the quote asset, and ${legs.map((l) => `${l.symbol} is quoted in ${l.instrument.quoteAsset}`).join(', ')}`);
    // Fees and balances as `halyard backtest` reads and defaults them: every run gets the same, so
    // they size the orders compared as in the user's backtest.
    const fees = runFees(fee, legs);
    const balances = runBalances(args.balance, legs);
    const only = legs[0] as (typeof legs)[number];
    // Where each symbol's rules came from, as backtest says it (the sandbox config's may not be the exchange's).
    rules = rulesLines(legs.map((l) => ({ symbol: l.symbol, source: l.rules, file: l.rulesFrom })));
    const model = { fillModel, ...(args.detail === undefined ? {} : { detailed: true }) };
    const common = { strategy, params, interval: interval as Interval, fees, balances, ...model, startups, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }), ...(tolerance === undefined ? {} : { tolerance }) };
    try {
      report = usage(() => (legs.length > 1 ? checkWarmup({ ...common, symbols: legs }) : checkWarmup({ ...common, symbol, instrument: only.instrument, source: only.source })));
    } catch (e) {
      if (e instanceof WarmupCheckInputError) throw new UsageError(`${e.message} (${file})`);
      throw e;
    }
  } finally {
    journal.close();
  }
  io.out([...formatWarmupCheck(report), ...rules].join('\n'));
  if (args.json !== undefined) {
    const json = args.json;
    await ioStep('write the JSON file', json, () => writeFile(json, `${JSON.stringify(report, finite, 2)}\n`, 'utf8'));
    io.out(`json    ${json}`);
  }
  return report;
}
