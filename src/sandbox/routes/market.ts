/**
 * Spec 4.4 market data (public, NONE): depth from the engine's book, everything else from the
 * market-data store the engine's trades feed (market-data/store.ts builds the wire shapes,
 * including the notes 5.2-5.4 variants).
 *
 * - depth: `limit` 5, 10, 20, 50, 100 or 200 levels per side (default 100); 0 answers 200 (spec);
 *   a size between the listed ones is raised to the next listed size, which is what its weight
 *   charges (endpoints/areas/market.ts depthWeight).
 * - trades: limit default 500; <= 0 or > 1000 answers 1000 (spec 4.4), oldest first.
 * - klines: the most recent without startTime/endTime (spec 4.4); only periods that traded exist.
 * - ticker24hr, tickerPrice, bookTicker: `symbol` -> one object, `symbols` -> an array in the order
 *   asked, neither -> every configured symbol (the params layer already reads the notes 2.1 list
 *   forms and rejects sending both).
 * - pairs (spec 2.6): `baseToken` is the base asset and `quoteToken` the quote asset, as the field
 *   names say. The spec's sample swaps them (notes 5.6); the sandbox does not copy that mistake.
 * Unknown symbols answer -1025 naming `symbol` or `symbols` (or the legacy -1121) as exchangeInfo does.
 */
import { toList } from '../../exchange/params/normalize.ts';
import type { SandboxPlugin } from '../http/plugin.ts';
import { defineHandlers, venueErrors, type HandlerContext } from '../http/route-types.ts';
import type { KlineInterval, MarketDataStore } from '../market-data/index.ts';
import { engineOf, int, requiredSymbol, symbolConfig } from './spot/context.ts';

const DEPTH_SIZES = [5, 10, 20, 50, 100, 200] as const;

function storeOf(ctx: HandlerContext): MarketDataStore {
  const store = ctx.sandbox.services.marketData;
  if (store === undefined) throw venueErrors.unknown();
  return store;
}

export function depthLevels(limit: number | undefined): number {
  if (limit === undefined) return 100;
  if (limit <= 0) return 200;
  return DEPTH_SIZES.find((n) => n >= limit) ?? 200;
}

/** `symbol` -> one, `symbols` -> several, neither -> all; `one` tells which answer shape. */
function selection(ctx: HandlerContext): { one: boolean; symbols: string[] } {
  const single = ctx.params['symbol'];
  if (single !== undefined && single !== '') return { one: true, symbols: [symbolConfig(ctx, single).symbol] };
  const many = ctx.params['symbols'];
  const names = many === undefined || many === '' ? undefined : toList(many);
  if (names === undefined) return { one: false, symbols: ctx.sandbox.config.symbols.map((s) => s.symbol) };
  if (names.length === 0) throw venueErrors.invalidParam('symbols', 'must list at least one symbol');
  return { one: false, symbols: names.map((n) => symbolConfig(ctx, n, 'symbols').symbol) };
}

function perSymbol<T>(ctx: HandlerContext, answer: (symbol: string) => T): T | T[] {
  const { one, symbols } = selection(ctx);
  const rows = symbols.map(answer);
  return one ? (rows[0] as T) : rows;
}

export const marketHandlers = defineHandlers({
  'market.depth': (ctx) => engineOf(ctx).depth(requiredSymbol(ctx), depthLevels(int(ctx.params['limit']))),
  'market.trades': (ctx) => storeOf(ctx).recentTrades(requiredSymbol(ctx), int(ctx.params['limit'])),
  'market.klines': (ctx) =>
    storeOf(ctx).klines(requiredSymbol(ctx), ctx.params['interval'] as KlineInterval, {
      startTime: int(ctx.params['startTime']),
      endTime: int(ctx.params['endTime']),
      limit: int(ctx.params['limit']),
    }),
  'market.ticker24hr': (ctx) => perSymbol(ctx, (s) => storeOf(ctx).ticker24hr(s)),
  'market.tickerPrice': (ctx) => perSymbol(ctx, (s) => storeOf(ctx).priceTicker(s)),
  'market.bookTicker': (ctx) => perSymbol(ctx, (s) => storeOf(ctx).bookTicker(s)),
  'market.avgPrice': (ctx) => storeOf(ctx).avgPrice(requiredSymbol(ctx)),
  'market.pairs': (ctx) => ctx.sandbox.config.symbols.map((s) => ({ symbol: s.symbol, quoteToken: s.quoteAsset, baseToken: s.baseAsset })),
});

export function marketPlugin(): SandboxPlugin {
  return { name: 'market', handlers: marketHandlers };
}
