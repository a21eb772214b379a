/**
 * backtest/sources/: where bars and rules come from (journal, CSV), the bar contract and how many bars
 * a warm-up takes. The lowest backtest folder: it imports only backtest/types.ts.
 *
 * Where backtest bars and rules come from. Journal: the series' klines streamed in open-time
 * order ([from, to) on open time), from the kline blocks (journal/klines/kline-blocks.ts) where there
 * are some and a chunk of the rows' price columns at a time elsewhere, each bar filled into one
 * reused Candle whose exact texts are cut from a block only when read; the instrument from the
 * exchangeInfo snapshot in force at the start of the range (journal.exchangeInfo.at), else a
 * fallback (the CLI passes the sandbox config's symbol), else an error that says what to do. Synthetic: the seeded generator's
 * columnar series (core/synthetic), iterated without materialising the year.
 */
import { readCandleRow } from '../../core/indicators/candle.ts';
import type { Candle, CandleText, ReusedCandleText } from '../../core/indicators/candle.ts';
import { parseInstruments } from '../../core/market/index.ts';
import type { Instrument } from '../../core/market/index.ts';
import { generateSeries } from '../../core/synthetic/index.ts';
import type { GenerateOptions, SyntheticSeries } from '../../core/synthetic/index.ts';
import type { Journal } from '../../journal/journal.ts';
import { decodeBlock, firstAtOrAfter } from '../../journal/klines/kline-blocks.ts';
import type { KlineBlock, RowTexts } from '../../journal/klines/kline-blocks.ts';
import type { BarTuple, StoredBlock } from '../../journal/klines/kline-store.ts';
import { ReusedCandle } from './bar-input.ts';

/** Rows a series may hold beyond its packed blocks (the journal packs every full 1024). */
const UNPACKED_ROOM = 1024;
const MIN = Number.MIN_SAFE_INTEGER;
const MAX = Number.MAX_SAFE_INTEGER;

/**
 * Bars of one series, oldest first; the yielded Candle is reused (the backtest copies nothing it
 * keeps). Reads the journal's kline blocks where it has them (columns decoded a block at a time,
 * no per-row SQLite work) and the price columns of the rows elsewhere, a chunk at a time.
 */
export function journalBars(journal: Journal, symbol: string, interval: string, from?: number, to?: number): IterableIterator<Candle> & { readonly sizeHint: number } {
  return new JournalBars(journal, symbol, interval, from ?? MIN, to ?? MAX);
}

/**
 * The exact texts of the bar the reused candle holds. From a block they are cut from the block's
 * text when one of them is first read for that bar (a consumer that reads no text, such as an
 * indicator pass over the numbers, makes no string), then kept for the bar; from the rows, they
 * are the rows' strings.
 */
class BarTexts implements RowTexts {
  open = '';
  high = '';
  low = '';
  close = '';
  volume = '';
  /** The block row whose texts are not read yet (block undefined: the fields are the bar's). */
  private block: KlineBlock | undefined;
  private row = 0;

  /** What `keep` gave for the current bar (one object however often it is asked). */
  private kept: CandleText | undefined;

  /** The candle holds row `row` of `block` now. */
  atBlockRow(block: KlineBlock, row: number): void {
    this.block = block;
    this.row = row;
    this.kept = undefined;
  }

  /** The candle holds a row's own strings now. */
  atRow(open: string, high: string, low: string, close: string, volume: string): void {
    this.block = undefined;
    this.kept = undefined;
    this.open = open;
    this.high = high;
    this.low = low;
    this.close = close;
    this.volume = volume;
  }

  /**
   * The current bar's texts as an object that outlives it (ReusedCandleText): a reference to the
   * block row while its texts are not cut yet (cut when first read), else a copy of the strings.
   */
  keep(): CandleText {
    if (this.kept !== undefined) return this.kept;
    const b = this.block;
    return (this.kept = b !== undefined ? new BlockRowText(b, this.row) : Object.freeze({ open: this.open, high: this.high, low: this.low, close: this.close, volume: this.volume }));
  }

  /** The fields, read from the block first if they are not yet. */
  get(): this {
    const b = this.block;
    if (b !== undefined) {
      b.rowTexts(this.row, this);
      this.block = undefined;
    }
    return this;
  }
}

/**
 * The texts of one block row, cut from the block when first read (BarTexts.keep). Internal to
 * readers that keep a bar (the strategy history, the simulated venue's idle price): it holds the
 * block, so it lives no longer than they keep the bar.
 */
class BlockRowText implements CandleText {
  private texts: RowTexts | undefined;

  constructor(
    private readonly block: KlineBlock,
    private readonly row: number,
  ) {}

  private cut(): RowTexts {
    if (this.texts === undefined) {
      const t: RowTexts = { open: '', high: '', low: '', close: '', volume: '' };
      this.block.rowTexts(this.row, t);
      this.texts = t;
    }
    return this.texts;
  }

  get open(): string {
    return this.cut().open;
  }

  get high(): string {
    return this.cut().high;
  }

  get low(): string {
    return this.cut().low;
  }

  get close(): string {
    return this.cut().close;
  }

  get volume(): string {
    return this.cut().volume;
  }
}

/**
 * A CandleText over a BarTexts: own enumerable accessors (what spreads, JSON and structured
 * clones read), in the interface's key order, and nothing else enumerable. The accessors are
 * shared by every instance, so a read is as cheap as a field's once compiled.
 */
class LiveText implements ReusedCandleText {
  declare readonly open: string;
  declare readonly high: string;
  declare readonly low: string;
  declare readonly close: string;
  declare readonly volume: string;
  readonly #t: BarTexts;

  static readonly #FIELDS: readonly [string, PropertyDescriptor][] = [
    [
      'open',
      {
        get(this: LiveText): string {
          return this.#t.get().open;
        },
        enumerable: true,
      },
    ],
    [
      'high',
      {
        get(this: LiveText): string {
          return this.#t.get().high;
        },
        enumerable: true,
      },
    ],
    [
      'low',
      {
        get(this: LiveText): string {
          return this.#t.get().low;
        },
        enumerable: true,
      },
    ],
    [
      'close',
      {
        get(this: LiveText): string {
          return this.#t.get().close;
        },
        enumerable: true,
      },
    ],
    [
      'volume',
      {
        get(this: LiveText): string {
          return this.#t.get().volume;
        },
        enumerable: true,
      },
    ],
  ];

  constructor(t: BarTexts) {
    this.#t = t;
    for (const [k, d] of LiveText.#FIELDS) Object.defineProperty(this, k, d);
  }

  /** ReusedCandleText: this bar's texts, still readable after the next bar (a prototype method: not enumerable). */
  keep(): CandleText {
    return this.#t.keep();
  }
}

/** The iterator result `next` hands out, reused (a class: see the constructor of JournalBars). */
class IterResult {
  done = false;
  value: Candle | undefined = undefined;
}

/**
 * The iterator behind `journalBars`: a plain object rather than a generator, handing out one
 * reused result object and one reused Candle, so a year of bars allocates nothing per bar beyond
 * what the reads return and the texts a consumer reads. Consumers read `value` before the next
 * call (for...of does). The candle's texts stay readable until then, also after the last bar.
 *
 * The range is walked by open time: up to the next block's start from the rows (`barChunk`),
 * then the block's rows in range, then on from the block's stop. A block in a format this code
 * does not know is read from the rows instead.
 */
class JournalBars implements IterableIterator<Candle> {
  // Made in the constructor, not by field initialisers or object literals: docs/architecture.md,
  // "Objects made once per run".
  private readonly texts: BarTexts;
  private readonly candle: ReusedCandle<LiveText>;
  private readonly result: IterResult;
  private rows: BarTuple[] = [];
  private i = 0;
  private block: KlineBlock | undefined;
  private blockEnd = 0;
  /** The next stored block at or after the cursor (undefined: not looked up yet; null: none). */
  private nextBlock: StoredBlock | null | undefined;
  /** Rows (not blocks) up to here: the range of an unreadable block. */
  private rowsUntil: number;

  constructor(
    private readonly journal: Journal,
    private readonly symbol: string,
    private readonly interval: string,
    private cursor: number,
    private readonly end: number,
  ) {
    this.rowsUntil = cursor;
    this.texts = new BarTexts();
    this.candle = new ReusedCandle(new LiveText(this.texts));
    this.result = new IterResult();
  }

  [Symbol.iterator](): this {
    return this;
  }

  /**
   * About how many bars the range holds (the journal's packed blocks plus room for the rows not
   * packed yet): lets a consumer size its per-bar columns once instead of growing and joining them.
   */
  get sizeHint(): number {
    return this.journal.klines.blockRows(this.symbol, this.interval, this.cursor, this.end) + UNPACKED_ROOM;
  }

  next(): IteratorResult<Candle, undefined> {
    const r = this.result;
    const c = this.candle;
    for (;;) {
      const b = this.block;
      if (b !== undefined) {
        if (this.i < this.blockEnd) {
          const i = this.i++;
          readCandleRow(c, b, i);
          this.texts.atBlockRow(b, i);
          r.value = c;
          return r as IteratorResult<Candle, undefined>;
        }
      } else if (this.i < this.rows.length) {
        const k = this.rows[this.i++]!;
        c.openTime = k[0];
        c.closeTime = k[6];
        c.open = Number(k[1]);
        c.high = Number(k[2]);
        c.low = Number(k[3]);
        c.close = Number(k[4]);
        c.volume = Number(k[5]);
        this.texts.atRow(k[1], k[2], k[3], k[4], k[5]);
        r.value = c;
        return r as IteratorResult<Candle, undefined>;
      }
      if (!this.load()) {
        r.done = true;
        r.value = undefined;
        return r as IteratorResult<Candle, undefined>;
      }
    }
  }

  return(): IteratorResult<Candle, undefined> {
    this.rows = [];
    this.block = undefined;
    this.i = 0;
    this.cursor = this.end;
    return { done: true, value: undefined };
  }

  /** Move to the next rows or block of the range; false when there is none. */
  private load(): boolean {
    const klines = this.journal.klines;
    this.block = undefined;
    this.rows = [];
    this.i = 0;
    while (this.cursor < this.end) {
      if (this.nextBlock === undefined) this.nextBlock = klines.blockAfter(this.symbol, this.interval, Math.max(this.cursor, this.rowsUntil), this.end) ?? null;
      const nb = this.nextBlock;
      const rowsEnd = Math.min(this.end, Math.max(this.rowsUntil, nb === null ? this.end : nb.start));
      if (this.cursor < rowsEnd) {
        const rows = klines.barChunk(this.symbol, this.interval, this.cursor, rowsEnd);
        this.cursor = rows.length === klines.barChunkSize ? rows[rows.length - 1]![0] + 1 : rowsEnd;
        if (rows.length > 0) {
          this.rows = rows;
          return true;
        }
        continue;
      }
      if (nb === null) return false;
      this.nextBlock = undefined;
      const block = decodeBlock(nb.data);
      if (block === undefined) {
        this.rowsUntil = nb.stop;
        continue;
      }
      const lo = firstAtOrAfter(block, this.cursor);
      const hi = firstAtOrAfter(block, this.end);
      this.cursor = nb.stop;
      if (lo < hi) {
        this.block = block;
        this.i = lo;
        this.blockEnd = hi;
        return true;
      }
    }
    return false;
  }
}

export interface InstrumentChoice {
  readonly instrument: Instrument;
  /** 'journal': the snapshot taken at `takenAt`; 'fallback': none in the journal covers the start. */
  readonly source: 'journal' | 'fallback';
  readonly takenAt?: number;
  /** The snapshot's symbol object (spec 2.2) when the source is the journal: what sweep workers parse. */
  readonly raw?: unknown;
}

/**
 * The rules of `symbol` in force at `time`: the journal's last exchangeInfo snapshot listing the
 * symbol taken by then (or, when the first one listing it is later, that one: rules recorded after
 * the fact beat none), else `fallback`. A snapshot of another symbol taken since does not hide
 * them (record BTCPHP, then record ETHPHP: each snapshot lists its own symbol). Throws a RangeError
 * naming the fix when neither knows the symbol.
 */
export function instrumentAt(journal: Journal, symbol: string, time: number, fallback?: Instrument): InstrumentChoice {
  // at / latest after listing: a body without a symbols array (not one written by this program) is still read.
  for (const snap of [journal.exchangeInfo.listing(symbol, time), journal.exchangeInfo.at(time), journal.exchangeInfo.latest()]) {
    if (!snap) continue;
    let found: Instrument | undefined;
    try {
      found = parseInstruments(snap.body).get(symbol);
    } catch (e) {
      throw new RangeError(`exchangeInfo snapshot ${snap.id} of ${journal.file} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (found) {
      const raw = (snap.body as { symbols?: { symbol?: string }[] }).symbols?.find((x) => x.symbol === symbol);
      return { instrument: found, source: 'journal', takenAt: snap.takenAt, raw };
    }
  }
  if (fallback && fallback.symbol === symbol) return { instrument: fallback, source: 'fallback' };
  throw new RangeError(`no exchange rules for ${symbol}: the journal holds no exchangeInfo snapshot listing it and the sandbox config has no such symbol (record it with \`halyard record\`; save it from a file with \`halyard import CSV --exchange-info RULES.json\` or pass \`--exchange-info RULES.json\` to the command; or add the symbol to the sandbox config)`);
}

/** A seeded synthetic series (iterable of Candles). */
export function syntheticBars(options: GenerateOptions): SyntheticSeries {
  return generateSeries(options);
}
