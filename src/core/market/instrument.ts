/**
 * A tradable symbol and its rules, parsed from one exchangeInfo symbol object (spec 2.2) with
 * typed filters (spec 2.3). Precisions and counts may arrive as "8" or 8 (protocol notes 5.2).
 * Filter types we do not know are kept in `unknownFilters` so callers can report them: a rule we
 * cannot check is never treated as passed in silence.
 */
import type { Dec, DecimalLike } from '../money/decimal.ts';
import { dec } from '../money/decimal.ts';
import type { RoundMode } from '../money/rounding.ts';
import { roundOnGrid } from './decimal-grid.ts';
import { isKnownFilterType, parseFilter } from './filters/index.ts';
import type { FilterOf, FilterType, SymbolFilter } from './filters/index.ts';
import { asArray, asObject, at, InstrumentParseError, join, readInt, readString, readStringArray } from './parse-fields.ts';

/** Spec 2.1 symbol statuses; others are kept as given. */
export type SymbolStatus = 'TRADING' | 'BREAK' | 'CANCEL_ONLY' | (string & {});

export interface Instrument {
  readonly symbol: string;
  readonly status: SymbolStatus;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly baseAssetPrecision: number;
  readonly quoteAssetPrecision: number;
  /** Order types the symbol accepts; undefined when exchangeInfo left the field out. */
  readonly orderTypes: readonly string[] | undefined;
  readonly filters: readonly SymbolFilter[];
  /** filterType strings not recognised, in the order they appeared. */
  readonly unknownFilters: readonly string[];
  /** The first filter of that type, if any. */
  filter<T extends FilterType>(filterType: T): FilterOf<T> | undefined;
  /** Onto the PRICE_FILTER tick grid from minPrice (nearest by default); unchanged without one. */
  roundPrice(price: DecimalLike, mode?: RoundMode): Dec;
  /** Onto the LOT_SIZE step grid from minQty (down by default); unchanged without one. */
  roundQty(quantity: DecimalLike, mode?: RoundMode): Dec;
}

function parseFilters(raw: unknown, path: string): { filters: SymbolFilter[]; unknownFilters: string[] } {
  const filters: SymbolFilter[] = [];
  const unknownFilters: string[] = [];
  asArray(raw, path).forEach((item, i) => {
    const itemPath = at(path, i);
    const obj = asObject(item, itemPath);
    const filterType = readString(obj, 'filterType', itemPath);
    if (isKnownFilterType(filterType)) filters.push(parseFilter(filterType, obj, itemPath));
    else unknownFilters.push(filterType);
  });
  return { filters, unknownFilters };
}

/** Parse one symbol object; `path` prefixes error paths (parseInstruments passes `symbols[i]`). */
export function parseInstrument(raw: unknown, path = ''): Instrument {
  const obj = asObject(raw, path === '' ? 'symbol object' : path);
  const scalars = {
    symbol: readString(obj, 'symbol', path),
    status: readString(obj, 'status', path),
    baseAsset: readString(obj, 'baseAsset', path),
    quoteAsset: readString(obj, 'quoteAsset', path),
    baseAssetPrecision: readInt(obj, 'baseAssetPrecision', path),
    quoteAssetPrecision: readInt(obj, 'quoteAssetPrecision', path),
    orderTypes: obj['orderTypes'] === undefined ? undefined : readStringArray(obj, 'orderTypes', path),
  };
  const parsed = parseFilters(obj['filters'], join(path, 'filters'));
  // Frozen all the way down (Decimals aside): the order manager's pre-trade checks read these very
  // objects, and a strategy reaches them through ctx.instrument() (filters, orderTypes).
  const filters: readonly SymbolFilter[] = Object.freeze(parsed.filters.map((f) => Object.freeze(f)));
  const unknownFilters: readonly string[] = Object.freeze(parsed.unknownFilters);
  if (scalars.orderTypes !== undefined) Object.freeze(scalars.orderTypes);
  const filter = <T extends FilterType>(filterType: T): FilterOf<T> | undefined =>
    filters.find((f): f is FilterOf<T> => f.filterType === filterType);
  const instrument: Instrument = {
    ...scalars,
    filters,
    unknownFilters,
    filter,
    roundPrice(price, mode = 'nearest') {
      const f = filter('PRICE_FILTER');
      return f ? roundOnGrid(dec(price, 'value'), f.tickSize, f.minPrice, mode) : dec(price, 'price');
    },
    roundQty(quantity, mode = 'down') {
      const f = filter('LOT_SIZE');
      return f ? roundOnGrid(dec(quantity, 'value'), f.stepSize, f.minQty, mode) : dec(quantity, 'quantity');
    },
  };
  return Object.freeze(instrument);
}

/** All symbols of an exchangeInfo response (spec 2.2), by symbol. Duplicated symbols are an error. */
export function parseInstruments(exchangeInfo: unknown): Map<string, Instrument> {
  const symbols = asArray(asObject(exchangeInfo, 'exchangeInfo')['symbols'], 'symbols');
  const out = new Map<string, Instrument>();
  symbols.forEach((raw, i) => {
    const path = at('symbols', i);
    const instrument = parseInstrument(raw, path);
    if (out.has(instrument.symbol)) throw new InstrumentParseError(join(path, 'symbol'), instrument.symbol, 'is listed twice');
    out.set(instrument.symbol, instrument);
  });
  return out;
}
