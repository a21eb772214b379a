/**
 * A run's trades and open trade, printed from its round-trip book (core/portfolio/round-trips.ts:
 * the exact records): the RoundTrip and OpenTrade objects of types.ts, amounts rounded to 12
 * decimals for reporting only (two divisions and six roundings a trip). They are made the first
 * time `run.trades` / `run.openTrade` is read (lazy-field.ts); metrics read the records
 * (`tripRecordsOf`, `reportedPnl`), so a run that is only ranked (a sweep, the benchmark) never
 * makes them.
 */
import { X40 } from '../../core/money/exact40.ts';
import type { RoundTripBook, TripRecord } from '../../core/portfolio/round-trips.ts';
import { defineLazyField, lazySource } from './lazy-field.ts';
import type { OpenTrade, RoundTrip } from '../types.ts';

type Num = X40;

const ZERO = X40.ZERO;
const DP = 12;
const text = (d: Num) => d.toFixedDp(DP);

/** Each book's trips as printed so far (the book stays pure: the printing is kept beside it). */
const printed = new WeakMap<RoundTripBook, RoundTrip[]>();

/** The book's closed trips as RoundTrips (made on first read, then kept; trips closed later are added). */
export function tripsOf(book: RoundTripBook): RoundTrip[] {
  const records = book.records;
  let made = printed.get(book);
  if (made === undefined) printed.set(book, (made = []));
  for (let i = made.length; i < records.length; i++) made.push(roundTripOf(book.symbol, records[i] as TripRecord));
  return made;
}

/** A record's PnL as reported (rounded to the 12 places its text shows): what the trade metrics count and sum. */
export const reportedPnl = (r: TripRecord): Num => r.pnl.roundDp(DP);

/** The RoundTrip of a record: the types.ts object, its keys in that order, its amounts printed. */
function roundTripOf(symbol: string, r: TripRecord): RoundTrip {
  return {
    symbol,
    direction: 'LONG',
    entryTime: r.entryTime,
    exitTime: r.exitTime,
    entryPrice: text(r.buyQty.gt(ZERO) ? r.buyNotional.div(r.buyQty) : ZERO),
    exitPrice: text(r.sellNotional.div(r.sellQty)),
    qty: text(r.buyQty.gt(ZERO) ? r.buyQty : r.sellQty),
    pnl: text(r.pnl),
    returnRatio: r.buyNotional.gt(ZERO) ? r.pnl.div(r.buyNotional).toNumber() : 0,
    fees: text(r.fees),
    barsHeld: r.barsHeld,
    ...(r.entryTag === undefined ? {} : { entryTag: r.entryTag }),
    ...(r.exitTag === undefined ? {} : { exitTag: r.exitTag }),
  };
}

/**
 * Define `run.trades` as the book's trips, made on first read (lazy-field.ts). Call it where
 * `trades` belongs in the object's key order.
 */
export function attachTrades<T extends object>(run: T, book: RoundTripBook): T & { trades: RoundTrip[] } {
  defineLazyField(run, 'trades', book, tripsOf);
  return run as T & { trades: RoundTrip[] };
}

/**
 * The OpenTrade of the book's open trip, valued at `markText` (the last close); undefined when flat.
 * `endBar` is the run's bar count, the number of the bar after the last: a closed trip counts its
 * bars to its exit's bar (the bar closes it was held at), and a position valued at the last close
 * was held at that close too.
 */
export function openTradeOf(book: RoundTripBook, symbol: string, markText: string, endBar: number): OpenTrade | undefined {
  const r = book.open;
  if (r === undefined) return undefined;
  const mark = X40.parse(markText);
  const value = r.qty.times(mark);
  return {
    symbol,
    direction: 'LONG',
    entryTime: r.entryTime,
    qty: text(r.qty),
    cost: text(r.cost),
    entryPrice: text(r.cost.div(r.qty)),
    markPrice: text(mark),
    value: text(value),
    unrealizedPnl: text(value.minus(r.cost)),
    realizedPnl: text(r.realized),
    fees: text(r.fees),
    barsHeld: endBar - r.entryBar,
    ...(r.entryTag === undefined ? {} : { entryTag: r.entryTag }),
  };
}

/**
 * Define `run.openTrade` as the book's open trip at the end (openTradeOf, `endBar` the run's bar
 * count), made on first read like `trades` (the book's fills are applied then). Call it where
 * `openTrade` belongs in the key order; a run that ended flat reads undefined (JSON leaves the key out).
 */
export function attachOpenTrade<T extends object>(run: T, book: RoundTripBook, symbol: string, markText: string, endBar: number): T & { openTrade?: OpenTrade | undefined } {
  defineLazyField(run, 'openTrade', book, (b) => openTradeOf(b, symbol, markText, endBar));
  return run as T & { openTrade?: OpenTrade | undefined };
}

/** The trip records a run's trades come from, while they are not made yet (and not replaced). */
export function tripRecordsOf(run: object): readonly TripRecord[] | undefined {
  return lazySource<RoundTripBook>(run, 'trades')?.records;
}

