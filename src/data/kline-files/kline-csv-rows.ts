/**
 * The rows of a kline CSV read one line at a time (kline-csv.ts has the rules and the whole-file
 * API): each line is checked as it comes and becomes a bar, and a bar is handed on once it is
 * final, i.e. once a row with a later open time arrives (a row repeating the open time replaces
 * it, kept-last) or the file ends. Only the bar in hand is held, so a file of any length is read
 * in the memory of one row; what the summary needs is counted as it goes.
 *
 * Given the interval, each final bar is also checked against the one before (too close, off the
 * grid: data/kline-gaps.ts) and gets its close time (6 columns); without it (the interval is to be
 * inferred from the spacing) those checks wait for a second pass that has it.
 */
import { compareDecimalText, isPlainDecimal } from '../decimal-text.ts';
import { closeTimeOf, type KlineInterval } from '../intervals.ts';
import { clipped, KlineCsvError, quoted } from './kline-csv-error.ts';
import { headerProblem, isColumnCount, LONG_LINE_REASON, MAX_LINE_BYTES, timeUnitOfDigits, toMs, type ColumnCount, type TimeUnit } from './kline-csv-layout.ts';
import type { DuplicateRow, KlineBar } from './kline-csv.ts';
import { gapBefore, SpacingCounts, type KlineGap } from '../kline-gaps.ts';

const DIGITS = /^\d+$/;
const PRICE_FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;
const EXTRA_FIELDS = ['quote volume', 'trades', 'taker buy base volume', 'taker buy quote volume'] as const;

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

function unquote(field: string): string {
  const f = field.trim();
  return f.length >= 2 && f.startsWith('"') && f.endsWith('"') ? f.slice(1, -1).trim() : f;
}

export interface KlineCsvRowsOptions {
  /** Checks each bar against the grid and gives 6-column bars their close time; without it, neither. */
  interval?: KlineInterval;
  /** Gaps kept in `gaps` (the first ones); the rest are only counted. Default all. */
  gapsKept?: number;
  /** Where to list the duplicate rows; without it they are only counted. */
  duplicateRows?: DuplicateRow[];
}

export class KlineCsvRows {
  columns: ColumnCount | undefined;
  header = false;
  unit: TimeUnit | undefined;
  /** Data rows read (before dropping duplicates). */
  rows = 0;
  /** Final bars handed on. */
  bars = 0;
  firstOpen = NaN;
  lastOpen = NaN;
  duplicates = 0;
  identicalDuplicates = 0;
  readonly gaps: KlineGap[] = [];
  gapCount = 0;
  missing = 0;
  readonly spacing = new SpacingCounts();
  /** 12-column rows whose close time is not the last ms of their bar, and the line of the first. */
  oddCloseTimes = 0;
  firstOddLine = 0;
  /** Lines fed; the last one's number. */
  lines = 0;
  /** Whether the last line fed was blank (whitespace only): no final newline leaves a row there. */
  lastLineBlank = true;

  private readonly interval: KlineInterval | undefined;
  private readonly gapsKept: number;
  private readonly duplicateRows: DuplicateRow[] | undefined;
  /** The bar read last, not final yet (a repeat of its open time would replace it), and its line. */
  private pending: KlineBar | undefined;
  private pendingLine = 0;
  /** Line of the last final bar. */
  private lastLine = 0;

  constructor(
    private readonly file: string,
    private readonly onBar: (bar: KlineBar) => void,
    options: KlineCsvRowsOptions = {},
  ) {
    this.interval = options.interval;
    this.gapsKept = options.gapsKept ?? Infinity;
    this.duplicateRows = options.duplicateRows;
  }

  private fail(line: number | undefined, reason: string): never {
    throw new KlineCsvError(this.file, line, reason);
  }

  /** The next line of the file, without its '\n' (a trailing '\r' is dropped here). */
  line(text: string): void {
    const lineNo = ++this.lines;
    // A text split in memory (parseKlineCsv) is bounded as a file's lines are (file-lines.ts).
    if (text.length > MAX_LINE_BYTES) this.fail(lineNo, LONG_LINE_REASON);
    let line = lineNo === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    this.lastLineBlank = line.trim() === '';
    if (this.lastLineBlank) return;
    const f = line.split(',').map(unquote);

    if (this.columns === undefined) {
      if (!isColumnCount(f.length)) {
        this.fail(lineNo, `${f.length} columns; a kline file has 6 (open_time,open,high,low,close,volume), 11 or 12 (the /klines array order)`);
      }
      this.columns = f.length;
      if (!DIGITS.test(f[0]!)) {
        const problem = headerProblem(f);
        if (problem) this.fail(lineNo, problem);
        this.header = true;
        return;
      }
    }
    const columns = this.columns;
    if (f.length !== columns) this.fail(lineNo, `${f.length} fields, expected ${columns} like the first row`);
    this.rows++;

    const openText = f[0]!;
    if (!DIGITS.test(openText)) this.fail(lineNo, `open time ${quoted(openText)} is not an integer epoch time`);
    const rowUnit = timeUnitOfDigits(openText.length);
    if (!rowUnit) this.fail(lineNo, `open time ${quoted(openText)} has ${openText.length} digits; expected epoch ms (13), µs (16) or seconds (10)`);
    if (this.unit === undefined) this.unit = rowUnit;
    else if (rowUnit !== this.unit) this.fail(lineNo, `open time ${quoted(openText)} is in ${rowUnit}, earlier rows in ${this.unit}`);
    const unit = this.unit;
    const openTime = toMs(openText, unit);

    for (let c = 1; c <= 5; c++) {
      if (!isPlainDecimal(f[c]!)) this.fail(lineNo, `${PRICE_FIELDS[c - 1]} ${quoted(f[c]!)} is not a non-negative decimal number`);
    }
    const [, open, high, low, close, volume] = f as [string, string, string, string, string, string];
    if (compareDecimalText(high, open) < 0 || compareDecimalText(high, close) < 0) {
      this.fail(lineNo, `high ${clipped(high)} is below ${compareDecimalText(high, open) < 0 ? `open ${clipped(open)}` : `close ${clipped(close)}`}`);
    }
    if (compareDecimalText(low, open) > 0 || compareDecimalText(low, close) > 0) {
      this.fail(lineNo, `low ${clipped(low)} is above ${compareDecimalText(low, open) > 0 ? `open ${clipped(open)}` : `close ${clipped(close)}`}`);
    }

    const bar: KlineBar = { openTime, open, high, low, close, volume, closeTime: -1 };
    if (columns !== 6) {
      const closeText = f[6]!;
      if (!DIGITS.test(closeText) || timeUnitOfDigits(closeText.length) !== unit) {
        this.fail(lineNo, `close time ${quoted(closeText)} is not an epoch time in ${unit} like the open time`);
      }
      bar.closeTime = toMs(closeText, unit, true);
      if (bar.closeTime <= openTime) this.fail(lineNo, `close time ${iso(bar.closeTime)} is not after the open time ${iso(openTime)}`);
      for (const c of [7, 9, 10]) {
        if (!isPlainDecimal(f[c]!)) this.fail(lineNo, `${EXTRA_FIELDS[c - 7]} ${quoted(f[c]!)} is not a non-negative decimal number`);
      }
      if (!DIGITS.test(f[8]!)) this.fail(lineNo, `trades ${quoted(f[8]!)} is not a non-negative integer`);
      bar.quoteVolume = f[7]!;
      bar.trades = Number(f[8]);
      bar.takerBuyBaseVolume = f[9]!;
      bar.takerBuyQuoteVolume = f[10]!;
    }

    const prev = this.pending;
    if (prev && openTime === prev.openTime) {
      const identical = sameBar(prev, bar);
      this.duplicates++;
      if (identical) this.identicalDuplicates++;
      this.duplicateRows?.push({ line: lineNo, openTime, identical });
      this.pending = bar;
      this.pendingLine = lineNo;
      return;
    }
    if (prev && openTime < prev.openTime) {
      this.fail(lineNo, `open time ${iso(openTime)} goes backwards (line ${this.pendingLine} has ${iso(prev.openTime)}); open times must increase`);
    }
    if (prev) this.settle(prev, this.pendingLine);
    this.pending = bar;
    this.pendingLine = lineNo;
  }

  /** The file has ended: the bar in hand is final. Throws for a file without rows. */
  end(): void {
    if (this.columns === undefined) this.fail(undefined, 'empty file: no header and no rows');
    if (!this.pending) this.fail(undefined, 'no data rows (only a header)');
    const last = this.pending;
    this.pending = undefined;
    this.settle(last, this.pendingLine);
  }

  /** `bar` (from `line`) is final: checked against the final bar before it, counted, handed on. */
  private settle(bar: KlineBar, line: number): void {
    const interval = this.interval;
    const t = bar.openTime;
    if (this.bars > 0) {
      const prev = this.lastOpen;
      this.spacing.add(t - prev);
      if (interval !== undefined) {
        const step = gapBefore(prev, t, interval);
        if (step !== undefined && 'kind' in step) {
          this.fail(
            line,
            step.kind === 'too-close'
              ? `open time ${iso(t)} is less than one ${interval} interval after the previous bar at ${iso(prev)} (line ${this.lastLine}); wrong interval?`
              : `open time ${iso(t)} is not on the ${interval} grid of the previous bar at ${iso(prev)}`,
          );
        }
        if (step !== undefined) {
          this.gapCount++;
          this.missing += step.missing;
          if (this.gaps.length < this.gapsKept) this.gaps.push(step);
        }
      }
    } else this.firstOpen = t;
    if (interval !== undefined) {
      const closeTime = closeTimeOf(t, interval);
      if (this.columns === 6) bar.closeTime = closeTime;
      // The venue's close time is the bar's last ms; anything else hints at a wrong interval or a mangled column.
      else if (bar.closeTime !== closeTime && this.oddCloseTimes++ === 0) this.firstOddLine = line;
    }
    this.bars++;
    this.lastOpen = t;
    this.lastLine = line;
    this.onBar(bar);
  }
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
