/**
 * Cash-out orders of the sandbox (spec 2.11, 3.2): created PENDING with amount + fee already taken
 * from the account's PHP (cash-out.ts), then final. An order settles to SUCCEEDED once its
 * channel's delay of sandbox time has passed (checked lazily whenever a fiat call or the admin
 * route runs, so clock jumps count); the admin can end it early as SUCCEEDED, FAILED or CANCEL.
 * SUCCEEDED pays the fee to the house (the amount has left for the bank) and marks the ledger entry
 * success; FAILED and CANCEL refund amount + fee to the account (balanceUpdate FIAT_WITHDRAWAL with
 * a positive delta), mark the ledger entry failed and give the amount back to the account limits.
 * Orders and both id counters are a persistent part (`fiat.orders`): with `--state` they survive a
 * restart, and PENDING ones settle by the same rules afterwards.
 */
import { z } from 'zod';
import { D, type Dec } from '../../../core/money/decimal.ts';
import { ledgerIds, reservedIds, type IdSource } from '../../exchange-core/ids.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';
import { accountLimitsOf } from '../account/limits.ts';
import { HOUSE_ACCOUNT_ID, moveLegs } from '../ledger/move-legs.ts';
import { moneyLedgerOf } from '../ledger/money-ledger.ts';
import { CHANNELS, FIAT_CURRENCY, type ChannelName, type ChannelSubject } from './channels.ts';

export type FiatOrderStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCEL';
export type FinalStatus = Exclude<FiatOrderStatus, 'PENDING'>;

export interface FiatOrderRecord {
  externalOrderId: string;
  internalOrderId: string;
  paymentOrderId: string;
  accountId: string;
  channel: ChannelName;
  subject: ChannelSubject;
  amount: string;
  fee: string;
  status: FiatOrderStatus;
  createdAt: number;
  settleAt: number;
  completedAt: number | undefined;
  errorCode: string;
  errorMessage: string;
  extendInfo: Readonly<Record<string, unknown>>;
}

/** The account limits (`services.accountLimits`) a cash-out counts against (spec 2.7). */
export const ACCOUNT_LIMIT_KINDS = ['cashOut', 'totalWithdraw'] as const;

export interface LimitUsage {
  day: Dec;
  month: Dec;
  year: Dec;
}

function periodStarts(now: number): { day: number; month: number; year: number } {
  const d = new Date(now);
  return {
    day: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()),
    month: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    year: Date.UTC(d.getUTCFullYear(), 0, 1),
  };
}

export interface FiatState {
  paymentSeq: number;
  orders: FiatOrderRecord[];
}

export const FIAT_STATE = z.object({
  paymentSeq: z.number().int(),
  orders: z.array(
    z.object({
      externalOrderId: z.string(),
      internalOrderId: z.string(),
      paymentOrderId: z.string(),
      accountId: z.string(),
      channel: z.enum(['INSTAPAY', 'SWIFTPAY_PESONET']),
      subject: z.object({ id: z.number(), channel: z.enum(['INSTAPAY', 'SWIFTPAY_PESONET']), subject: z.string(), type: z.enum(['bank', 'e-wallet']), name: z.string() }),
      amount: zAmount,
      fee: zAmount,
      status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED', 'CANCEL']),
      createdAt: zTime,
      settleAt: zTime,
      completedAt: zTime.optional(),
      errorCode: z.string(),
      errorMessage: z.string(),
      extendInfo: z.record(z.string(), z.unknown()),
    }),
  ),
  // completedAt comes back absent rather than undefined (JSON); both read the same.
}) as z.ZodType<FiatState>;

export class FiatDesk implements Persistent<FiatState> {
  private readonly orders: FiatOrderRecord[] = [];
  private readonly nextExternalId: IdSource;
  /** paymentOrderId: 455001, 455002, ... (state keeps the last one issued as `paymentSeq`). */
  private readonly paymentIds: IdSource;

  constructor(private readonly state: SandboxState) {
    this.nextExternalId = ledgerIds(state.services, state.clock.now());
    this.paymentIds = reservedIds(state.services, 'fiat.payment-orders', { first: 455_001n });
    // Asset history reads settle due orders first, like fiat calls do.
    moneyLedgerOf(state.services).beforeRead((now) => this.settle(now));
  }

  create(input: Omit<FiatOrderRecord, 'externalOrderId' | 'paymentOrderId' | 'status' | 'settleAt' | 'completedAt' | 'errorCode' | 'errorMessage'>): FiatOrderRecord {
    const order: FiatOrderRecord = {
      ...input,
      externalOrderId: this.nextExternalId(),
      paymentOrderId: this.paymentIds(),
      status: 'PENDING',
      settleAt: input.createdAt + CHANNELS[input.channel].settleMs(new D(input.amount)),
      completedAt: undefined,
      errorCode: '',
      errorMessage: '',
    };
    this.orders.push(order);
    return order;
  }

  dumpState(): FiatState {
    return { paymentSeq: Number(this.paymentIds.peek()) - 1, orders: this.orders.map((o) => ({ ...o })) };
  }

  restoreState(data: FiatState): void {
    refill(this.orders, data.orders);
    this.paymentIds.skipPast(String(data.paymentSeq));
    for (const o of data.orders) this.nextExternalId.skipPast(o.externalOrderId);
  }

  /** Settle every PENDING order whose delay has passed. */
  settle(now: number): void {
    for (const o of this.orders) if (o.status === 'PENDING' && now >= o.settleAt) this.finish(o, 'SUCCEEDED', o.settleAt);
  }

  /** End a PENDING order: SUCCEEDED pays the fee to the house; FAILED / CANCEL refund amount + fee. */
  finish(order: FiatOrderRecord, status: FinalStatus, time: number): void {
    if (order.status !== 'PENDING') throw new Error(`order ${order.internalOrderId} is already ${order.status}`);
    const txId = order.externalOrderId;
    if (status === 'SUCCEEDED') {
      moveLegs(this.state, [{ accountId: HOUSE_ACCOUNT_ID, asset: FIAT_CURRENCY, delta: new D(order.fee) }], { time, business: 'FEE', txId });
      moneyLedgerOf(this.state.services).setStatus(txId, 'success', order.accountId);
    } else {
      const refund = new D(order.amount).plus(order.fee);
      moveLegs(this.state, [{ accountId: order.accountId, asset: FIAT_CURRENCY, delta: refund }], { time, business: 'FIAT_WITHDRAWAL', txId, ledger: false });
      moneyLedgerOf(this.state.services).setStatus(txId, 'failed', order.accountId);
      const limits = accountLimitsOf(this.state);
      for (const kind of ACCOUNT_LIMIT_KINDS) limits.charge(order.accountId, { book: 'account', kind, amount: `-${order.amount}`, time: order.createdAt });
      order.errorCode = status;
      order.errorMessage = status === 'FAILED' ? 'The channel rejected the transfer.' : 'Canceled.';
    }
    order.status = status;
    order.completedAt = time;
  }

  ordersOf(accountId: string): FiatOrderRecord[] {
    return this.orders.filter((o) => o.accountId === accountId);
  }

  find(accountId: string, internalOrderId: string): FiatOrderRecord | undefined {
    return this.orders.find((o) => o.accountId === accountId && o.internalOrderId === internalOrderId);
  }

  /** Orders with this internalOrderId on any account (admin). */
  findAny(internalOrderId: string): FiatOrderRecord[] {
    return this.orders.filter((o) => o.internalOrderId === internalOrderId);
  }

  hasPending(accountId: string): boolean {
    return this.orders.some((o) => o.accountId === accountId && o.status === 'PENDING');
  }

  /**
   * What the account may still cash out on `channel` per period: the channel's limit less its use,
   * capped by the account's own cash-out and total-withdraw limits.
   */
  remainingLimits(accountId: string, channel: ChannelName, now: number): LimitUsage {
    const terms = CHANNELS[channel];
    const used = this.usage(accountId, channel, now);
    const limits = accountLimitsOf(this.state);
    const cap = (limit: string, spent: Dec, period: 'daily' | 'monthly' | 'annually') =>
      D.min(D.max(0, new D(limit).minus(spent)), ...ACCOUNT_LIMIT_KINDS.map((kind) => limits.remaining(accountId, 'account', period, kind, now)));
    return { day: cap(terms.dailyLimit, used.day, 'daily'), month: cap(terms.monthlyLimit, used.month, 'monthly'), year: cap(terms.annualLimit, used.year, 'annually') };
  }

  /** Cash-out amounts on `channel` this UTC day, month and year (PENDING and SUCCEEDED count). */
  usage(accountId: string, channel: ChannelName, now: number): LimitUsage {
    const starts = periodStarts(now);
    const used: LimitUsage = { day: new D(0), month: new D(0), year: new D(0) };
    for (const o of this.orders) {
      if (o.accountId !== accountId || o.channel !== channel || o.status === 'FAILED' || o.status === 'CANCEL') continue;
      if (o.createdAt >= starts.year) used.year = used.year.plus(o.amount);
      if (o.createdAt >= starts.month) used.month = used.month.plus(o.amount);
      if (o.createdAt >= starts.day) used.day = used.day.plus(o.amount);
    }
    return used;
  }
}
