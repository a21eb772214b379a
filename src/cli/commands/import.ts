/**
 * `halyard import FILE [--symbol S] [--interval I] [--journal PATH] [--exchange-info RULES] [--replace] [--dry-run]`:
 * read a kline CSV (src/data/kline-csv.ts: layouts, validation, duplicates kept-last, gaps), write
 * it to the journal in one transaction, and print what was found. With `--exchange-info`, the
 * symbol's rules (data/exchange-info-file.ts) are saved as an exchangeInfo snapshot in force from
 * the first bar, so a backtest of data imported offline has its filters. A bad file imports nothing.
 *
 * Nothing is lost: the file's bars are compared with the bars already stored at the same open
 * times (data/kline-overlap.ts). Identical ones are left as they are (importing a file again
 * changes nothing); if any stored bar would change, the import is refused (exit 2, nothing
 * written) showing the first difference, unless `--replace`. `--dry-run` reports the same.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { loadConfig } from '../../config/load.ts';
import type { Argv } from 'yargs';
import { KLINE_INTERVALS } from '../../data/intervals.ts';
import { ExchangeInfoFileError, readExchangeInfoFile } from '../../data/exchange-info-file.ts';
import type { ExchangeInfoFromFile } from '../../data/exchange-info-file.ts';
import { KlineCsvError, readKlineCsv, type KlineCsvResult } from '../../data/kline-csv.ts';
import { compareWithStored, type KlineOverlap } from '../../data/kline-overlap.ts';
import { formatTime } from '../../data/time-text.ts';
import { resolveJournalPath } from '../../journal/journal-path.ts';
import type { Journal } from '../../journal/journal.ts';
import { UsageError } from '../errors.ts';
import { withJournal } from '../journal-file.ts';
import type { CliIo } from '../io.ts';
import type { GlobalArgs } from '../with-client.ts';
import { COMMANDS } from './catalog.ts';

export interface ImportArgs extends GlobalArgs {
  file?: string;
  symbol?: string;
  interval?: string;
  journal?: string;
  dryRun?: boolean;
  replace?: boolean;
  exchangeInfo?: string;
}

/** Gaps listed one per line up to this many; the rest are counted. */
const GAPS_SHOWN = 10;

export function importCommand(io: CliIo) {
  return {
    ...COMMANDS.import,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional('file', { type: 'string', describe: 'CSV file, e.g. BTCUSDT-1m-2024-03.csv', demandOption: true })
        .option('symbol', { type: 'string', describe: 'symbol (default: from the file name)' })
        .option('interval', { type: 'string', choices: KLINE_INTERVALS, describe: 'kline interval (default: from the file name, else the spacing)' })
        .option('journal', { type: 'string', describe: 'journal file (default $HALYARD_JOURNAL or data/halyard.db)' })
        .option('exchange-info', { type: 'string', describe: 'also save the symbol\'s rules from this file (an exchangeInfo response or one of its symbol objects) as the journal\'s snapshot for these bars' })
        .option('replace', { type: 'boolean', describe: 'overwrite bars already stored at the same open times with different values (refused without it)' })
        .option('dry-run', { type: 'boolean', describe: 'check the file against the journal and print the summary without writing' }),
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
  // Checked before anything is written: a rules file that does not serve imports nothing.
  let rules: ExchangeInfoFromFile | undefined;
  if (args.exchangeInfo !== undefined) {
    try {
      rules = readExchangeInfoFile(args.exchangeInfo, symbol);
    } catch (e) {
      if (e instanceof ExchangeInfoFileError) throw new UsageError(`${e.message}\nnothing was imported`);
      throw e;
    }
  }
  const firstOpen = parsed.bars[0]!.openTime;
  const lastOpen = parsed.bars[parsed.bars.length - 1]!.openTime;
  const replace = args.replace === true;
  const path = resolveJournalPath(args.journal, io.env, loadConfig(args.config as string | undefined).journal.path);
  const compare = (journal: Journal) => compareWithStored(parsed.bars, journal.klines.iterateKlines(symbol, parsed.interval, firstOpen, lastOpen + 1));

  if (args.dryRun) {
    // Read only, and only a journal that exists: a dry run creates nothing.
    const overlap = existsSync(path) ? withJournal(path, { readonly: true }, compare) : undefined;
    lines.push(storedLine(overlap ?? { new: parsed.bars.length, identical: 0, completing: 0, changed: 0 }, replace, true));
    if (rules) lines.push(`  rules       ${symbol} found in ${rules.file}`);
    io.out([`Checked ${symbol} ${parsed.interval} in ${args.file} against ${path} (dry run, nothing written)`, ...lines].join('\n'));
    if (overlap && overlap.changed > 0 && !replace) throw refusal(overlap, { symbol, interval: parsed.interval, file: args.file, path, dry: true });
    return parsed;
  }

  withJournal(path, { createDirs: true }, (journal) => {
    // One transaction, taken for writing before the comparison: the bars compared are the bars
    // replaced, and a refusal (or any failure) leaves the journal as it was.
    const overlap = journal.db
      .transaction(() => {
        const found = compare(journal);
        if (found.changed > 0 && !replace) throw refusal(found, { symbol, interval: parsed.interval, file: args.file!, path, dry: false });
        const source = `csv:${basename(args.file!)}`;
        const rows = found.rows(replace);
        if (rows.length > 0) journal.klines.insertKlines(rows.map((b) => ({ ...b, symbol, interval: parsed.interval, source })));
        // In force from the first bar imported, so a backtest of these bars finds it (journal.exchangeInfo.at).
        if (rules) journal.exchangeInfo.save(firstOpen, rules.body);
        return found;
      })
      .immediate();
    lines.push(storedLine(overlap, replace, false));
    if (rules) lines.push(`  rules       ${symbol} from ${rules.file}, saved as the exchangeInfo snapshot in force from ${formatTime(firstOpen)}`);
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
  });
  return parsed;
}


type OverlapCounts = Pick<KlineOverlap, 'new' | 'identical' | 'completing' | 'changed'>;

/** What the import does (or, `dry`, would do) to the bars already stored at the file's open times. */
function storedLine(o: OverlapCounts, replace: boolean, dry: boolean): string {
  const already = o.identical + o.completing + o.changed;
  if (already === 0) return `  stored      none at these open times: ${o.new} new`;
  if (already === o.identical) return `  stored      ${o.identical} already stored, identical (left as they are); ${o.new} new`;
  const kinds: string[] = [];
  if (o.identical > 0) kinds.push(`${o.identical} identical (left as they are)`);
  if (o.completing > 0) kinds.push(`${o.completing} ${dry ? 'would be ' : ''}completed with the file's extra columns`);
  if (o.changed > 0) kinds.push(replace ? `${o.changed} ${dry ? 'would be ' : ''}replaced by the file's (--replace)` : `${o.changed} different (refused without --replace)`);
  return `  stored      ${already} already stored: ${kinds.join(', ')}; ${o.new} new`;
}

/** The import would change stored bars: exit 2, nothing written, the first difference shown. */
function refusal(o: KlineOverlap, at: { symbol: string; interval: string; file: string; path: string; dry: boolean }): UsageError {
  const first = o.firstChange!;
  const diff = first.changes.map((c) => `${c.field} ${c.stored} -> ${c.file}`).join(', ');
  return new UsageError(
    [
      `${at.file}: ${o.changed} ${at.symbol} ${at.interval} bar(s) differ from the bars ${at.path} holds at the same open times ` +
        `(${o.identical} identical, ${o.new} new); ${at.dry ? 'the import would be refused' : 'nothing was imported'}`,
      `  first at ${formatTime(first.openTime)}: ${diff} (stored -> file)`,
      `  pass --replace to overwrite the stored bars with the file's`,
    ].join('\n'),
  );
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
