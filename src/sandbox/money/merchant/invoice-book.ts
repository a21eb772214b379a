/**
 * Merchant invoices of the sandbox (spec 2.13, 3.2, 6.1): created pending (event invoice.created);
 * canceled by invoices-cancel (invoice.updated); paid, in parts or at once, by the admin route:
 * the first payment generates a payment reference number
 * (invoice.payment_reference_number_generated), every payment credits the merchant's account and
 * sends invoice.updated, and the payment that completes the amount makes it fully_paid
 * (invoice.fully_paid). A pending invoice reads as expired once `expires_at` of sandbox time has
 * passed (applied lazily; no event, spec 6.1 names none). Invoices and the reference counter are
 * a persistent part (`merchant.invoices`): with `--state` they survive a restart.
 */
import { z } from 'zod';
import { D, toWire } from '../../../core/money/decimal.ts';
import { ledgerIds, reservedIds, type IdSource } from '../../exchange-core/ids.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';
import { moveLegs } from '../ledger/move-legs.ts';
import type { CallbackDispatcher, InvoiceEventName } from './callbacks.ts';

export type InvoiceStatus = 'pending' | 'fully_paid' | 'expired' | 'canceled';

export interface InvoiceRecord {
  id: string;
  accountId: string;
  /** The merchant key that created it: the callbacks' `Authorization: Token <key>`. */
  merchantKey: string;
  amount: string;
  received: string;
  currency: string;
  status: InvoiceStatus;
  externalTransactionId: string;
  collectors: string;
  paymentUrl: string;
  incomingAddress: string;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  referenceNumber: string | undefined;
}

export interface InvoicesState {
  referenceSeq: number;
  invoices: InvoiceRecord[];
}

export const INVOICES_STATE = z.object({
  referenceSeq: z.number().int().nonnegative(),
  invoices: z.array(
    z.object({
      id: z.string(),
      accountId: z.string(),
      merchantKey: z.string(),
      amount: zAmount,
      received: zAmount,
      currency: z.string(),
      status: z.enum(['pending', 'fully_paid', 'expired', 'canceled']),
      externalTransactionId: z.string(),
      collectors: z.string(),
      paymentUrl: z.string(),
      incomingAddress: z.string(),
      createdAt: zTime,
      updatedAt: zTime,
      expiresAt: zTime,
      referenceNumber: z.string().optional(),
    }),
  ),
  // referenceNumber comes back absent rather than undefined (JSON); both read the same.
}) as z.ZodType<InvoicesState>;

export class InvoiceBook implements Persistent<InvoicesState> {
  private readonly invoices: InvoiceRecord[] = [];
  private readonly nextId: IdSource;
  /** The counter ending each payment reference number (state keeps the last one issued as `referenceSeq`). */
  private readonly referenceSeq: IdSource;

  constructor(
    private readonly state: SandboxState,
    readonly callbacks: CallbackDispatcher,
  ) {
    this.nextId = ledgerIds(state.services, state.clock.now());
    this.referenceSeq = reservedIds(state.services, 'merchant.reference-numbers', { first: 1n });
  }

  newId(): string {
    return this.nextId();
  }

  dumpState(): InvoicesState {
    return { referenceSeq: Number(this.referenceSeq.peek()) - 1, invoices: this.invoices.map((i) => ({ ...i })) };
  }

  restoreState(data: InvoicesState): void {
    refill(this.invoices, data.invoices);
    this.referenceSeq.skipPast(String(data.referenceSeq));
    for (const i of data.invoices) this.nextId.skipPast(i.id);
  }

  byExternalId(accountId: string, externalTransactionId: string): InvoiceRecord | undefined {
    return this.invoices.find((i) => i.accountId === accountId && i.externalTransactionId === externalTransactionId);
  }

  add(invoice: InvoiceRecord): InvoiceRecord {
    this.invoices.push(invoice);
    this.emit(invoice, 'invoice.created');
    return invoice;
  }

  /** One invoice of `accountId` (any account when undefined), expiry applied. */
  get(id: string, accountId: string | undefined, now: number): InvoiceRecord | undefined {
    const inv = this.invoices.find((i) => i.id === id && (accountId === undefined || i.accountId === accountId));
    if (inv) this.expire(inv, now);
    return inv;
  }

  list(accountId: string, now: number): InvoiceRecord[] {
    const mine = this.invoices.filter((i) => i.accountId === accountId);
    for (const i of mine) this.expire(i, now);
    return mine;
  }

  cancel(inv: InvoiceRecord, now: number): void {
    inv.status = 'canceled';
    inv.updatedAt = now;
    this.emit(inv, 'invoice.updated');
  }

  /** A payment of `amount` (at most what is due) to a pending invoice. */
  pay(inv: InvoiceRecord, amount: string, now: number): void {
    if (inv.referenceNumber === undefined) {
      inv.referenceNumber = `${String(now).slice(-8)}${this.referenceSeq().padStart(4, '0')}`;
      this.emit(inv, 'invoice.payment_reference_number_generated');
    }
    moveLegs(this.state, [{ accountId: inv.accountId, asset: inv.currency, delta: new D(amount) }], { time: now, business: 'OTHERS', txId: inv.id });
    inv.received = toWire(new D(inv.received).plus(amount));
    inv.updatedAt = now;
    const full = new D(inv.received).gte(inv.amount);
    if (full) inv.status = 'fully_paid';
    this.emit(inv, 'invoice.updated');
    if (full) this.emit(inv, 'invoice.fully_paid');
  }

  private expire(inv: InvoiceRecord, now: number): void {
    if (inv.status === 'pending' && now >= inv.expiresAt) {
      inv.status = 'expired';
      inv.updatedAt = inv.expiresAt;
    }
  }

  private emit(inv: InvoiceRecord, name: InvoiceEventName): void {
    this.callbacks.enqueue(inv.merchantKey, name, {
      id: inv.id,
      currency: inv.currency,
      amount: inv.amount,
      amount_received: inv.received,
      external_transaction_id: inv.externalTransactionId,
    });
  }
}

/** Spec 2.13 wire shape: strings throughout, ms timestamps included. */
export function invoiceView(inv: InvoiceRecord, now: number): Record<string, string> {
  const due = D.max(0, new D(inv.amount).minus(inv.received));
  const left = inv.status === 'pending' ? Math.max(0, Math.ceil((inv.expiresAt - now) / 1000)) : 0;
  return {
    id: inv.id,
    amount: inv.amount,
    amount_due: toWire(due),
    currency: inv.currency,
    status: inv.status,
    external_transaction_id: inv.externalTransactionId,
    created_at: String(inv.createdAt),
    updated_at: String(inv.updatedAt),
    expires_at: String(inv.expiresAt),
    supported_payment_collectors: inv.collectors,
    payment_url: inv.paymentUrl,
    expires_in_seconds: String(left),
    incoming_address: inv.incomingAddress,
  };
}
