/**
 * `halyard import FILE [--symbol S] [--interval I] [--journal PATH] [--exchange-info RULES] [--replace] [--dry-run]`:
 * read a kline CSV (src/data/kline-files/kline-csv.ts: layouts, validation, duplicates kept-last, gaps), write
 * it to the journal in one transaction, and print what was found. With `--exchange-info`, the
 * symbol's rules (data/exchange-info-file.ts) are saved as an exchangeInfo snapshot in force from
 * the first bar, so a backtest of data imported offline has its filters. A bad file imports nothing.
 *
 * FILE may be compressed as exchanges publish kline history (data/kline-files/kline-file-source.ts): a
 * `.csv.gz`, or a `.zip` holding one CSV (Binance's `BTCUSDT-1m-2024-03.zip`), read as it
 * decompresses. Messages name a zip with its entry (`X.zip (X.csv)`), whose line numbers they give;
 * a damaged or cut short archive (a zip entry's CRC-32 or size, gzip's own check) fails at its end,
 * inside the transaction, and so imports nothing, as a bad row does.
 *
 * The file is streamed, never held: its bars are read, checked, compared and written IMPORT_BATCH
 * at a time inside that one transaction, so an import holds a batch's bars whatever the file's
 * size (a file of 1.5 million 1-minute bars peaked at 2.2 GB read whole). A bad row anywhere
 * throws out of the transaction, which rolls back every batch before it; a journal file the
 * import created is removed again, as if it had never run.
 *
 * Nothing is lost: the file's bars are compared with the bars already stored at the same open
 * times (data/kline-overlap.ts). Identical ones are left as they are (importing a file again
 * changes nothing); if any stored bar would change, the import is refused (exit 2, nothing
 * written) showing the first difference, unless `--replace`. `--dry-run` reports the same, reading
 * the journal as it is: a journal of an older schema is not upgraded (a real import would).
 *
 * Stopping (issue 24): Ctrl-C or SIGTERM ends an import within a fraction of a second, with
 * nothing stored: the transaction is rolled back (a journal the import created removed) and the
 * command exits 128 + the signal's number (130, 143), as a Unix tool cut short does. A signal
 * handler runs only when the event loop gets a turn, and the reading is synchronous (a gzip'd file
 * is decompressed in a worker and handed over synchronously, inflated-chunks.ts), so the reading
 * is cut into steps that give the event loop a turn every 64 KB of text and after each batch
 * written (data/read-steps.ts), and throw once io.signal (main.ts) has aborted. The transaction
 * stays open across those turns, so it is begun and ended by hand (BEGIN IMMEDIATE ... COMMIT or
 * ROLLBACK): better-sqlite3's `transaction()` takes only a synchronous function. Chosen over
 * reading truly asynchronously (zlib's streams in this thread, awaiting every chunk): the
 * synchronous reader stays the one reader of every kline file (the sandbox's CSV source, the
 * whole-file API), and a turn of the event loop every 64 KB costs nothing measurable. Measured on
 * 1M 12-column bars (96 MB) on a shared 2-core machine at load 8-15, before -> after: plain CSV
 * 99 and 92 s -> 94 and 66 s, .csv.gz 58 -> 65 s, .zip 86 -> 90 s (noise of that size), peak RSS
 * 226-260 MB -> 212-247 MB; a signal ended the process 0.5-1.0 s after it was sent.
 */
import { existsSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import type { Database } from 'better-sqlite3';
import { loadConfig } from '../../../config/load.ts';
import type { Argv } from 'yargs';
import { KLINE_INTERVALS } from '../../../data/intervals.ts';
import { ExchangeInfoFileError, readExchangeInfoFile } from '../../../data/exchange-info-file.ts';
import type { ExchangeInfoFromFile } from '../../../data/exchange-info-file.ts';
import { KlineCsvError, klineCsvFileAsync, type KlineBar, type KlineCsvFile, type KlineCsvSummary } from '../../../data/kline-files/kline-csv.ts';
import { clipped } from '../../../data/kline-files/kline-csv-error.ts';
import { ReadStopped } from '../../../data/read-steps.ts';
import { OverlapCount, type ChangedBar } from '../../../data/kline-overlap.ts';
import { formatTime } from '../../../data/time-text.ts';
import { resolveJournalPath } from '../../../journal/journal-path.ts';
import type { KlineTuple } from '../../../journal/klines/kline-store.ts';
import { UsageError } from '../../errors.ts';
import { JOURNAL_OPTION, openUserJournal, openUserJournalAsIs } from '../../journal-file.ts';
import type { CliIo } from '../../io.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';

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

/**
 * The import was stopped by a signal (io.signal aborted: SIGINT, SIGTERM) and rolled back:
 * nothing was imported. `exitCode` is 128 + the signal's number, what the command exits with.
 */
export class ImportStopped extends Error {
  readonly signal: NodeJS.Signals;
  readonly exitCode: number;
  constructor(file: string, reason: unknown) {
    const signal = signalOf(reason);
    super(`${file}: stopped by ${signal}; nothing was imported`);
    this.name = 'ImportStopped';
    this.signal = signal;
    this.exitCode = 128 + constants.signals[signal];
  }
}

/** The signal main.ts names in its abort reason (`signal`); a stop without one is taken for Ctrl-C. */
function signalOf(reason: unknown): NodeJS.Signals {
  const named = reason !== null && typeof reason === 'object' && 'signal' in reason ? reason.signal : undefined;
  return typeof named === 'string' && named in constants.signals ? (named as NodeJS.Signals) : 'SIGINT';
}

/** `setExit` (cli/index.ts) sets the exit code of an import stopped by a signal; without it the stop is reported as a failure. */
export function importCommand(io: CliIo, setExit?: (code: number) => void) {
  return {
    ...COMMANDS.import,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional('file', { type: 'string', describe: 'kline CSV file, plain or compressed: BTCUSDT-1m-2024-03.csv, .csv.gz, or a .zip holding one CSV', demandOption: true })
        .option('symbol', { type: 'string', describe: 'symbol (default: from the file name)' })
        .option('interval', { type: 'string', choices: KLINE_INTERVALS, describe: 'kline interval (default: from the file name, else the spacing)' })
        .option('journal', JOURNAL_OPTION)
        .option('exchange-info', { type: 'string', describe: 'also save the symbol\'s rules from this file (an exchangeInfo response or one of its symbol objects) as the journal\'s snapshot for these bars' })
        .option('replace', { type: 'boolean', describe: 'overwrite bars already stored at the same open times with different values (refused without it)' })
        .option('dry-run', { type: 'boolean', describe: 'check the file against the journal and print the summary without writing' }),
    handler: async (args: ImportArgs) => {
      try {
        await runImport(io, args);
      } catch (e) {
        if (!(e instanceof ImportStopped) || !setExit) throw e;
        io.err(`error: ${e.message}`);
        setExit(e.exitCode);
      }
    },
  };
}

/**
 * Bars read, compared and written at a time: the journal's block (BLOCK_ROWS, 1024), small enough
 * that a batch's objects die young and that its write, the longest step between two checks for a
 * signal, stays short (tens of ms; 4096 took up to 0.9 s on a loaded machine). 1M bars import as
 * fast in batches of 1024 as of 4096.
 */
export const IMPORT_BATCH = 1024;

export async function runImport(io: CliIo, args: ImportArgs, options: { batchSize?: number } = {}): Promise<KlineCsvSummary> {
  if (!args.file) throw new UsageError('name the CSV file to import');
  const file = args.file;
  const batchSize = options.batchSize ?? IMPORT_BATCH;
  const signal = io.signal;
  // The symbol and interval are settled before the journal is opened (the interval from the bar
  // spacing takes a first pass over the file, which a bad row ends there).
  const csv: KlineCsvFile = await csvErrors(file, () =>
    klineCsvFileAsync(
      file,
      {
        ...(args.symbol !== undefined ? { symbol: args.symbol } : {}),
        ...(args.interval !== undefined ? { interval: args.interval } : {}),
        gapsKept: GAPS_SHOWN,
      },
      signal,
    ),
  );
  const symbol = csv.symbol;
  if (!symbol) throw new UsageError(`cannot tell the symbol from the file name '${csv.name}': pass --symbol`);
  const interval = csv.interval;

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
  const replace = args.replace === true;
  const path = resolveJournalPath(args.journal, io.env, loadConfig(args.config as string | undefined).journal.path);
  const overlap = new OverlapCount(replace);
  /** The stored bars a batch is compared with: those from its first open time to its last. */
  const storedFor = (bars: readonly KlineBar[], iterate: (from: number, to: number) => Iterable<KlineTuple>) => iterate(bars[0]!.openTime, bars[bars.length - 1]!.openTime + 1);
  const refused = (at: { dry: boolean }) => refusal(overlap, { symbol, interval, file: csv.file, path, dry: at.dry });

  if (args.dryRun) {
    // Read only, and only a journal that exists: a dry run creates nothing, and reads the journal
    // as it is (an older schema is not upgraded: the file stays byte for byte what it was).
    const compareOnly = (iterate?: (from: number, to: number) => Iterable<KlineTuple>) =>
      csv.readAsync(
        batchSize,
        (bars) => {
          overlap.add(bars, iterate ? storedFor(bars, iterate) : []);
        },
        signal,
      );
    let schema: { version: number; latest: number } | undefined;
    const parsed = await csvErrors(csv.file, async () => {
      if (!existsSync(path)) return compareOnly();
      const j = openUserJournalAsIs(path);
      try {
        schema = { version: j.schemaVersion, latest: j.latestVersion };
        return await compareOnly((from, to) => j.klines.iterate(symbol, interval, from, to));
      } finally {
        j.close();
      }
    });
    const lines = summary(parsed, symbol);
    lines.push(storedLine(overlap, replace, true));
    if (schema && schema.version < schema.latest) {
      lines.push(`  schema      the journal is at schema version ${schema.version}: a real import would first upgrade it to version ${schema.latest} (left as it is now)`);
    }
    if (rules) lines.push(`  rules       ${symbol} found in ${rules.file}`);
    io.out([`Checked ${symbol} ${interval} in ${csv.file} against ${path} (dry run, nothing written)`, ...lines].join('\n'));
    if (overlap.changed > 0 && !replace) throw refused({ dry: true });
    return parsed;
  }

  const existed = existsSync(path);
  let createdHere = false;
  let committed = false;
  try {
    const journal = openUserJournal(path, { createDirs: true });
    try {
      createdHere = journal.created && !existed;
      const source = `csv:${csv.name}`;
      // One transaction, taken for writing before the first comparison: the bars compared are the
      // bars replaced, and a bad row, a refusal, a signal (or any failure) leaves the journal as it was.
      const parsed = await csvErrors(csv.file, () =>
        inTransaction(journal.db, async () => {
          const read = await csv.readAsync(
            batchSize,
            (bars) => {
              const rows = overlap.add(bars, storedFor(bars, (from, to) => journal.klines.iterateKlines(symbol, interval, from, to)));
              // Refused once the file is read (its counts are reported whole): nothing more to write.
              if (overlap.changed > 0 && !replace) return;
              if (rows.length > 0) journal.klines.insertKlines(rows.map((b) => ({ ...b, symbol, interval, source })));
            },
            signal,
          );
          if (overlap.changed > 0 && !replace) throw refused({ dry: false });
          // In force from the first bar imported, so a backtest of these bars finds it (journal.exchangeInfo.at).
          if (rules) journal.exchangeInfo.save(read.firstOpen, rules.body);
          return read;
        }),
      );
      committed = true;
      const lines = summary(parsed, symbol);
      lines.push(storedLine(overlap, replace, false));
      if (rules) lines.push(`  rules       ${symbol} from ${rules.file}, saved as the exchangeInfo snapshot in force from ${formatTime(parsed.firstOpen)}`);
      const held = journal.klines.klineRange(symbol, interval);
      io.out(
        [
          `Imported ${symbol} ${interval} from ${csv.file} into ${path}`,
          ...lines,
          held ? `  journal     ${symbol} ${interval} now holds ${held.count} bars, ${formatTime(held.first)} .. ${formatTime(held.last)}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
      return parsed;
    } finally {
      journal.close();
    }
  } finally {
    // A journal this import created holds nothing after a rollback: remove it (and its WAL files),
    // so that a bad file leaves no journal behind, as when the file was checked before opening one.
    if (createdHere && !committed) for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  }
}

/**
 * `work` in one IMMEDIATE transaction held across its awaits, committed when it resolves, rolled
 * back when it throws. By hand, as better-sqlite3's `transaction()` takes only a synchronous
 * function; nothing else uses the connection meanwhile (the import is the process's one command).
 */
async function inTransaction<T>(db: Database, work: () => Promise<T>): Promise<T> {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = await work();
    db.exec('COMMIT');
    return result;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

/**
 * `fn`, with a bad file (KlineCsvError) as a usage error saying that nothing was imported, and a
 * read stopped by a signal (ReadStopped) as ImportStopped naming `file`.
 */
async function csvErrors<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof KlineCsvError) throw new UsageError(`${e.message}\nnothing was imported`);
    if (e instanceof ReadStopped) throw new ImportStopped(file, e.reason);
    throw e;
  }
}

type OverlapCounts = Pick<OverlapCount, 'new' | 'identical' | 'completing' | 'changed'>;

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
function refusal(o: OverlapCounts & { firstChange: ChangedBar | undefined }, at: { symbol: string; interval: string; file: string; path: string; dry: boolean }): UsageError {
  const first = o.firstChange!;
  // The values clipped (kline-csv-error.ts): a row may be up to 4 KB, a message stays short.
  const diff = first.changes.map((c) => `${c.field} ${clipped(c.stored)} -> ${clipped(c.file)}`).join(', ');
  return new UsageError(
    [
      `${at.file}: ${o.changed} ${at.symbol} ${at.interval} bar(s) differ from the bars ${at.path} holds at the same open times ` +
        `(${o.identical} identical, ${o.new} new); ${at.dry ? 'the import would be refused' : 'nothing was imported'}`,
      `  first at ${formatTime(first.openTime)}: ${diff} (stored -> file)`,
      `  pass --replace to overwrite the stored bars with the file's`,
    ].join('\n'),
  );
}

function summary(r: KlineCsvSummary, symbol: string): string[] {
  const lines = [
    `  layout      ${r.layout.columns} columns, ${r.layout.header ? 'header row' : 'no header'}, times in ${r.layout.timeUnit}`,
    `  series      ${symbol} ${r.interval} (interval from the ${r.intervalSource === 'spacing' ? 'bar spacing' : r.intervalSource === 'option' ? 'option' : 'file name'})`,
    `  rows        ${r.rows} read, ${r.barCount} bars`,
    r.duplicates === 0
      ? '  duplicates  none'
      : `  duplicates  ${r.duplicates} rows repeated the open time before them; kept the last copy (${r.identicalDuplicates} identical, ${r.duplicates - r.identicalDuplicates} different)`,
    `  range       ${formatTime(r.firstOpen)} .. ${formatTime(r.lastOpen)} (open times)`,
  ];
  if (r.gapCount === 0) lines.push('  gaps        none');
  else {
    lines.push(`  gaps        ${r.gapCount} (${r.missing} bars missing)`);
    for (const g of r.gaps.slice(0, GAPS_SHOWN)) lines.push(`              ${formatTime(g.from)} .. ${formatTime(g.to)} (${g.missing})`);
    if (r.gapCount > GAPS_SHOWN) lines.push(`              ... and ${r.gapCount - GAPS_SHOWN} more`);
  }
  for (const w of r.warnings) lines.push(`  warning     ${w}`);
  return lines;
}
