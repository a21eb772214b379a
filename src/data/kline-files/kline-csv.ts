/**
 * Kline CSV reader (spec 2.6 kline shape): turns a file in one of the common layouts into validated
 * bars with exact decimal text, or refuses the whole file with the line number and the reason.
 *
 * Rules (see kline-csv-layout.ts for the layouts):
 * - comma separated, optional header, CRLF and a UTF-8 BOM tolerated, blank lines skipped;
 * - times in epoch ms (13 digits), µs (16 digits, floored to the ms) or s (10 digits, times 1000);
 *   one unit per file;
 * - prices and volumes: non-negative plain decimals, kept as the exact text;
 *   high >= max(open, close), low <= min(open, close);
 * - open times strictly increase. A row repeating the previous row's open time replaces it (the
 *   last copy is the closed kline; REST paging overlaps and still-forming candles produce these) and
 *   is counted as a duplicate. An open time going backwards refuses the file.
 * - interval: the option, else the file name, else the most common spacing. Bars closer than one
 *   interval or off the interval's grid refuse the file; missing bars are reported as gaps.
 * - 6-column files carry no close time: it is derived as the last ms of the bar.
 *
 * The file is read a chunk at a time, never whole, and its bars are handed on in batches as they
 * become final (`klineCsvFile`: what `halyard import` streams into the journal); the rows
 * themselves are read by kline-csv-rows.ts. `readKlineCsv` and `parseKlineCsv` collect the bars
 * into one array. A file may be compressed (kline-file-source.ts: `.csv.gz`, or a `.zip` holding
 * one CSV): its lines are read as it decompresses, and the symbol and the interval come from the
 * zip entry's name, else the zip's.
 *
 * A file is read in steps (read-steps.ts): straight through (`klineCsvFile`, `read`), or with a
 * turn of the event loop every so often and stopped by an AbortSignal (`klineCsvFileAsync`,
 * `readAsync`: what `halyard import` uses, so that Ctrl-C ends it at once).
 */
import { basename } from 'node:path';
import { intervalOfSpacing, isKlineInterval, KLINE_INTERVALS, type KlineInterval } from '../intervals.ts';
import { KlineCsvError, quoted } from './kline-csv-error.ts';
import type { KlineCsvLayout } from './kline-csv-layout.ts';
import { KlineCsvRows } from './kline-csv-rows.ts';
import { klineFileSource } from './kline-file-source.ts';
import { PAUSE_CHARS, runSteps, runStepsAsync, type ReadSteps } from '../read-steps.ts';
import type { KlineFileSource } from './kline-file-source.ts';
import type { KlineGap } from '../kline-gaps.ts';
import { intervalFromFileName, symbolFromFileName } from './series-name.ts';

export { KlineCsvError } from './kline-csv-error.ts';
export type { KlineCsvLayout, TimeUnit } from './kline-csv-layout.ts';
export type { KlineGap } from '../kline-gaps.ts';

/** One bar; the optional fields are present for 11- and 12-column files. */
export interface KlineBar {
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  closeTime: number;
  quoteVolume?: string;
  trades?: number;
  takerBuyBaseVolume?: string;
  takerBuyQuoteVolume?: string;
}

export interface KlineCsvOptions {
  /** Name used in messages and to infer symbol and interval; the path for readKlineCsv. */
  fileName?: string;
  symbol?: string;
  interval?: string;
  /** Gaps listed in `gaps` (the first ones); the rest are only counted (`gapCount`, `missing`). Default all. */
  gapsKept?: number;
}

export interface DuplicateRow {
  /** Line of the later copy, the one kept. */
  line: number;
  openTime: number;
  /** True when every field equals the replaced row's (a paging overlap), false when it differs (a candle that was still forming). */
  identical: boolean;
}

/** What reading a file found, without the bars themselves (`KlineCsvFile.read` hands those out in batches). */
export interface KlineCsvSummary {
  /** From the option, else the file name; undefined when neither tells. */
  symbol: string | undefined;
  interval: KlineInterval;
  intervalSource: 'option' | 'file-name' | 'spacing';
  layout: KlineCsvLayout;
  /** Data rows read (before dropping duplicates). */
  rows: number;
  /** Bars (one per open time). */
  barCount: number;
  /** Open times of the first and the last bar. */
  firstOpen: number;
  lastOpen: number;
  /** Rows that repeated the previous open time and replaced it; how many of them were identical to it. */
  duplicates: number;
  identicalDuplicates: number;
  /** The gaps (the first `gapsKept` of them), how many there are, and the bars they miss in all. */
  gaps: KlineGap[];
  gapCount: number;
  missing: number;
  /** Things worth a look that did not refuse the file. */
  warnings: string[];
}

export interface KlineCsvResult extends KlineCsvSummary {
  /** Strictly increasing by open time, one per open time. */
  bars: KlineBar[];
  /** Rows that repeated the previous open time and replaced it. */
  duplicateRows: DuplicateRow[];
}

/**
 * A kline file ready to read: its symbol and interval settled (the interval from the option, else
 * the file name, else, after a first pass over the file, the bar spacing), its rows not read yet.
 */
export interface KlineCsvFile {
  /** The file as messages name it: its path, or for a zip `path/X.zip (X.csv)`. */
  readonly file: string;
  /** Its name without the folder (`X.csv`, `X.csv.gz`, `X.zip (X.csv)`): the journal's `csv:<name>` source. */
  readonly name: string;
  readonly symbol: string | undefined;
  readonly interval: KlineInterval;
  readonly intervalSource: KlineCsvSummary['intervalSource'];
  /**
   * Read the file, handing its bars to `onBatch` in order, `batchSize` at a time (the last batch
   * shorter), each batch once its bars are final and checked. Throws KlineCsvError at the first bad
   * row, having handed on only the bars before it (a caller writing them does so in a transaction
   * the error rolls back). The array handed on is the caller's to keep.
   */
  read(batchSize: number, onBatch: (bars: KlineBar[]) => void): KlineCsvSummary;
  /**
   * `read`, giving the event loop a turn every PAUSE_CHARS characters (read-steps.ts); once
   * `signal` aborts, it throws ReadStopped there, having handed on only the bars before.
   */
  readAsync(batchSize: number, onBatch: (bars: KlineBar[]) => void, signal?: AbortSignal): Promise<KlineCsvSummary>;
}

/**
 * A kline CSV file (plain, `.gz` or a `.zip` holding one CSV), read in chunks (never held whole).
 * Throws KlineCsvError for a bad option, a zip without a single readable CSV, or a bad row met
 * while inferring the interval.
 */
export function klineCsvFile(path: string, options: Omit<KlineCsvOptions, 'fileName'> = {}): KlineCsvFile {
  const source = klineFileSource(path);
  return runSteps(klineCsv(() => source.lines(), options, source));
}

/**
 * `klineCsvFile`, its first pass over the file (the interval from the spacing) giving the event
 * loop a turn as `readAsync` does, and stopped the same way (ReadStopped) once `signal` aborts.
 */
export async function klineCsvFileAsync(path: string, options: Omit<KlineCsvOptions, 'fileName'> = {}, signal?: AbortSignal): Promise<KlineCsvFile> {
  const source = klineFileSource(path);
  return runStepsAsync(klineCsv(() => source.lines(), options, source), signal);
}

/** Read and parse a kline CSV file (plain, `.gz` or `.zip`). Throws KlineCsvError; nothing is returned for a bad file. */
export function readKlineCsv(path: string, options: Omit<KlineCsvOptions, 'fileName'> = {}): KlineCsvResult {
  const duplicateRows: DuplicateRow[] = [];
  const source = klineFileSource(path);
  return collect(runSteps(klineCsv(() => source.lines(), options, source, duplicateRows)), duplicateRows);
}

export function parseKlineCsv(text: string, options: KlineCsvOptions = {}): KlineCsvResult {
  const duplicateRows: DuplicateRow[] = [];
  const file = options.fileName ?? '(csv)';
  const names = { label: file, name: basename(file), seriesNames: options.fileName === undefined ? [] : [options.fileName] };
  return collect(runSteps(klineCsv(() => text.split('\n'), options, names, duplicateRows)), duplicateRows);
}

/** Every bar of the file in one array (the whole-file API). */
function collect(csv: KlineCsvFile, duplicateRows: DuplicateRow[]): KlineCsvResult {
  const bars: KlineBar[] = [];
  const summary = csv.read(Infinity, (batch) => {
    for (const bar of batch) bars.push(bar);
  });
  return { ...summary, bars, duplicateRows };
}

/** How a file is named: in messages (`label`), in the journal (`name`), and the names its symbol and interval are read from (a file source's, or a text's given name). */
type KlineCsvNames = Pick<KlineFileSource, 'label' | 'name' | 'seriesNames'>;

/** The first of the names that tells. */
function fromNames<T>(names: readonly string[], read: (name: string) => T | undefined): T | undefined {
  for (const name of names) {
    const found = read(name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The symbol of the file: the option, checked, else from the file's names. */
function klineCsvSymbol(options: KlineCsvOptions, names: KlineCsvNames): string | undefined {
  if (options.symbol === undefined) return fromNames(names.seriesNames, (n) => symbolFromFileName(basename(n)));
  const symbol = options.symbol.trim().toUpperCase();
  if (!/^[A-Z0-9]{2,30}$/.test(symbol)) throw new KlineCsvError(names.label, undefined, `symbol ${quoted(options.symbol)} is not a symbol (letters and digits, e.g. BTCUSDT)`);
  return symbol;
}

/**
 * `lines` fed to `rows`, with a pause (read-steps.ts) every PAUSE_CHARS characters, and after a
 * line that `handedOn` says ended with a batch handed on (a caller's write, the longest step).
 */
function* feed(lines: Iterable<string>, rows: KlineCsvRows, handedOn: () => boolean = () => false): ReadSteps<void> {
  let read = 0;
  for (const line of lines) {
    rows.line(line);
    read += line.length + 1;
    if (read >= PAUSE_CHARS || handedOn()) {
      read = 0;
      yield;
    }
  }
}

/**
 * `lines` may be called more than once: a file whose interval comes from its spacing is read
 * twice (in this function's steps, the first time). Duplicate rows are listed in `duplicateRows`
 * when given, else only counted.
 */
function* klineCsv(lines: () => Iterable<string>, options: KlineCsvOptions, names: KlineCsvNames, duplicateRows?: DuplicateRow[]): ReadSteps<KlineCsvFile> {
  const file = names.label;
  const fail = (reason: string): never => {
    throw new KlineCsvError(file, undefined, reason);
  };
  if (options.interval !== undefined && !isKlineInterval(options.interval)) fail(`unknown interval ${quoted(options.interval)} (one of ${KLINE_INTERVALS.join(', ')})`);
  const symbol = klineCsvSymbol(options, names);

  const fromName = fromNames(names.seriesNames, intervalFromFileName);
  let interval: KlineInterval;
  let intervalSource: KlineCsvSummary['intervalSource'];
  if (options.interval !== undefined) {
    interval = options.interval as KlineInterval;
    intervalSource = 'option';
  } else if (fromName) {
    interval = fromName;
    intervalSource = 'file-name';
  } else {
    // A first pass for the spacing alone (every row checked, no bar kept): the grid checks and the
    // close times of the real pass need the interval before its first bar is final.
    const scan = new KlineCsvRows(file, () => {});
    yield* feed(lines(), scan);
    scan.end();
    const spacing = scan.spacing.common();
    const fromSpacing = spacing === undefined ? undefined : intervalOfSpacing(spacing);
    interval =
      fromSpacing ??
      fail(
        spacing === undefined
          ? 'cannot tell the interval from a single bar: pass --interval'
          : `cannot tell the interval: the most common spacing, ${spacing} ms, is not a kline interval; pass --interval`,
      );
    intervalSource = 'spacing';
  }

  /** The real pass, the interval known: the bars handed on in batches, the summary returned. */
  function* readSteps(batchSize: number, onBatch: (bars: KlineBar[]) => void): ReadSteps<KlineCsvSummary> {
    let batch: KlineBar[] = [];
    let flushed = false;
    const reader = new KlineCsvRows(
      file,
      (bar) => {
        batch.push(bar);
        if (batch.length >= batchSize) {
          const full = batch;
          batch = [];
          onBatch(full);
          flushed = true;
        }
      },
      { interval, ...(duplicateRows ? { duplicateRows } : {}), ...(options.gapsKept !== undefined ? { gapsKept: options.gapsKept } : {}) },
    );
    yield* feed(lines(), reader, () => {
      const was = flushed;
      flushed = false;
      return was;
    });
    reader.end();
    if (batch.length > 0) onBatch(batch);

    const warnings: string[] = [];
    const spacing = reader.spacing.common();
    const spacingInterval = spacing === undefined ? undefined : intervalOfSpacing(spacing);
    if (spacingInterval && spacingInterval !== interval) {
      warnings.push(`the most common spacing is ${spacingInterval} but the interval is ${interval} (from the ${intervalSource === 'option' ? 'option' : 'file name'})`);
    }
    if (reader.oddCloseTimes > 0) {
      warnings.push(`${reader.oddCloseTimes} row(s) have a close time other than the last ms of their ${interval} bar (first at line ${reader.firstOddLine})`);
    }
    // A file cut short (a copy or download interrupted) can end inside its last row's last field,
    // which still parses: without a final newline, say that the last row was taken as it stands.
    if (!reader.lastLineBlank) {
      warnings.push(`the file does not end with a newline: its last row (line ${reader.lines}) was read as it stands; check it is complete (a file cut short ends inside a row)`);
    }
    return {
      symbol,
      interval,
      intervalSource,
      layout: { columns: reader.columns!, header: reader.header, timeUnit: reader.unit! },
      rows: reader.rows,
      barCount: reader.bars,
      firstOpen: reader.firstOpen,
      lastOpen: reader.lastOpen,
      duplicates: reader.duplicates,
      identicalDuplicates: reader.identicalDuplicates,
      gaps: reader.gaps,
      gapCount: reader.gapCount,
      missing: reader.missing,
      warnings,
    };
  }

  return {
    file,
    name: names.name,
    symbol,
    interval,
    intervalSource,
    read: (batchSize, onBatch) => runSteps(readSteps(batchSize, onBatch)),
    readAsync: (batchSize, onBatch, signal) => runStepsAsync(readSteps(batchSize, onBatch), signal),
  };
}
