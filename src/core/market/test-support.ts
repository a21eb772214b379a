/**
 * Builders for the core/market tests: orders and market contexts from plain strings, so each
 * test states its numbers as the wire would carry them. Not part of the public surface.
 */
import { dec } from '../money/decimal.ts';
import type { DecimalLike } from '../money/decimal.ts';
import type { BookLevel, MarketContext, OrderCheckInput, OrderSide, OrderType } from './types.ts';

export interface OrderSpec {
  symbol?: string;
  side?: OrderSide;
  type?: OrderType;
  price?: DecimalLike;
  quantity?: DecimalLike;
  quoteOrderQty?: DecimalLike;
  stopPrice?: DecimalLike;
}

const opt = (v: DecimalLike | undefined) => (v === undefined ? undefined : dec(v));

/** A LIMIT BUY on BTCPHP unless told otherwise. */
export function order(spec: OrderSpec = {}): OrderCheckInput {
  return {
    symbol: spec.symbol ?? 'BTCPHP',
    side: spec.side ?? 'BUY',
    type: spec.type ?? 'LIMIT',
    price: opt(spec.price),
    quantity: opt(spec.quantity),
    quoteOrderQty: opt(spec.quoteOrderQty),
    stopPrice: opt(spec.stopPrice),
  };
}

export const levels = (...rows: [DecimalLike, DecimalLike][]): BookLevel[] => rows.map(([p, q]) => [dec(p), dec(q)] as const);

type PriceKeys = 'lastPrice' | 'weightedAvgPrice' | 'simpleAvgPrice' | 'indexPrice' | 'bestBid' | 'bestAsk';
export function market(spec: Partial<Record<PriceKeys, DecimalLike>> & Omit<MarketContext, PriceKeys> = {}): MarketContext {
  const out: Record<string, unknown> = { ...spec };
  for (const key of ['lastPrice', 'weightedAvgPrice', 'simpleAvgPrice', 'indexPrice', 'bestBid', 'bestAsk'] as const) {
    const v = spec[key];
    if (v !== undefined) out[key] = dec(v);
  }
  return out as MarketContext;
}
