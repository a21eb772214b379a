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
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { compareDecimalText, isPlainDecimal } from './decimal-text.ts';
import { closeTimeOf, intervalOfSpacing, isKlineInterval, KLINE_INTERVALS, type KlineInterval } from './intervals.ts';
import { KlineCsvError } from './kline-csv-error.ts';
import { headerProblem, isColumnCount, timeUnitOfDigits, toMs, type KlineCsvLayout, type TimeUnit } from './kline-csv-layout.ts';
import { commonSpacing, findGaps, type KlineGap } from './kline-gaps.ts';
import { intervalFromFileName, symbolFromFileName } from './series-name.ts';

export { KlineCsvError } from './kline-csv-error.ts';
export type { KlineCsvLayout, TimeUnit } from './kline-csv-layout.ts';
export type { KlineGap } from './kline-gaps.ts';

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
}

export interface DuplicateRow {
  /** Line of the later copy, the one kept. */
  line: number;
  openTime: number;
  /** True when every field equals the replaced row's (a paging overlap), false when it differs (a candle that was still forming). */
  identical: boolean;
}

export interface KlineCsvResult {
  /** From the option, else the file name; undefined when neither tells. */
  symbol: string | undefined;
  interval: KlineInterval;
  intervalSource: 'option' | 'file-name' | 'spacing';
  layout: KlineCsvLayout;
  /** Data rows read (before dropping duplicates). */
  rows: number;
  /** Strictly increasing by open time, one per open time. */
  bars: KlineBar[];
  /** Rows that repeated the previous open time and replaced it. */
  duplicates: number;
  duplicateRows: DuplicateRow[];
  gaps: KlineGap[];
  /** Total of `gaps[].missing`. */
  missing: number;
  /** Things worth a look that did not refuse the file. */
  warnings: string[];
}

const DIGITS = /^\d+$/;
const PRICE_FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

function unquote(field: string): string {
  const f = field.trim();
  return f.length >= 2 && f.startsWith('"') && f.endsWith('"') ? f.slice(1, -1).trim() : f;
}

/** Read and parse a kline CSV file. Throws KlineCsvError; nothing is returned for a bad file. */
export function readKlineCsv(path: string, options: Omit<KlineCsvOptions, 'fileName'> = {}): KlineCsvResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new KlineCsvError(path, undefined, `cannot read the file: ${(e as Error).message}`);
  }
  return parseKlineCsv(text, { ...options, fileName: path });
}

export function parseKlineCsv(text: string, options: KlineCsvOptions = {}): KlineCsvResult {
  const file = options.fileName ?? '(csv)';
  const fail = (line: number | undefined, reason: string): never => {
    throw new KlineCsvError(file, line, reason);
  };

  let optionInterval: KlineInterval | undefined;
  if (options.interval !== undefined) {
    if (!isKlineInterval(options.interval)) fail(undefined, `unknown interval '${options.interval}' (one of ${KLINE_INTERVALS.join(', ')})`);
    optionInterval = options.interval as KlineInterval;
  }

  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n');

  let columns: 6 | 11 | 12 | undefined;
  let header = false;
  let unit: TimeUnit | undefined;
  let rows = 0;
  const bars: KlineBar[] = [];
  const lineOf: number[] = [];
  const duplicateRows: DuplicateRow[] = [];

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') continue;
    const f = line.split(',').map(unquote);

    if (columns === undefined) {
      if (!isColumnCount(f.length)) {
        fail(lineNo, `${f.length} columns; a kline file has 6 (open_time,open,high,low,close,volume), 11 or 12 (the /klines array order)`);
      }
      columns = f.length as 6 | 11 | 12;
      if (!DIGITS.test(f[0]!)) {
        const problem = headerProblem(f);
        if (problem) fail(lineNo, problem);
        header = true;
        continue;
      }
    }
    if (f.length !== columns) fail(lineNo, `${f.length} fields, expected ${columns} like the first row`);
    rows++;

    const openText = f[0]!;
    if (!DIGITS.test(openText)) fail(lineNo, `open time '${openText}' is not an integer epoch time`);
    const rowUnit = timeUnitOfDigits(openText.length);
    if (!rowUnit) fail(lineNo, `open time '${openText}' has ${openText.length} digits; expected epoch ms (13), µs (16) or seconds (10)`);
    if (unit === undefined) unit = rowUnit;
    else if (rowUnit !== unit) fail(lineNo, `open time '${openText}' is in ${rowUnit}, earlier rows in ${unit}`);
    const openTime = toMs(openText, unit!);

    for (let c = 1; c <= 5; c++) {
      if (!isPlainDecimal(f[c]!)) fail(lineNo, `${PRICE_FIELDS[c - 1]} '${f[c]}' is not a non-negative decimal number`);
    }
    const [, open, high, low, close, volume] = f as [string, string, string, string, string, string];
    if (compareDecimalText(high, open) < 0 || compareDecimalText(high, close) < 0) {
      fail(lineNo, `high ${high} is below ${compareDecimalText(high, open) < 0 ? `open ${open}` : `close ${close}`}`);
    }
    if (compareDecimalText(low, open) > 0 || compareDecimalText(low, close) > 0) {
      fail(lineNo, `low ${low} is above ${compareDecimalText(low, open) > 0 ? `open ${open}` : `close ${close}`}`);
    }

    const bar: KlineBar = { openTime, open, high, low, close, volume, closeTime: -1 };
    if (columns !== 6) {
      const closeText = f[6]!;
      if (!DIGITS.test(closeText) || timeUnitOfDigits(closeText.length) !== unit) {
        fail(lineNo, `close time '${closeText}' is not an epoch time in ${unit} like the open time`);
      }
      bar.closeTime = toMs(closeText, unit!, true);
      if (bar.closeTime <= openTime) fail(lineNo, `close time ${iso(bar.closeTime)} is not after the open time ${iso(openTime)}`);
      const names = ['quote volume', 'trades', 'taker buy base volume', 'taker buy quote volume'] as const;
      for (const c of [7, 9, 10]) {
        if (!isPlainDecimal(f[c]!)) fail(lineNo, `${names[c - 7]} '${f[c]}' is not a non-negative decimal number`);
      }
      if (!DIGITS.test(f[8]!)) fail(lineNo, `trades '${f[8]}' is not a non-negative integer`);
      bar.quoteVolume = f[7]!;
      bar.trades = Number(f[8]);
      bar.takerBuyBaseVolume = f[9]!;
      bar.takerBuyQuoteVolume = f[10]!;
    }

    const prev = bars[bars.length - 1];
    if (prev && openTime === prev.openTime) {
      duplicateRows.push({ line: lineNo, openTime, identical: sameBar(prev, bar) });
      bars[bars.length - 1] = bar;
      lineOf[lineOf.length - 1] = lineNo;
      continue;
    }
    if (prev && openTime < prev.openTime) {
      fail(lineNo, `open time ${iso(openTime)} goes backwards (line ${lineOf[lineOf.length - 1]} has ${iso(prev.openTime)}); open times must increase`);
    }
    bars.push(bar);
    lineOf.push(lineNo);
  }

  if (columns === undefined) fail(undefined, 'empty file: no header and no rows');
  if (bars.length === 0) fail(undefined, 'no data rows (only a header)');

  const openTimes = bars.map((b) => b.openTime);
  const warnings: string[] = [];
  const spacing = commonSpacing(openTimes);
  const spacingInterval = spacing === undefined ? undefined : intervalOfSpacing(spacing);
  let interval: KlineInterval;
  let intervalSource: KlineCsvResult['intervalSource'];
  const fromName = options.fileName ? intervalFromFileName(options.fileName) : undefined;
  if (optionInterval) {
    interval = optionInterval;
    intervalSource = 'option';
  } else if (fromName) {
    interval = fromName;
    intervalSource = 'file-name';
  } else if (spacingInterval) {
    interval = spacingInterval;
    intervalSource = 'spacing';
  } else {
    return fail(
      undefined,
      spacing === undefined
        ? 'cannot tell the interval from a single bar: pass --interval'
        : `cannot tell the interval: the most common spacing, ${spacing} ms, is not a kline interval; pass --interval`,
    );
  }
  if (spacingInterval && spacingInterval !== interval) {
    warnings.push(`the most common spacing is ${spacingInterval} but the interval is ${interval} (from the ${intervalSource === 'option' ? 'option' : 'file name'})`);
  }

  const { gaps, problem } = findGaps(openTimes, interval);
  if (problem) {
    const b = bars[problem.index]!;
    const before = bars[problem.index - 1]!;
    fail(
      lineOf[problem.index],
      problem.kind === 'too-close'
        ? `open time ${iso(b.openTime)} is less than one ${interval} interval after the previous bar at ${iso(before.openTime)} (line ${lineOf[problem.index - 1]}); wrong interval?`
        : `open time ${iso(b.openTime)} is not on the ${interval} grid of the previous bar at ${iso(before.openTime)}`,
    );
  }
  if (columns === 6) for (const b of bars) b.closeTime = closeTimeOf(b.openTime, interval);
  else {
    // The venue's close time is the bar's last ms; anything else hints at a wrong interval or a mangled column.
    const odd = bars.map((b, i) => (b.closeTime === closeTimeOf(b.openTime, interval) ? -1 : i)).filter((i) => i >= 0);
    if (odd.length > 0) warnings.push(`${odd.length} row(s) have a close time other than the last ms of their ${interval} bar (first at line ${lineOf[odd[0]!]})`);
  }

  let symbol: string | undefined;
  if (options.symbol !== undefined) {
    symbol = options.symbol.trim().toUpperCase();
    if (!/^[A-Z0-9]{2,30}$/.test(symbol)) fail(undefined, `symbol '${options.symbol}' is not a symbol (letters and digits, e.g. BTCUSDT)`);
  } else if (options.fileName) {
    symbol = symbolFromFileName(basename(options.fileName));
  }

  // A file cut short (a copy or download interrupted) can end inside its last row's last field,
  // which still parses: without a final newline, say that the last row was taken as it stands.
  const body = text.replace(/[\r\n\s]+$/, '');
  if (bars.length > 0 && !/\n\s*$/.test(text)) {
    const lastLine = body.split('\n').length;
    warnings.push(`the file does not end with a newline: its last row (line ${lastLine}) was read as it stands; check it is complete (a file cut short ends inside a row)`);
  }
  return {
    symbol,
    interval,
    intervalSource,
    layout: { columns: columns!, header, timeUnit: unit! },
    rows,
    bars,
    duplicates: duplicateRows.length,
    duplicateRows,
    gaps,
    missing: gaps.reduce((n, g) => n + g.missing, 0),
    warnings,
  };
}

function sameBar(a: KlineBar, b: KlineBar): boolean {
  return (
    a.open === b.open &&
    a.high === b.high &&
    a.low === b.low &&
    a.close === b.close &&
    a.volume === b.volume &&
    a.closeTime === b.closeTime &&
    a.quoteVolume === b.quoteVolume &&
    a.trades === b.trades &&
    a.takerBuyBaseVolume === b.takerBuyBaseVolume &&
    a.takerBuyQuoteVolume === b.takerBuyQuoteVolume
  );
}
