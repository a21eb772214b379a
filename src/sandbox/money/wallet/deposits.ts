/**
 * Chain deposits (spec 2.8 deposit record, 3.2 deposit states, 4.2 deposit history), created by
 * the admin API: a deposit waits in PROCESSING (0) until it has `minConfirm` confirmations of its
 * network, then becomes SUCCESS (1) and credits the balance (ledger CHAIN_DEPOSIT + balanceUpdate,
 * notes 4.1). The admin can also set FAILED (2) or NEED_FILL_DATA (3, travel-rule data missing:
 * confirmations no longer settle it; a later SUCCESS does). SUCCESS and FAILED are final.
 * Ids look like the real ones, `d_769800519366885376` (notes 5.6). Records are a persistent part
 * (`wallet.deposits`, registered by wallet-service.ts): with `--state` they survive a restart.
 */
import { z } from 'zod';
import { dec, toWire } from '../../../core/money/decimal.ts';
import { DEPOSIT_STATUS } from '../../../exchange/codecs/wallet.ts';
import { AdminError } from '../../admin/admin-registry.ts';
import { reservedIds, type IdSource } from '../../exchange-core/ids.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';
import { moveMoney } from '../ledger/move-money.ts';
import { chainTxId, depositAddressFor } from './addresses.ts';
import { requireNetwork } from './coins.ts';

export type DepositStatus = (typeof DEPOSIT_STATUS)[keyof typeof DEPOSIT_STATUS];

export interface DepositRecord {
  id: string;
  accountId: string;
  amount: string;
  coin: string;
  network: string;
  status: DepositStatus;
  address: string;
  addressTag: string;
  txId: string;
  insertTime: number;
  confirmNo: number;
  minConfirm: number;
  /** When the balance was credited. */
  creditTime?: number | undefined;
}

export interface NewDeposit {
  accountId: string;
  coin: string;
  network: string;
  amount: string;
  txId?: string | undefined;
  confirmations?: number | undefined;
  status?: DepositStatus | undefined;
}

export interface DepositUpdate {
  confirmations?: number | undefined;
  addConfirmations?: number | undefined;
  status?: DepositStatus | undefined;
}

export interface DepositFilter {
  coin?: string | undefined;
  txId?: string | undefined;
  depositId?: string | undefined;
  statuses?: readonly number[] | undefined;
  startTime: number;
  endTime: number;
}

export interface DepositsState {
  records: DepositRecord[];
}

export const DEPOSITS_STATE: z.ZodType<DepositsState> = z.object({
  records: z.array(
    z.object({
      id: z.string(),
      accountId: z.string(),
      amount: zAmount,
      coin: z.string(),
      network: z.string(),
      status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
      address: z.string(),
      addressTag: z.string(),
      txId: z.string(),
      insertTime: zTime,
      confirmNo: z.number().int(),
      minConfirm: z.number().int(),
      creditTime: zTime.optional(),
    }),
  ),
});

export class DepositBook implements Persistent<DepositsState> {
  private readonly records: DepositRecord[] = [];
  private readonly nextId: IdSource;

  constructor(private readonly state: SandboxState) {
    this.nextId = reservedIds(state.services, 'wallet.deposits', { startTimeMs: state.clock.now(), salt: 700_000n });
  }

  create(input: NewDeposit): DepositRecord {
    const { asset, net } = requireNetwork(this.state.config, input.coin, input.network);
    if (!net.depositEnable) throw new AdminError(400, `deposits of ${asset.coin} on ${net.network} are disabled`);
    if (!dec(input.amount).gt(0)) throw new AdminError(400, 'amount must be > 0');
    const id = `d_${this.nextId()}`;
    const where = depositAddressFor(input.accountId, asset.coin, net);
    const record: DepositRecord = {
      id,
      accountId: input.accountId,
      amount: toWire(dec(input.amount)),
      coin: asset.coin,
      network: net.network,
      status: DEPOSIT_STATUS.PROCESSING,
      ...where,
      txId: input.txId ?? chainTxId(id),
      insertTime: this.state.clock.now(),
      confirmNo: input.confirmations ?? 0,
      minConfirm: net.minConfirm,
    };
    this.records.push(record);
    return this.advance(record, { status: input.status });
  }

  update(id: string, change: DepositUpdate): DepositRecord {
    const record = this.get(id);
    if (!record) throw new AdminError(404, `no deposit ${id}`);
    if (record.status === DEPOSIT_STATUS.SUCCESS || record.status === DEPOSIT_STATUS.FAILED) throw new AdminError(409, `deposit ${id} is final (status ${record.status})`);
    if (change.confirmations !== undefined) record.confirmNo = change.confirmations;
    if (change.addConfirmations !== undefined) record.confirmNo += change.addConfirmations;
    return this.advance(record, change);
  }

  get(id: string): DepositRecord | undefined {
    return this.records.find((r) => r.id === id);
  }

  /** One account's deposits in the window, oldest first. */
  list(accountId: string, f: DepositFilter): DepositRecord[] {
    const coin = f.coin?.toUpperCase();
    return this.records.filter(
      (r) =>
        r.accountId === accountId &&
        r.insertTime >= f.startTime &&
        r.insertTime <= f.endTime &&
        (coin === undefined || r.coin === coin) &&
        (f.txId === undefined || r.txId === f.txId) &&
        (f.depositId === undefined || r.id === f.depositId) &&
        (f.statuses === undefined || f.statuses.includes(r.status)),
    );
  }

  all(accountId?: string): DepositRecord[] {
    return this.records.filter((r) => accountId === undefined || r.accountId === accountId);
  }

  dumpState(): DepositsState {
    return { records: this.records.map((r) => ({ ...r })) };
  }

  restoreState(data: DepositsState): void {
    refill(this.records, data.records);
    for (const r of data.records) this.nextId.skipPast(r.id);
  }

  private advance(record: DepositRecord, change: { status?: DepositStatus | undefined }): DepositRecord {
    const target = change.status ?? (record.status === DEPOSIT_STATUS.PROCESSING && record.confirmNo >= record.minConfirm ? DEPOSIT_STATUS.SUCCESS : record.status);
    if (target === DEPOSIT_STATUS.SUCCESS) {
      record.confirmNo = Math.max(record.confirmNo, record.minConfirm);
      const time = this.state.clock.now();
      moveMoney(this.state, { accountId: record.accountId, asset: record.coin, delta: record.amount, bizSubject: 'CHAIN_DEPOSIT', txId: record.id, time });
      record.creditTime = time;
    }
    record.status = target;
    return record;
  }
}

/** Spec 2.8 wire shape. */
export function depositWire(r: DepositRecord) {
  return {
    id: r.id,
    amount: r.amount,
    coin: r.coin,
    network: r.network,
    status: r.status,
    address: r.address,
    addressTag: r.addressTag,
    txId: r.txId,
    insertTime: r.insertTime,
    confirmNo: r.confirmNo,
  };
}
