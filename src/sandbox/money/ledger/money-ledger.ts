/**
 * The sandbox's money-movement record (spec 2.12 asset transaction record, 4.9
 * `asset/transaction/history`): one entry per balance change outside trading, per account and
 * asset. Every money-flow area (wallet, transfers, convert, fiat, sub-accounts, payment requests)
 * appends here, so the asset history shows them all.
 *
 *   const ledger = moneyLedgerOf(ctx.sandbox.services);   // created on first use, any plugin order
 *   ledger.record({ accountId, asset: 'BTC', delta: '-0.01', bizSubject: 'CHAIN_WITHDRAWAL',
 *                   txId, time: ctx.now, status: 'processing' });
 *   ledger.setStatus(txId, 'success');
 *
 * `record` only writes the log; `moveMoney` (move-money.ts) also moves the balance and pushes the
 * balanceUpdate. Areas whose records settle lazily on sandbox time (withdrawals) register a
 * `beforeRead` hook, so a read never shows a state that time has already moved past.
 * The entries are a persistent part (`money.ledger`): with `--state` they survive a restart.
 */
import { z } from 'zod';
import type { BalanceUpdateEvent } from '../../contracts.ts';
import type { SandboxServices } from '../../http/route-types.ts';
import { persistentPartsOf, refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zName, zSignedAmount, zTime } from '../../persistence/schema-kit.ts';

/** The business subjects of notes 4.1 `BS`; the same vocabulary names asset-history records. */
export type BizSubject = BalanceUpdateEvent['BS'];

/** Spec 2.12 status text; the spec's sample shows `success`. */
export type LedgerStatus = 'processing' | 'success' | 'failed';

export interface LedgerInput {
  accountId: string;
  asset: string;
  /** Signed decimal string: credit > 0, debit < 0. */
  delta: string;
  bizSubject: BizSubject;
  /** The business id (withdrawal id, transfer id, convert order id ...); need not be unique. */
  txId: string;
  time: number;
  status?: LedgerStatus | undefined;
}

export interface LedgerEntry {
  readonly seq: number;
  readonly accountId: string;
  readonly asset: string;
  readonly delta: string;
  readonly bizSubject: BizSubject;
  readonly txId: string;
  readonly time: number;
  status: LedgerStatus;
}

export interface LedgerQuery {
  asset?: string | undefined;
  /** Inclusive bounds on `time`. */
  startTime?: number | undefined;
  endTime?: number | undefined;
}

export interface LedgerState {
  entries: LedgerEntry[];
}

export const LEDGER_STATE: z.ZodType<LedgerState> = z.object({
  entries: z.array(
    z.object({
      seq: z.number().int(),
      accountId: z.string(),
      asset: z.string(),
      delta: zSignedAmount,
      bizSubject: zName<BizSubject>(),
      txId: z.string(),
      time: zTime,
      status: z.enum(['processing', 'success', 'failed']),
    }),
  ),
});

export class MoneyLedger implements Persistent<LedgerState> {
  private readonly list: LedgerEntry[] = [];
  private readonly hooks: ((now: number) => void)[] = [];
  private seq = 0;

  record(input: LedgerInput): LedgerEntry {
    const entry: LedgerEntry = { ...input, status: input.status ?? 'success', seq: ++this.seq };
    this.list.push(entry);
    return entry;
  }

  /** Sets the status of every entry with this txId (optionally of one account); returns how many. */
  setStatus(txId: string, status: LedgerStatus, accountId?: string): number {
    let n = 0;
    for (const e of this.list) {
      if (e.txId === txId && (accountId === undefined || e.accountId === accountId)) {
        e.status = status;
        n++;
      }
    }
    return n;
  }

  dumpState(): LedgerState {
    return { entries: this.list.map((e) => ({ ...e })) };
  }

  restoreState(data: LedgerState): void {
    refill(this.list, data.entries);
    this.seq = data.entries.reduce((m, e) => Math.max(m, e.seq), 0);
  }

  /** Runs before every read with the reader's time (lazy settlement of time-driven records). */
  beforeRead(hook: (now: number) => void): void {
    this.hooks.push(hook);
  }

  /** One account's entries, oldest first (time, then insertion order). */
  entries(accountId: string, query: LedgerQuery = {}, now?: number): LedgerEntry[] {
    if (now !== undefined) for (const h of this.hooks) h(now);
    const asset = query.asset?.toUpperCase();
    return this.list
      .filter(
        (e) =>
          e.accountId === accountId &&
          (asset === undefined || e.asset === asset) &&
          (query.startTime === undefined || e.time >= query.startTime) &&
          (query.endTime === undefined || e.time <= query.endTime),
      )
      .sort((a, b) => a.time - b.time || a.seq - b.seq);
  }
}

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    moneyLedger?: MoneyLedger;
  }
}

/** The sandbox's ledger, created on first use so plugins may start in any order. */
export function moneyLedgerOf(services: SandboxServices): MoneyLedger {
  if (services.moneyLedger === undefined) {
    const ledger = new MoneyLedger();
    services.moneyLedger = ledger;
    persistentPartsOf(services).register('money.ledger', LEDGER_STATE, ledger);
  }
  return services.moneyLedger;
}
