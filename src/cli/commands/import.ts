/**
 * `halyard import FILE [--symbol S] [--interval I] [--journal PATH] [--dry-run]`: read a kline CSV
 * (src/data/kline-csv.ts: layouts, validation, duplicates kept-last, gaps), write it to the journal
 * in one transaction, and print what was found. A bad file imports nothing.
 */
import { loadConfig } from '../../config/load.ts';
import { basename } from 'node:path';
import type { Argv } from 'yargs';
import { KLINE_INTERVALS } from '../../data/intervals.ts';
import { KlineCsvError, readKlineCsv, type KlineCsvResult } from '../../data/kline-csv.ts';
import { formatTime } from '../../data/time-text.ts';
import { JournalError } from '../../journal/errors.ts';
import { resolveJournalPath } from '../../journal/journal-path.ts';
import { openJournal } from '../../journal/journal.ts';
import { UsageError } from '../errors.ts';
import type { CliIo } from '../io.ts';
import type { GlobalArgs } from '../with-client.ts';

export interface ImportArgs extends GlobalArgs {
  file?: string;
  symbol?: string;
  interval?: string;
  journal?: string;
  dryRun?: boolean;
}

/** Gaps listed one per line up to this many; the rest are counted. */
const GAPS_SHOWN = 10;

export function importCommand(io: CliIo) {
  return {
    command: 'import <file>',
    describe: 'Import a kline CSV file (6 or 12 columns, ms or µs times) into the journal',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional('file', { type: 'string', describe: 'CSV file, e.g. BTCUSDT-1m-2024-03.csv', demandOption: true })
        .option('symbol', { type: 'string', describe: 'symbol (default: from the file name)' })
        .option('interval', { type: 'string', choices: KLINE_INTERVALS, describe: 'kline interval (default: from the file name, else the spacing)' })
        .option('journal', { type: 'string', describe: 'journal file (default $HALYARD_JOURNAL or data/halyard.db)' })
        .option('dry-run', { type: 'boolean', describe: 'check the file and print the summary without writing' }),
    handler: async (args: ImportArgs) => {
      await runImport(io, args);
    },
  };
}

export async function runImport(io: CliIo, args: ImportArgs): Promise<KlineCsvResult> {
  if (!args.file) throw new UsageError('name the CSV file to import');
  let parsed: KlineCsvResult;
  try {
    parsed = readKlineCsv(args.file, {
      ...(args.symbol !== undefined ? { symbol: args.symbol } : {}),
      ...(args.interval !== undefined ? { interval: args.interval } : {}),
    });
  } catch (e) {
    if (e instanceof KlineCsvError) throw new UsageError(`${e.message}\nnothing was imported`);
    throw e;
  }
  const symbol = parsed.symbol;
  if (!symbol) throw new UsageError(`cannot tell the symbol from the file name '${basename(args.file)}': pass --symbol`);

  const lines = summary(parsed, symbol);
  if (args.dryRun) {
    io.out([`Checked ${symbol} ${parsed.interval} in ${args.file} (dry run, nothing written)`, ...lines].join('\n'));
    return parsed;
  }

  const path = resolveJournalPath(args.journal, io.env, loadConfig(args.config as string | undefined).journal.path);
  const journal = (() => {
    try {
      return openJournal(path, { createDirs: true });
    } catch (e) {
      if (e instanceof JournalError) throw new UsageError(e.message);
      throw e;
    }
  })();
  try {
    const source = `csv:${basename(args.file)}`;
    journal.klines.insertKlines(parsed.bars.map((b) => ({ ...b, symbol, interval: parsed.interval, source })));
    const held = journal.klines.klineRange(symbol, parsed.interval);
    io.out(
      [
        `Imported ${symbol} ${parsed.interval} from ${args.file} into ${path}`,
        ...lines,
        held ? `  journal     ${symbol} ${parsed.interval} now holds ${held.count} bars, ${formatTime(held.first)} .. ${formatTime(held.last)}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
  } finally {
    journal.close();
  }
  return parsed;
}

function summary(r: KlineCsvResult, symbol: string): string[] {
  const first = r.bars[0]!.openTime;
  const last = r.bars[r.bars.length - 1]!.openTime;
  const identical = r.duplicateRows.filter((d) => d.identical).length;
  const lines = [
    `  layout      ${r.layout.columns} columns, ${r.layout.header ? 'header row' : 'no header'}, times in ${r.layout.timeUnit}`,
    `  series      ${symbol} ${r.interval} (interval from the ${r.intervalSource === 'spacing' ? 'bar spacing' : r.intervalSource === 'option' ? 'option' : 'file name'})`,
    `  rows        ${r.rows} read, ${r.bars.length} bars`,
    r.duplicates === 0
      ? '  duplicates  none'
      : `  duplicates  ${r.duplicates} rows repeated the open time before them; kept the last copy (${identical} identical, ${r.duplicates - identical} different)`,
    `  range       ${formatTime(first)} .. ${formatTime(last)} (open times)`,
  ];
  if (r.gaps.length === 0) lines.push('  gaps        none');
  else {
    lines.push(`  gaps        ${r.gaps.length} (${r.missing} bars missing)`);
    for (const g of r.gaps.slice(0, GAPS_SHOWN)) lines.push(`              ${formatTime(g.from)} .. ${formatTime(g.to)} (${g.missing})`);
    if (r.gaps.length > GAPS_SHOWN) lines.push(`              ... and ${r.gaps.length - GAPS_SHOWN} more`);
  }
  for (const w of r.warnings) lines.push(`  warning     ${w}`);
  return lines;
}
