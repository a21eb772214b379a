/**
 * Exchange rules from a file (spec 2.2 exchangeInfo), for data that came without them: a kline CSV
 * imported offline has no exchangeInfo snapshot beside it, and a backtest needs the symbol's
 * filters. The file holds what the exchange answers to `GET /openapi/v1/exchangeInfo` (what
 * `halyard exchange-info` prints: an object with `symbols`), or one symbol object of it. It is
 * read strictly: a file that is not JSON, a symbol object that breaks the spec's shape, or a file
 * that does not list the symbol asked for is an ExchangeInfoFileError naming the file and the
 * field.
 */
import { readFileSync } from 'node:fs';
import { parseInstruments } from '../core/market/index.ts';
import type { Instrument } from '../core/market/index.ts';

export class ExchangeInfoFileError extends Error {
  override readonly name = 'ExchangeInfoFileError';

  constructor(
    message: string,
    /** The file is good but lists other symbols (another file of several may hold this one). */
    readonly notListed = false,
  ) {
    super(message);
  }
}

export interface ExchangeInfoFromFile {
  readonly file: string;
  /** An exchangeInfo body (the file's own, or `{ symbols: [the file's symbol object] }`): what a journal snapshot holds. */
  readonly body: { readonly symbols: readonly unknown[] };
  readonly instrument: Instrument;
  /** The symbol's object in the file (what sweep workers parse again). */
  readonly raw: unknown;
}

/** The rules of `symbol` in `file`. */
export function readExchangeInfoFile(file: string, symbol: string): ExchangeInfoFromFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory, not a file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message;
    throw new ExchangeInfoFileError(`cannot read the exchange rules file ${file}: ${why}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ExchangeInfoFileError(`${file} is not JSON (${(e as Error).message}): expected an exchangeInfo response or one of its symbol objects`);
  }
  const body = asBody(json, file);
  // A file holding one symbol object (often written by hand for a CSV's rules) is wrapped as
  // `symbols[0]`: its errors name the fields as they are in the file, without that prefix.
  const single = body !== json;
  body.symbols.forEach((s, i) => refuseMissingFields(s, file, single ? 'the symbol object' : `symbols[${i}]`));
  let instruments: Map<string, Instrument>;
  try {
    instruments = parseInstruments(body);
  } catch (e) {
    const message = (e as Error).message;
    throw new ExchangeInfoFileError(`${file}: ${single && message.startsWith('symbols[0].') ? message.slice('symbols[0].'.length) : message}`);
  }
  const instrument = instruments.get(symbol);
  if (instrument === undefined) {
    const listed = [...instruments.keys()];
    throw new ExchangeInfoFileError(`${file} has no rules for ${symbol}; it lists ${listed.length === 0 ? 'no symbol' : listed.slice(0, 10).join(', ') + (listed.length > 10 ? `, and ${listed.length - 10} more` : '')}`, true);
  }
  const raw = body.symbols.find((s) => (s as { symbol?: unknown }).symbol === symbol);
  return { file, body, instrument, raw };
}

/** The fields every symbol object has (spec 2.2; orderTypes may be left out). */
const SYMBOL_FIELDS = ['symbol', 'status', 'baseAsset', 'baseAssetPrecision', 'quoteAsset', 'quoteAssetPrecision', 'filters'] as const;

/** Every field a symbol object lacks, named at once: a file written by hand learns them in one go, not one run each. */
function refuseMissingFields(raw: unknown, file: string, where: string): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return; // parseInstruments names it
  const missing = SYMBOL_FIELDS.filter((k) => (raw as Record<string, unknown>)[k] === undefined);
  if (missing.length === 0) return;
  throw new ExchangeInfoFileError(`${file}: ${where} lacks ${missing.join(', ')} (a symbol object holds ${SYMBOL_FIELDS.join(', ')}, and optionally orderTypes; spec 2.2)`);
}

/** The file's JSON as an exchangeInfo body: as it is when it has `symbols`, wrapped when it is one symbol object. */
function asBody(json: unknown, file: string): { readonly symbols: readonly unknown[] } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ExchangeInfoFileError(`${file}: expected an exchangeInfo object (with "symbols") or one symbol object, found ${Array.isArray(json) ? 'an array' : typeof json}`);
  const o = json as Record<string, unknown>;
  if ('symbols' in o) {
    if (!Array.isArray(o['symbols'])) throw new ExchangeInfoFileError(`${file}: "symbols" must be an array`);
    return o as { symbols: unknown[] };
  }
  if ('symbol' in o && 'filters' in o) return { symbols: [o] };
  throw new ExchangeInfoFileError(`${file}: expected an exchangeInfo object (with "symbols") or one symbol object (with "symbol" and "filters")`);
}
