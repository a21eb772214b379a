/**
 * What importing bars would do to the bars already stored at the same open times ("nothing is
 * lost"): each bar of the file is
 *
 *   - new:       no stored bar at its open time;
 *   - identical: a stored bar with the same values (decimals compared by value, so "61126.0" and
 *                "61126.00" agree), nothing to write; the stored bar stays as it is;
 *   - completing: the same values, and the file gives columns the stored bar lacks (quote
 *                volume, trades, taker volumes of a 12-column file over bars from a 6-column one):
 *                written as the stored bar with those columns filled in, nothing lost;
 *   - changed:   a value both give differs: writing it would replace a stored bar, which the
 *                import refuses unless told (`--replace`: the file's bar replaces the stored one).
 *
 * A column the file lacks while the stored bar has it does not count against identical: the
 * stored bar keeps it.
 */
import type { KlineTuple } from '../journal/klines/kline-store.ts';
import { compareDecimalText, isPlainDecimal } from './decimal-text.ts';
import type { KlineBar } from './kline-files/kline-csv.ts';

/** A bar field that differs: its name and the stored and the file's value. */
export interface FieldChange {
  readonly field: string;
  readonly stored: string;
  readonly file: string;
}

export interface ChangedBar {
  readonly openTime: number;
  readonly changes: readonly FieldChange[];
}

export interface KlineOverlap {
  readonly new: number;
  readonly identical: number;
  readonly completing: number;
  readonly changed: number;
  /** The first bar that would change a stored one (oldest first). */
  readonly firstChange: ChangedBar | undefined;
  /** The bars to write: new ones, completed ones (merged with the stored bar), and the changed ones when `replace`. */
  rows(replace: boolean): KlineBar[];
}

const TEXT_FIELDS = [
  ['open', 1],
  ['high', 2],
  ['low', 3],
  ['close', 4],
  ['volume', 5],
] as const;
const OPTIONAL_TEXT = [
  ['quoteVolume', 7],
  ['takerBuyBaseVolume', 9],
  ['takerBuyQuoteVolume', 10],
] as const;

/**
 * Compare `bars` (strictly increasing open times, as kline-csv returns them) with `stored`, the
 * stored bars of the same series from the first bar's open time on, oldest first (e.g.
 * `journal.klines.iterateKlines(symbol, interval, first, last + 1)`).
 */
export function compareWithStored(bars: readonly KlineBar[], stored: Iterable<KlineTuple>): KlineOverlap {
  const changedBars = new Set<KlineBar>();
  const keep = new OverlapCount(true, (bar) => changedBars.add(bar));
  const all = keep.add(bars, stored);
  return {
    new: keep.new,
    identical: keep.identical,
    completing: keep.completing,
    changed: keep.changed,
    firstChange: keep.firstChange,
    rows: (replace) => (replace ? all : all.filter((b) => !changedBars.has(b))),
  };
}

/**
 * `compareWithStored` a batch at a time, for an import that reads its file in batches: the counts
 * and the first change add up over the batches, and each batch gives the bars to write for it.
 */
export class OverlapCount {
  new = 0;
  identical = 0;
  completing = 0;
  changed = 0;
  firstChange: ChangedBar | undefined;

  /** `replace`: whether the changed bars are among the bars to write; `onChanged` sees each of them. */
  constructor(
    private readonly replace: boolean,
    private readonly onChanged?: (bar: KlineBar) => void,
  ) {}

  /**
   * Compare the next batch (open times after the previous batch's) with `stored`, the stored bars
   * of its series from its first open time on (up to its last is enough). Returns the bars to
   * write for it, oldest first: new ones, completed ones (merged with the stored bar), and the
   * changed ones when replacing.
   */
  add(bars: readonly KlineBar[], stored: Iterable<KlineTuple>): KlineBar[] {
    const it = stored[Symbol.iterator]();
    let next = it.next();
    const rows: KlineBar[] = [];
    for (const bar of bars) {
      while (!next.done && next.value[0] < bar.openTime) next = it.next();
      if (next.done || next.value[0] !== bar.openTime) {
        this.new++;
        rows.push(bar);
        continue;
      }
      const s = next.value;
      const changes = differences(s, bar);
      if (changes.length > 0) {
        this.changed++;
        this.firstChange ??= { openTime: bar.openTime, changes };
        this.onChanged?.(bar);
        if (this.replace) rows.push(bar);
      } else if (adds(s, bar)) {
        this.completing++;
        rows.push(merged(s, bar));
      } else {
        this.identical++;
      }
    }
    it.return?.();
    return rows;
  }
}

function sameDecimal(a: string, b: string): boolean {
  return a === b || (isPlainDecimal(a) && isPlainDecimal(b) && compareDecimalText(a, b) === 0);
}

/** The values the stored bar has and the file would overwrite with another value, or drop. */
function differences(s: KlineTuple, bar: KlineBar): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [field, i] of TEXT_FIELDS) if (!sameDecimal(s[i], bar[field])) out.push({ field, stored: s[i], file: bar[field] });
  if (s[6] !== bar.closeTime) out.push({ field: 'closeTime', stored: String(s[6]), file: String(bar.closeTime) });
  for (const [field, i] of OPTIONAL_TEXT) {
    const stored = s[i];
    const file = bar[field];
    if (stored !== null && file !== undefined && !sameDecimal(stored, file)) out.push({ field, stored, file });
  }
  if (s[8] !== null && bar.trades !== undefined && s[8] !== bar.trades) out.push({ field: 'trades', stored: String(s[8]), file: String(bar.trades) });
  return out;
}

/** True when the file gives a column the stored bar lacks. */
function adds(s: KlineTuple, bar: KlineBar): boolean {
  return OPTIONAL_TEXT.some(([field, i]) => s[i] === null && bar[field] !== undefined) || (s[8] === null && bar.trades !== undefined);
}

/** The stored bar, its exact text kept, with the columns it lacked taken from the file. */
function merged(s: KlineTuple, bar: KlineBar): KlineBar {
  const out: KlineBar = { openTime: s[0], open: s[1], high: s[2], low: s[3], close: s[4], volume: s[5], closeTime: s[6] };
  const quoteVolume = s[7] ?? bar.quoteVolume;
  const trades = s[8] ?? bar.trades;
  const takerBuyBaseVolume = s[9] ?? bar.takerBuyBaseVolume;
  const takerBuyQuoteVolume = s[10] ?? bar.takerBuyQuoteVolume;
  if (quoteVolume !== undefined) out.quoteVolume = quoteVolume;
  if (trades !== undefined) out.trades = trades;
  if (takerBuyBaseVolume !== undefined) out.takerBuyBaseVolume = takerBuyBaseVolume;
  if (takerBuyQuoteVolume !== undefined) out.takerBuyQuoteVolume = takerBuyQuoteVolume;
  return out;
}
