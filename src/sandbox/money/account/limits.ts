/**
 * The account's cash-in / cash-out / total-withdraw limits per day, month and year (spec 2.7
 * `daily`/`monthly`/`annually`, notes 6 `p2pDaily`/`p2pMonthly`/`p2pAnnually`), in pesos, with
 * the remaining amounts tracked from what each money flow charges. Periods are calendar periods in
 * the sandbox's configured timezone.
 *
 * Other areas charge it through `services.accountLimits` (`accountLimitsOf(ctx.sandbox)`):
 *   const over = limits.check(accountId, { book: 'account', kind: 'cashOut', amount: php, now });
 *   if (over) ...refuse (over.period names the exceeded period)...
 *   limits.charge(accountId, { book: 'account', kind: 'cashOut', amount: php, time: now });
 *   limits.charge(accountId, { ..., amount: '-' + php, time: originalTime });   // refund a failure
 * Wallet withdrawals charge `account/totalWithdraw`; transfers charge `p2p/cashOut` (sender) and
 * `p2p/cashIn` (recipient). Fiat is expected to charge `account/cashOut` (+ `totalWithdraw`).
 * Charges and the admin's overrides are a persistent part (`account.limits`): with `--state` the
 * used amounts survive a restart.
 */
import { z } from 'zod';
import { D, dec, toWire, type Dec } from '../../../core/money/decimal.ts';
import type { PeriodLimits } from '../../../exchange/codecs/account.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { persistentPartsOf, refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zSignedAmount, zTime } from '../../persistence/schema-kit.ts';

export const LIMIT_PERIODS = ['daily', 'monthly', 'annually'] as const;
export const LIMIT_KINDS = ['cashIn', 'cashOut', 'totalWithdraw'] as const;
/** `account`: spec 2.7 limits; `p2p`: the notes 6 p2p* limits of account-to-account transfers. */
export const LIMIT_BOOKS = ['account', 'p2p'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
export type LimitKind = (typeof LIMIT_KINDS)[number];
export type LimitBook = (typeof LIMIT_BOOKS)[number];

/** Defaults (the endpoint table's documented sample values), the same for every kind. */
export const DEFAULT_LIMITS: Readonly<Record<LimitBook, Record<LimitPeriod, string>>> = {
  account: { daily: '500000', monthly: '10000000', annually: '120000000' },
  p2p: { daily: '100000', monthly: '1000000', annually: '12000000' },
};

export interface LimitExceeded {
  period: LimitPeriod;
  limit: string;
  remaining: string;
}

interface Charge {
  accountId: string;
  book: LimitBook;
  kind: LimitKind;
  amount: Dec;
  time: number;
}

const key = (accountId: string, book: LimitBook, period: LimitPeriod, kind: LimitKind) => `${accountId}|${book}|${period}|${kind}`;

export interface LimitsState {
  charges: { accountId: string; book: LimitBook; kind: LimitKind; amount: string; time: number }[];
  /** Overridden limits: `accountId|book|period|kind` ('*' for every account) -> pesos. */
  overrides: [string, string][];
}

export const LIMITS_STATE: z.ZodType<LimitsState> = z.object({
  charges: z.array(z.object({ accountId: z.string(), book: z.enum(LIMIT_BOOKS), kind: z.enum(LIMIT_KINDS), amount: zSignedAmount, time: zTime })),
  overrides: z.array(z.tuple([z.string(), zAmount])),
});

export class AccountLimits implements Persistent<LimitsState> {
  private readonly charges: Charge[] = [];
  private readonly overrides = new Map<string, Dec>();
  private readonly fmt: Intl.DateTimeFormat;

  constructor(timezone = 'UTC') {
    this.fmt = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
  }

  /** Overrides one limit; without accountId it becomes the default of every account ('*'). */
  setLimit(input: { accountId?: string | undefined; book: LimitBook; period: LimitPeriod; kind?: LimitKind | undefined; limit: string }): void {
    for (const kind of input.kind ? [input.kind] : LIMIT_KINDS) this.overrides.set(key(input.accountId ?? '*', input.book, input.period, kind), dec(input.limit, 'limit'));
  }

  limitOf(accountId: string, book: LimitBook, period: LimitPeriod, kind: LimitKind): Dec {
    return this.overrides.get(key(accountId, book, period, kind)) ?? this.overrides.get(key('*', book, period, kind)) ?? dec(DEFAULT_LIMITS[book][period]);
  }

  used(accountId: string, book: LimitBook, period: LimitPeriod, kind: LimitKind, now: number): Dec {
    const current = this.periodKey(now, period);
    return this.charges
      .filter((c) => c.accountId === accountId && c.book === book && c.kind === kind && this.periodKey(c.time, period) === current)
      .reduce((sum, c) => sum.plus(c.amount), new D(0));
  }

  remaining(accountId: string, book: LimitBook, period: LimitPeriod, kind: LimitKind, now: number): Dec {
    return D.max(0, this.limitOf(accountId, book, period, kind).minus(this.used(accountId, book, period, kind, now)));
  }

  /** The first period whose remaining amount is below `amount` (pesos), or undefined when it fits. */
  check(accountId: string, q: { book: LimitBook; kind: LimitKind; amount: string; now: number }): LimitExceeded | undefined {
    const amount = dec(q.amount, 'amount');
    for (const period of LIMIT_PERIODS) {
      const remaining = this.remaining(accountId, q.book, period, q.kind, q.now);
      if (amount.gt(remaining)) return { period, limit: toWire(this.limitOf(accountId, q.book, period, q.kind)), remaining: toWire(remaining) };
    }
    return undefined;
  }

  /** Counts `amount` pesos (negative: a refund, given the original time) against every period. */
  charge(accountId: string, c: { book: LimitBook; kind: LimitKind; amount: string; time: number }): void {
    this.charges.push({ accountId, book: c.book, kind: c.kind, amount: dec(c.amount, 'amount'), time: c.time });
  }

  dumpState(): LimitsState {
    return {
      charges: this.charges.map((c) => ({ accountId: c.accountId, book: c.book, kind: c.kind, amount: toWire(c.amount), time: c.time })),
      overrides: [...this.overrides].map(([k, v]) => [k, toWire(v)]),
    };
  }

  restoreState(data: LimitsState): void {
    refill(this.charges, data.charges.map((c) => ({ ...c, amount: dec(c.amount, 'amount') })));
    this.overrides.clear();
    for (const [k, v] of data.overrides) this.overrides.set(k, dec(v, 'limit'));
  }

  /** The spec 2.7 objects of one book. */
  view(accountId: string, book: LimitBook, now: number): Record<LimitPeriod, PeriodLimits> {
    const one = (period: LimitPeriod): PeriodLimits => {
      const pair = (kind: LimitKind) => [toWire(this.limitOf(accountId, book, period, kind)), toWire(this.remaining(accountId, book, period, kind, now))] as const;
      const [cashInLimit, cashInRemaining] = pair('cashIn');
      const [cashOutLimit, cashOutRemaining] = pair('cashOut');
      const [totalWithdrawLimit, totalWithdrawRemaining] = pair('totalWithdraw');
      return { cashInLimit, cashInRemaining, cashOutLimit, cashOutRemaining, totalWithdrawLimit, totalWithdrawRemaining };
    };
    return { daily: one('daily'), monthly: one('monthly'), annually: one('annually') };
  }

  private periodKey(time: number, period: LimitPeriod): string {
    const day = this.fmt.format(time); // YYYY-MM-DD
    return period === 'daily' ? day : period === 'monthly' ? day.slice(0, 7) : day.slice(0, 4);
  }
}

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    accountLimits?: AccountLimits;
  }
}

/** The sandbox's limits service, created on first use (periods in the configured timezone). */
export function accountLimitsOf(state: Pick<SandboxState, 'services' | 'config'>): AccountLimits {
  if (state.services.accountLimits === undefined) {
    const limits = new AccountLimits(state.config.timezone);
    state.services.accountLimits = limits;
    persistentPartsOf(state.services).register('account.limits', LIMITS_STATE, limits);
  }
  return state.services.accountLimits;
}
