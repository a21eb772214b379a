/**
 * Payment requests of the sandbox (spec 2.13, 3.2): created pending; canceled by delete; expired
 * once `expires_at` of sandbox time has passed (applied lazily on every read, so clock jumps
 * count); fully_paid through the admin route, which credits the requester's receiving account.
 * The requests are a persistent part (`payment-requests`): with `--state` they survive a restart.
 */
import { z } from 'zod';
import { D } from '../../../core/money/decimal.ts';
import { ledgerIds, type IdSource } from '../../exchange-core/ids.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';
import { moveLegs } from '../ledger/move-legs.ts';

export type RequestStatus = 'pending' | 'fully_paid' | 'expired' | 'canceled';

export interface PaymentRequestRecord {
  id: string;
  accountId: string;
  payerContactInfo: string;
  currency: string;
  amount: string;
  message: string;
  /** The JSON array text sent back as `supported_payment_collectors`. */
  collectors: string;
  paymentUrl: string;
  status: RequestStatus;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
}

export interface PaymentRequestsState {
  requests: PaymentRequestRecord[];
}

export const PAYMENT_REQUESTS_STATE: z.ZodType<PaymentRequestsState> = z.object({
  requests: z.array(
    z.object({
      id: z.string(),
      accountId: z.string(),
      payerContactInfo: z.string(),
      currency: z.string(),
      amount: zAmount,
      message: z.string(),
      collectors: z.string(),
      paymentUrl: z.string(),
      status: z.enum(['pending', 'fully_paid', 'expired', 'canceled']),
      createdAt: zTime,
      updatedAt: zTime,
      expiresAt: zTime,
    }),
  ),
});

export class PaymentRequestBook implements Persistent<PaymentRequestsState> {
  private readonly requests: PaymentRequestRecord[] = [];
  private readonly nextId: IdSource;
  constructor(private readonly state: SandboxState) {
    // The money ledger keys entries by these ids: one sequence with the other ledger-keyed records.
    this.nextId = ledgerIds(state.services, state.clock.now());
  }

  newId(): string {
    return this.nextId();
  }

  dumpState(): PaymentRequestsState {
    return { requests: this.requests.map((r) => ({ ...r })) };
  }

  restoreState(data: PaymentRequestsState): void {
    refill(this.requests, data.requests);
    for (const r of data.requests) this.nextId.skipPast(r.id);
  }

  add(record: PaymentRequestRecord): PaymentRequestRecord {
    this.requests.push(record);
    return record;
  }

  /** One request of `accountId` (any account when undefined), expiry applied. */
  get(id: string, accountId: string | undefined, now: number): PaymentRequestRecord | undefined {
    const r = this.requests.find((x) => x.id === id && (accountId === undefined || x.accountId === accountId));
    if (r) this.expire(r, now);
    return r;
  }

  list(accountId: string, now: number): PaymentRequestRecord[] {
    const mine = this.requests.filter((x) => x.accountId === accountId);
    for (const r of mine) this.expire(r, now);
    return mine;
  }

  cancel(r: PaymentRequestRecord, now: number): void {
    r.status = 'canceled';
    r.updatedAt = now;
  }

  /** Admin: the payer paid; the requester's account receives the amount (P2P_TRANSFER). */
  pay(r: PaymentRequestRecord, now: number): void {
    moveLegs(this.state, [{ accountId: r.accountId, asset: r.currency, delta: new D(r.amount) }], { time: now, business: 'P2P_TRANSFER', txId: r.id });
    r.status = 'fully_paid';
    r.updatedAt = now;
  }

  private expire(r: PaymentRequestRecord, now: number): void {
    if (r.status === 'pending' && now >= r.expiresAt) {
      r.status = 'expired';
      r.updatedAt = r.expiresAt;
    }
  }
}

/** Spec 2.13 wire shape: every value a string, ms timestamps included. */
export function requestView(r: PaymentRequestRecord): Record<string, string> {
  return {
    message: r.message,
    id: r.id,
    invoice: r.id,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    created_at: String(r.createdAt),
    updated_at: String(r.updatedAt),
    expires_at: String(r.expiresAt),
    supported_payment_collectors: r.collectors,
    payment_url: r.paymentUrl,
    payer_contact_info: r.payerContactInfo,
  };
}
