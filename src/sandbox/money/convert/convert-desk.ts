/**
 * The convert desk's state (spec 2.10, 3.2): quotes offered and convert orders made, per sandbox.
 * A quote lives QUOTE_TTL_SECONDS of sandbox time and is single-use; an accepted quote becomes a
 * SUCCESS order at once (the sandbox settles conversions synchronously, so TODO/PROCESSING/FAILED
 * never occur). Quotes are forgotten a while after they expire, to bound memory.
 * The orders are a persistent part (`convert.orders`): with `--state` they survive a restart;
 * quotes do not (they expire within seconds anyway).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Dec } from '../../../core/money/decimal.ts';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';
import type { ConvertPair } from './pairs.ts';
import { QUOTE_TTL_SECONDS } from './pricing.ts';

export interface ConvertQuote {
  quoteId: string;
  accountId: string;
  pair: ConvertPair;
  price: Dec;
  sourceAmount: Dec;
  targetAmount: Dec;
  createdAt: number;
  expiresAt: number;
  used: boolean;
}

export type ConvertOrderStatus = 'TODO' | 'SUCCESS' | 'FAILED' | 'PROCESSING';

export interface ConvertOrderRecord {
  /** Sequence number, the `id` field. */
  id: string;
  orderId: string;
  quoteId: string;
  accountId: string;
  sourceCurrency: string;
  targetCurrency: string;
  sourceAmount: string;
  targetAmount: string;
  price: string;
  inversePrice: string;
  status: ConvertOrderStatus;
  createdAt: number;
}

/** Expired quotes are dropped this long after expiry. */
const QUOTE_RETENTION_MS = 10 * 60_000;

export const hexId = (): string => randomUUID().replace(/-/g, '');

export interface ConvertState {
  orders: ConvertOrderRecord[];
}

export const CONVERT_STATE: z.ZodType<ConvertState> = z.object({
  orders: z.array(
    z.object({
      id: z.string(),
      orderId: z.string(),
      quoteId: z.string(),
      accountId: z.string(),
      sourceCurrency: z.string(),
      targetCurrency: z.string(),
      sourceAmount: zAmount,
      targetAmount: zAmount,
      price: zAmount,
      inversePrice: zAmount,
      status: z.enum(['TODO', 'SUCCESS', 'FAILED', 'PROCESSING']),
      createdAt: zTime,
    }),
  ),
});

export class ConvertDesk implements Persistent<ConvertState> {
  private readonly quotes = new Map<string, ConvertQuote>();
  private readonly orders: ConvertOrderRecord[] = [];

  addQuote(q: Omit<ConvertQuote, 'quoteId' | 'expiresAt' | 'used'>): ConvertQuote {
    this.prune(q.createdAt);
    const quote: ConvertQuote = { ...q, quoteId: hexId(), expiresAt: q.createdAt + QUOTE_TTL_SECONDS * 1000, used: false };
    this.quotes.set(quote.quoteId, quote);
    return quote;
  }

  quote(quoteId: string, accountId: string): ConvertQuote | undefined {
    const q = this.quotes.get(quoteId);
    return q && q.accountId === accountId ? q : undefined;
  }

  addOrder(order: Omit<ConvertOrderRecord, 'id'>): ConvertOrderRecord {
    const record = { ...order, id: String(this.orders.length + 1) };
    this.orders.push(record);
    return record;
  }

  dumpState(): ConvertState {
    return { orders: this.orders.map((o) => ({ ...o })) };
  }

  /** The `id` sequence numbers follow the count, so new orders continue after the restored ones. */
  restoreState(data: ConvertState): void {
    refill(this.orders, data.orders);
  }

  ordersOf(accountId: string): ConvertOrderRecord[] {
    return this.orders.filter((o) => o.accountId === accountId);
  }

  private prune(now: number): void {
    for (const [id, q] of this.quotes) if (q.expiresAt + QUOTE_RETENTION_MS < now) this.quotes.delete(id);
  }
}
