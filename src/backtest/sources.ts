/**
 * Where backtest bars and rules come from. Journal: the series' klines streamed in open-time
 * order through the journal's chunked replay iterator (`iterateKlines`, [from, to) on open time),
 * each row filled into one reused Candle; the instrument from the exchangeInfo snapshot in force
 * at the start of the range (journal.exchangeInfo.at), else a fallback (the CLI passes the sandbox
 * config's symbol), else an error that says what to do. Synthetic: the seeded generator's
 * columnar series (core/synthetic), iterated without materialising the year.
 */
import type { Candle } from '../core/indicators/candle.ts';
import { parseInstruments } from '../core/market/index.ts';
import type { Instrument } from '../core/market/index.ts';
import { generateSeries } from '../core/synthetic/index.ts';
import type { GenerateOptions, SyntheticSeries } from '../core/synthetic/index.ts';
import type { Journal } from '../journal/journal.ts';
import { CandleScratch } from './bar-input.ts';

/** Bars of one series, oldest first; the yielded Candle is reused (the backtest copies nothing it keeps). */
export function* journalBars(journal: Journal, symbol: string, interval: string, from?: number, to?: number): Generator<Candle, void, undefined> {
  const scratch = new CandleScratch();
  const text = { open: '', high: '', low: '', close: '', volume: '' };
  for (const k of journal.klines.iterateKlines(symbol, interval, from, to)) {
    text.open = k[1];
    text.high = k[2];
    text.low = k[3];
    text.close = k[4];
    text.volume = k[5];
    yield scratch.fill(k[0], k[6], text);
  }
}

export interface InstrumentChoice {
  readonly instrument: Instrument;
  /** 'journal': the snapshot taken at `takenAt`; 'fallback': none in the journal covers the start. */
  readonly source: 'journal' | 'fallback';
  readonly takenAt?: number;
}

/**
 * The rules of `symbol` in force at `time`: the journal's exchangeInfo snapshot then (or, when
 * the journal's first snapshot is later, that one: rules recorded after the fact beat none), else
 * `fallback`. Throws a RangeError naming the fix when neither knows the symbol.
 */
export function instrumentAt(journal: Journal, symbol: string, time: number, fallback?: Instrument): InstrumentChoice {
  for (const snap of [journal.exchangeInfo.at(time), journal.exchangeInfo.latest()]) {
    if (!snap) continue;
    let found: Instrument | undefined;
    try {
      found = parseInstruments(snap.body).get(symbol);
    } catch (e) {
      throw new RangeError(`exchangeInfo snapshot ${snap.id} of ${journal.file} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (found) return { instrument: found, source: 'journal', takenAt: snap.takenAt };
  }
  if (fallback && fallback.symbol === symbol) return { instrument: fallback, source: 'fallback' };
  throw new RangeError(`no exchange rules for ${symbol}: the journal holds no exchangeInfo snapshot listing it and the sandbox config has no such symbol (record exchangeInfo with \`halyard record\`, or add the symbol to the sandbox config)`);
}

/** A seeded synthetic series (iterable of Candles). */
export function syntheticBars(options: GenerateOptions): SyntheticSeries {
  return generateSeries(options);
}
