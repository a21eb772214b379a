/**
 * The OHLCV bar shape indicators, the synthetic market and strategies compute over (spec 2.6
 * kline: open time, open, high, low, close, volume, close time).
 *
 * Numbers are for indicators (design rule 4 lets indicators use `number`); `exact` keeps the
 * venue's decimal strings so nothing that becomes a price has to come back from a float.
 * Pure: no I/O, no clock.
 */

/** The decimal strings of a bar, exactly as the venue (or the generator) wrote them. */
export interface CandleText {
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

/**
 * The texts of a source that reuses one CandleText object for every bar (the journal's replay):
 * `keep()` gives a CandleText of the current bar that stays valid after the source moves on. It
 * is a cheap reference that cuts the strings only when they are read (a backtest keeps a
 * thousand bars of history and reads the texts of almost none), the same object for repeated
 * calls on one bar. Sources that hand out a new object per bar do not need it: a reader that
 * must keep texts copies the strings of any other CandleText.
 */
export interface ReusedCandleText extends CandleText {
  keep(): CandleText;
}

/** A CandleText of the same bar that outlives the source's next bar, without copying, when the source offers one (ReusedCandleText). */
export function keptText(text: CandleText): CandleText | undefined {
  return typeof (text as Partial<ReusedCandleText>).keep === 'function' ? (text as ReusedCandleText).keep() : undefined;
}

/** A bar's close kept past the bar: the kept reference of a reused text object, else the string itself. */
export type KeptClose = CandleText | string;

/** The close of the bar `text` holds, still readable after its source moves on (no string cut for a reused text object). */
export function keepClose(text: CandleText): KeptClose {
  return keptText(text) ?? text.close;
}

/** The text of a kept close. */
export function closeText(k: KeptClose): string {
  return typeof k === 'string' ? k : k.close;
}

export interface Candle {
  /** Milliseconds since the epoch; a kline is identified by its open time (spec 4.4). */
  readonly openTime: number;
  /** Last millisecond inside the bar (openTime + interval - 1): the bar is closed once now > closeTime. */
  readonly closeTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
  readonly exact: CandleText;
}

/** What ATR reads. */
export interface Hlc {
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

/** The numeric fields a line can be drawn from. */
export const CANDLE_FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;
export type CandleField = (typeof CANDLE_FIELDS)[number];

/** A candle's numbers by field: the columns of a kline block, the slots of a strategy's bar history. */
export type CandleNumberField = 'openTime' | 'closeTime' | CandleField;
export type CandleColumns = Readonly<Record<CandleNumberField, Float64Array>>;

/** Row `i` of `cols` into a reused candle's numbers (its texts are the caller's to set). */
export function readCandleRow(into: Record<CandleNumberField, number>, cols: CandleColumns, i: number): void {
  into.openTime = cols.openTime[i]!;
  into.closeTime = cols.closeTime[i]!;
  into.open = cols.open[i]!;
  into.high = cols.high[i]!;
  into.low = cols.low[i]!;
  into.close = cols.close[i]!;
  into.volume = cols.volume[i]!;
}

/** Build a candle from the wire's decimal strings (spec 2.6 kline items 0..6). */
export function candleFromText(openTime: number, closeTime: number, text: CandleText): Candle {
  return {
    openTime,
    closeTime,
    open: Number(text.open),
    high: Number(text.high),
    low: Number(text.low),
    close: Number(text.close),
    volume: Number(text.volume),
    exact: { open: text.open, high: text.high, low: text.low, close: text.close, volume: text.volume },
  };
}
