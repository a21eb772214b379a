/**
 * Legacy sell orders (spec 4.11): the wallet pays `base_amount` + the outlet's fee in `currency`
 * at creation (balanceUpdate FIAT_WITHDRAWAL, fee to the house, a ledger entry `processing`); the
 * order is `pending` and becomes `completed` (ledger entry success) once SELL_ORDER_SETTLE_MS of
 * sandbox time has passed, applied lazily before reads. Ids are 32 hex characters.
 * The orders are a persistent part (`legacy-v4.sell-orders`): with `--state` they survive a restart.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';
import type { MoneyLedger } from '../ledger/money-ledger.ts';

export const SELL_ORDER_SETTLE_MS = 5 * 60_000;

export interface SellOrderRecord {
  id: string;
  accountId: string;
  payment_outlet: string;
  currency: string;
  base_amount: string;
  fee: string;
  external_transaction_id: string | undefined;
  bank_account_number: string;
  bank_account_name: string;
  recipient_phone_number: string;
  createdAt: number;
  status: 'pending' | 'completed';
}

export interface SellOrdersState {
  orders: SellOrderRecord[];
}

export const SELL_ORDERS_STATE = z.object({
  orders: z.array(
    z.object({
      id: z.string(),
      accountId: z.string(),
      payment_outlet: z.string(),
      currency: z.string(),
      base_amount: zAmount,
      fee: zAmount,
      external_transaction_id: z.string().optional(),
      bank_account_number: z.string(),
      bank_account_name: z.string(),
      recipient_phone_number: z.string(),
      createdAt: zTime,
      status: z.enum(['pending', 'completed']),
    }),
  ),
  // external_transaction_id comes back absent rather than undefined (JSON); both read the same.
}) as z.ZodType<SellOrdersState>;

export class SellOrderBook implements Persistent<SellOrdersState> {
  private readonly orders: SellOrderRecord[] = [];

  dumpState(): SellOrdersState {
    return { orders: this.orders.map((o) => ({ ...o })) };
  }

  restoreState(data: SellOrdersState): void {
    refill(this.orders, data.orders);
  }

  constructor(private readonly ledger: MoneyLedger) {
    ledger.beforeRead((now) => this.settle(now));
  }

  add(order: Omit<SellOrderRecord, 'id' | 'status'>): SellOrderRecord {
    const record: SellOrderRecord = { ...order, id: randomUUID().replace(/-/g, ''), status: 'pending' };
    this.orders.push(record);
    return record;
  }

  settle(now: number): void {
    for (const o of this.orders) {
      if (o.status !== 'pending' || now < o.createdAt + SELL_ORDER_SETTLE_MS) continue;
      o.status = 'completed';
      this.ledger.setStatus(o.id, 'success', o.accountId);
    }
  }

  /** Undo an add whose payment failed. */
  remove(id: string): void {
    const i = this.orders.findIndex((o) => o.id === id);
    if (i >= 0) this.orders.splice(i, 1);
  }

  get(id: string, accountId: string, now: number): SellOrderRecord | undefined {
    this.settle(now);
    return this.orders.find((o) => o.id === id && o.accountId === accountId);
  }

  byExternalId(accountId: string, externalId: string): SellOrderRecord | undefined {
    return this.orders.find((o) => o.accountId === accountId && o.external_transaction_id === externalId);
  }
}

export function sellOrderView(o: SellOrderRecord): Record<string, unknown> {
  return {
    'sell-order': {
      id: o.id,
      status: o.status,
      payment_outlet: o.payment_outlet,
      currency: o.currency,
      base_amount: o.base_amount,
      fee: o.fee,
      external_transaction_id: o.external_transaction_id ?? null,
      bank_account_number: o.bank_account_number,
      bank_account_name: o.bank_account_name,
      recipient_phone_number: o.recipient_phone_number,
      created_at: new Date(o.createdAt).toISOString(),
    },
  };
}
