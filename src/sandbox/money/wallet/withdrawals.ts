/**
 * Withdrawals (spec 2.8 withdrawal record, 3.2 withdrawal states, 4.2 apply and history).
 *
 * Apply (checks in withdraw-checks.ts) debits amount + fee at once (ledger CHAIN_WITHDRAWAL,
 * status processing; balanceUpdate with the negative delta), charges the withdraw limits and
 * answers `{id}` with the record in PROCESSING (0). It becomes SUCCESS (1) with a chain txId once
 * `autoCompleteMs` of sandbox time have passed (default 60 s; `null` leaves it to the admin), or
 * when the admin says so; the fee then goes to the fee account. FAILED (2, admin only) refunds
 * amount + fee (balanceUpdate, positive delta), refunds the limits and marks the ledger entry
 * failed. Progress is settled lazily on every read, so jumps of the sandbox clock apply at once.
 * Records (and the admin's autoCompleteMs) are a persistent part (`wallet.withdrawals`): with
 * `--state` they survive a restart, and PROCESSING ones settle by the same rules afterwards.
 */
import { z } from 'zod';
import { WITHDRAW_STATUS } from '../../../exchange/codecs/wallet.ts';
import { AdminError } from '../../admin/admin-registry.ts';
import { FEE_ACCOUNT_ID } from '../../exchange-core/plugin.ts';
import { ledgerIds, type IdSource } from '../../exchange-core/ids.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';
import { accountLimitsOf } from '../account/limits.ts';
import { moneyLedgerOf } from '../ledger/money-ledger.ts';
import { moveMoney } from '../ledger/move-money.ts';
import { chainTxId } from './addresses.ts';
import { checkWithdrawal, type WithdrawRequest } from './withdraw-checks.ts';
import type { WithdrawWhitelist } from './whitelist.ts';

export type WithdrawStatus = (typeof WITHDRAW_STATUS)[keyof typeof WITHDRAW_STATUS];

export const DEFAULT_AUTO_COMPLETE_MS = 60_000;

export interface WithdrawalRecord {
  id: string;
  accountId: string;
  coin: string;
  network: string;
  address: string;
  addressTag: string;
  amount: string;
  fee: string;
  total: string;
  php: string;
  status: WithdrawStatus;
  txId: string;
  applyTime: number;
  withdrawOrderId: string;
  info: string;
  confirmNo: number;
  minConfirm: number;
}

export interface WithdrawFilter {
  coin?: string | undefined;
  withdrawOrderId?: string | undefined;
  status?: number | undefined;
  startTime: number;
  endTime: number;
}

export interface WithdrawalsState {
  autoCompleteMs: number | null;
  records: WithdrawalRecord[];
}

export const WITHDRAWALS_STATE: z.ZodType<WithdrawalsState> = z.object({
  autoCompleteMs: z.number().int().nonnegative().nullable(),
  records: z.array(
    z.object({
      id: z.string(),
      accountId: z.string(),
      coin: z.string(),
      network: z.string(),
      address: z.string(),
      addressTag: z.string(),
      amount: zAmount,
      fee: zAmount,
      total: zAmount,
      php: zAmount,
      status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      txId: z.string(),
      applyTime: zTime,
      withdrawOrderId: z.string(),
      info: z.string(),
      confirmNo: z.number().int(),
      minConfirm: z.number().int(),
    }),
  ),
});

export class WithdrawalBook implements Persistent<WithdrawalsState> {
  /** Sandbox ms after apply when a withdrawal succeeds by itself; null: only the admin settles it. */
  autoCompleteMs: number | null = DEFAULT_AUTO_COMPLETE_MS;
  private readonly records: WithdrawalRecord[] = [];
  private readonly nextId: IdSource;

  constructor(
    private readonly state: SandboxState,
    private readonly whitelist: WithdrawWhitelist,
  ) {
    this.nextId = ledgerIds(state.services, state.clock.now());
    moneyLedgerOf(state.services).beforeRead((now) => this.settle(now));
  }

  apply(accountId: string, req: WithdrawRequest, now: number): WithdrawalRecord {
    const c = checkWithdrawal(this.state, this.whitelist, accountId, req, now);
    const id = this.nextId();
    moveMoney(this.state, { accountId, asset: c.coin, delta: `-${c.total}`, bizSubject: 'CHAIN_WITHDRAWAL', txId: id, time: now, status: 'processing' });
    accountLimitsOf(this.state).charge(accountId, { book: 'account', kind: 'totalWithdraw', amount: c.php, time: now });
    const record: WithdrawalRecord = {
      id,
      accountId,
      coin: c.coin,
      network: c.net.network,
      address: req.address,
      addressTag: req.addressTag ?? '',
      amount: c.amount,
      fee: c.fee,
      total: c.total,
      php: c.php,
      status: WITHDRAW_STATUS.PROCESSING,
      txId: '',
      applyTime: now,
      withdrawOrderId: req.withdrawOrderId ?? '',
      info: '',
      confirmNo: 0,
      minConfirm: c.net.minConfirm,
    };
    this.records.push(record);
    return record;
  }

  /** Moves every due PROCESSING withdrawal to SUCCESS. */
  settle(now: number): void {
    if (this.autoCompleteMs === null) return;
    for (const r of this.records) {
      if (r.status === WITHDRAW_STATUS.PROCESSING && now - r.applyTime >= this.autoCompleteMs) this.finish(r, WITHDRAW_STATUS.SUCCESS, {}, now);
    }
  }

  /** Admin: settle one withdrawal as SUCCESS or FAILED. */
  setStatus(id: string, status: WithdrawStatus, extra: { txId?: string | undefined; info?: string | undefined }, now: number): WithdrawalRecord {
    const r = this.records.find((x) => x.id === id);
    if (!r) throw new AdminError(404, `no withdrawal ${id}`);
    if (r.status !== WITHDRAW_STATUS.PROCESSING) throw new AdminError(409, `withdrawal ${id} is final (status ${r.status})`);
    if (status === WITHDRAW_STATUS.PROCESSING) throw new AdminError(400, 'status must be SUCCESS or FAILED');
    return this.finish(r, status, extra, now);
  }

  list(accountId: string, f: WithdrawFilter, now: number): WithdrawalRecord[] {
    this.settle(now);
    const coin = f.coin?.toUpperCase();
    return this.records.filter(
      (r) =>
        r.accountId === accountId &&
        r.applyTime >= f.startTime &&
        r.applyTime <= f.endTime &&
        (coin === undefined || r.coin === coin) &&
        (f.withdrawOrderId === undefined || r.withdrawOrderId === f.withdrawOrderId) &&
        (f.status === undefined || r.status === f.status),
    );
  }

  all(now: number, accountId?: string): WithdrawalRecord[] {
    this.settle(now);
    return this.records.filter((r) => accountId === undefined || r.accountId === accountId);
  }

  dumpState(): WithdrawalsState {
    return { autoCompleteMs: this.autoCompleteMs, records: this.records.map((r) => ({ ...r })) };
  }

  restoreState(data: WithdrawalsState): void {
    this.autoCompleteMs = data.autoCompleteMs;
    refill(this.records, data.records);
    for (const r of data.records) this.nextId.skipPast(r.id);
  }

  private finish(r: WithdrawalRecord, status: WithdrawStatus, extra: { txId?: string | undefined; info?: string | undefined }, now: number): WithdrawalRecord {
    const ledger = moneyLedgerOf(this.state.services);
    if (status === WITHDRAW_STATUS.SUCCESS) {
      r.txId = extra.txId ?? chainTxId(r.id);
      r.confirmNo = r.minConfirm;
      if (r.fee !== '0') this.state.services.balances?.credit(FEE_ACCOUNT_ID, r.coin, r.fee);
      ledger.setStatus(r.id, 'success', r.accountId);
    } else {
      ledger.setStatus(r.id, 'failed', r.accountId);
      moveMoney(this.state, { accountId: r.accountId, asset: r.coin, delta: r.total, bizSubject: 'CHAIN_WITHDRAWAL', txId: r.id, time: now, record: false });
      accountLimitsOf(this.state).charge(r.accountId, { book: 'account', kind: 'totalWithdraw', amount: `-${r.php}`, time: r.applyTime });
    }
    if (extra.info !== undefined) r.info = extra.info;
    r.status = status;
    return r;
  }
}

/** Spec 2.8 wire shape. */
export function withdrawalWire(r: WithdrawalRecord) {
  return {
    id: r.id,
    amount: r.amount,
    transactionFee: r.fee,
    coin: r.coin,
    status: r.status,
    address: r.address,
    addressTag: r.addressTag,
    txId: r.txId,
    applyTime: r.applyTime,
    network: r.network,
    withdrawOrderId: r.withdrawOrderId,
    info: r.info,
    confirmNo: r.confirmNo,
  };
}
