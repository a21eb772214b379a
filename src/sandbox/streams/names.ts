/**
 * Market stream names (protocol notes 1 and 4). Names carry lower-case symbols; a symbol given in
 * upper case is accepted and the name made canonical (lower-case symbol), which is the name used in
 * LIST_SUBSCRIPTIONS and in the `stream` of wrapped events.
 */
import { isKlineInterval, type KlineInterval } from '../../core/market/intervals.ts';

export const DEPTH_LEVELS = [5, 10, 20, 200] as const;
export type DepthLevels = (typeof DEPTH_LEVELS)[number];

/** What a subscription asks for. `symbol` is upper case. */
export type MarketStream =
  | { kind: 'trade'; symbol: string }
  | { kind: 'aggTrade'; symbol: string }
  | { kind: 'kline'; symbol: string; interval: KlineInterval }
  | { kind: 'miniTicker'; symbol: string }
  | { kind: 'ticker'; symbol: string }
  | { kind: 'bookTicker'; symbol: string }
  | { kind: 'depth'; symbol: string; levels: DepthLevels }
  | { kind: 'depthDiff'; symbol: string; fast: boolean }
  | { kind: 'allMiniTickers' }
  | { kind: 'allTickers' }
  | { kind: 'allBookTickers' };

export type ParsedName = { ok: true; name: string; stream: MarketStream } | { ok: false };

const ALL: Record<string, MarketStream> = {
  '!miniTicker@arr': { kind: 'allMiniTickers' },
  '!ticker@arr': { kind: 'allTickers' },
  '!bookTicker': { kind: 'allBookTickers' },
};

const SYMBOL_AT = /^([A-Za-z0-9]{1,40})@(.+)$/;
const DEPTH = /^depth(5|10|20|200)?(@100ms)?$/;

/** Parse a market stream name; symbol existence is checked by the caller. */
export function parseStreamName(raw: string): ParsedName {
  const all = ALL[raw];
  if (all) return { ok: true, name: raw, stream: all };
  const m = SYMBOL_AT.exec(raw);
  if (!m) return { ok: false };
  const symbol = (m[1] as string).toUpperCase();
  const suffix = m[2] as string;
  const name = `${symbol.toLowerCase()}@${suffix}`;
  const simple = { trade: 'trade', aggTrade: 'aggTrade', miniTicker: 'miniTicker', ticker: 'ticker', bookTicker: 'bookTicker' } as const;
  if (suffix in simple) return { ok: true, name, stream: { kind: simple[suffix as keyof typeof simple], symbol } };
  if (suffix.startsWith('kline_')) {
    const interval = suffix.slice(6);
    return isKlineInterval(interval) ? { ok: true, name, stream: { kind: 'kline', symbol, interval } } : { ok: false };
  }
  const d = DEPTH.exec(suffix);
  if (!d) return { ok: false };
  if (d[1] === undefined) return { ok: true, name, stream: { kind: 'depthDiff', symbol, fast: d[2] !== undefined } };
  return { ok: true, name, stream: { kind: 'depth', symbol, levels: Number(d[1]) as DepthLevels } };
}

/** The symbol a stream is about, if any (for the "Invalid Symbols!" check). */
export function streamSymbol(s: MarketStream): string | undefined {
  return 'symbol' in s ? s.symbol : undefined;
}
