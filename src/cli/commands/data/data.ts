/**
 * `halyard data [--journal PATH] [--symbol S] [--interval I] [--gaps] [--json]`: what the journal
 * holds, as Freqtrade's `list-data --show-timerange` shows it: every kline series with its bar
 * count, first and last open time and the bars missing between them, and the exchangeInfo
 * snapshots (the rules a backtest of those bars uses). `--gaps` also says where bars are missing,
 * read from the series' open times (data/kline-gaps.ts, as `halyard import` reports them). Read
 * only: the journal is opened read-only and nothing is written.
 */
import type { Argv } from 'yargs';
import { loadConfig } from '../../../config/load.ts';
import { alignTable } from '../../../backtest/metrics/metrics-format.ts';
import { journalBars } from '../../../backtest/sources/sources.ts';
import { barsBetween, isKlineInterval, KLINE_INTERVALS, nextOpenTime } from '../../../data/intervals.ts';
import type { KlineInterval } from '../../../data/intervals.ts';
import { findGaps } from '../../../data/kline-gaps.ts';
import type { CheckedGap } from '../../../data/kline-gaps.ts';
import { formatTime } from '../../../data/time-text.ts';
import type { Journal } from '../../../journal/journal.ts';
import type { SeriesInfo } from '../../../journal/klines/kline-store.ts';
import { checkedGaps } from '../../checked-gaps.ts';
import { UsageError } from '../../errors.ts';
import { printJson } from '../../io.ts';
import { JOURNAL_OPTION, openExistingJournal } from '../../journal-file.ts';
import type { CliIo } from '../../io.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';

export interface DataArgs extends GlobalArgs {
  journal?: string;
  symbol?: string;
  interval?: string;
  gaps?: boolean;
  json?: boolean;
}

/** Gaps listed one per line per series up to this many; the rest are counted. */
const GAPS_SHOWN = 10;

/** One series as the command reports it. */
export interface SeriesReport {
  readonly symbol: string;
  readonly interval: string;
  readonly bars: number;
  /** Open times of the first and last bar (epoch ms). */
  readonly first: number;
  readonly last: number;
  /** Bar slots between the first and the last without a bar (undefined for an interval this code does not know). */
  readonly missing: number | undefined;
  /** With --gaps: where they are, and which ones the exchange confirmed empty when recorded. */
  readonly gaps?: readonly ReportedGap[];
}

export interface DataReport {
  readonly journal: string;
  readonly series: readonly SeriesReport[];
  readonly exchangeInfoSnapshots: readonly { readonly id: number; readonly takenAt: number }[];
}

export function dataCommand(io: CliIo) {
  return {
    ...COMMANDS.data,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('journal', JOURNAL_OPTION)
        .option('symbol', { type: 'string', describe: 'only this symbol' })
        .option('interval', { type: 'string', choices: KLINE_INTERVALS, describe: 'only this interval' })
        .option('gaps', { type: 'boolean', describe: 'also list where bars are missing (reads every open time)' })
        .option('json', { type: 'boolean', describe: 'print the report as JSON' }),
    handler: async (args: DataArgs) => {
      await runData(io, args);
    },
  };
}

export async function runData(io: CliIo, args: DataArgs): Promise<DataReport> {
  const { file, journal } = openExistingJournal(args.journal, io.env, loadConfig(args.config as string | undefined).journal.path);
  try {
    const report = dataReport(journal, file, args);
    if (args.json === true) printJson(io, report);
    else io.out(formatDataReport(report, args).join('\n'));
    return report;
  } finally {
    journal.close();
  }
}

/** The journal's series (filtered by --symbol / --interval), their missing bars and, asked, their gaps. */
export function dataReport(journal: Journal, file: string, args: Pick<DataArgs, 'symbol' | 'interval' | 'gaps'>): DataReport {
  const all = journal.klines.series();
  // As import, record and backtest take it: `btcusdt` is BTCUSDT.
  const symbol = args.symbol?.trim().toUpperCase();
  const chosen = all.filter((s) => (symbol === undefined || s.symbol === symbol) && (args.interval === undefined || s.interval === args.interval));
  if (chosen.length === 0 && all.length > 0) {
    const asked = [symbol, args.interval].filter((v) => v !== undefined).join(' ');
    throw new UsageError(`the journal ${file} holds no klines for ${asked}: it holds ${all.map((s) => `${s.symbol} ${s.interval}`).join(', ')}`);
  }
  return {
    journal: file,
    series: chosen.map((s) => seriesReport(journal, s, args.gaps === true)),
    exchangeInfoSnapshots: journal.exchangeInfo.list(),
  };
}

function seriesReport(journal: Journal, s: SeriesInfo, withGaps: boolean): SeriesReport {
  const base = { symbol: s.symbol, interval: s.interval, bars: s.count, first: s.first, last: s.last };
  if (!isKlineInterval(s.interval)) return { ...base, missing: undefined };
  const interval: KlineInterval = s.interval;
  const slots = barsBetween(s.first, nextOpenTime(s.last, interval), interval);
  const missing = Math.max(0, slots - s.count);
  if (!withGaps) return { ...base, missing };
  return { ...base, missing, gaps: missing === 0 ? [] : gapsOf(journal, s.symbol, interval, s.count) };
}

/** A gap, and whether `record` found the exchange has no bars there (minutes without a trade make no kline). */
export type ReportedGap = CheckedGap;

/**
 * The series' gaps, from its open times (the bars' numbers only: no price text is read), each
 * marked `noTrades` when it lies inside a range `record` has checked with the exchange (the
 * journal's kline_checked: the exchange answered and had no bar there), not missing data.
 */
function gapsOf(journal: Journal, symbol: string, interval: KlineInterval, count: number): ReportedGap[] {
  const times = new Float64Array(count);
  let n = 0;
  for (const c of journalBars(journal, symbol, interval)) {
    if (n === count) break;
    times[n++] = c.openTime;
  }
  return checkedGaps(journal, symbol, interval, findGaps(times.subarray(0, n), interval).gaps);
}

/** The report as the terminal shows it. */
export function formatDataReport(r: DataReport, args: Pick<DataArgs, 'gaps'> = {}): string[] {
  if (r.series.length === 0) return [`Journal ${r.journal} holds no klines: import some with \`halyard import FILE.csv\` or \`halyard record\``, ...rulesLines(r)];
  const rows = [
    ['symbol', 'interval', 'bars', 'first (open, UTC)', 'last (open, UTC)', 'missing'],
    ...r.series.map((s) => [s.symbol, s.interval, String(s.bars), formatTime(s.first), formatTime(s.last), s.missing === undefined ? '?' : String(s.missing)]),
  ];
  const lines = [`Journal ${r.journal}`, ...alignTable(rows, (c) => c === 2 || c === 5).map((l) => `  ${l}`)];
  if (args.gaps === true) {
    for (const s of r.series) {
      const gaps = s.gaps ?? [];
      if (gaps.length === 0) {
        lines.push(`  ${s.symbol} ${s.interval}: no gaps`);
        continue;
      }
      const empty = gaps.filter((g) => g.noTrades);
      const bars = empty.reduce((n, g) => n + g.missing, 0);
      const said = empty.length === 0 ? '' : `; ${empty.length === gaps.length ? 'all' : empty.length} with no trades at the exchange (${bars} bars: record asked and got none)`;
      lines.push(`  ${s.symbol} ${s.interval}: ${gaps.length} gap${gaps.length === 1 ? '' : 's'} (${s.missing} bars missing${said})`);
      for (const g of gaps.slice(0, GAPS_SHOWN)) lines.push(`    ${formatTime(g.from)} .. ${formatTime(g.to)} (${g.missing}${g.noTrades ? ', no trades' : ''})`);
      if (gaps.length > GAPS_SHOWN) lines.push(`    ... and ${gaps.length - GAPS_SHOWN} more`);
    }
  }
  return [...lines, ...rulesLines(r)];
}

function rulesLines(r: DataReport): string[] {
  const snaps = r.exchangeInfoSnapshots;
  if (snaps.length === 0) return ['  rules: no exchangeInfo snapshot (a backtest takes the rules from --exchange-info, else the sandbox config\'s symbol)'];
  const latest = snaps.reduce((a, b) => (b.takenAt > a.takenAt ? b : a));
  return [`  rules: ${snaps.length} exchangeInfo snapshot${snaps.length === 1 ? '' : 's'}, the latest in force from ${formatTime(latest.takenAt)}`];
}
