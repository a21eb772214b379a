/**
 * Sub-account transfer records (spec 2.12): one list per master account's family (the master and
 * its sub-accounts), so `clientTranId` is unique within a family. A persistent part
 * (`sub-account.transfers`, registered by plugin.ts): with `--state` the records and both
 * counters survive a restart.
 */
import { z } from 'zod';
import type { IdSource } from '../../exchange-core/ids.ts';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../../persistence/schema-kit.ts';

export type SubTransferStatus = 'success' | 'pending' | 'failed';

export interface SubTransferRecord {
  /** Order of creation, for a stable oldest-first sort. */
  seq: number;
  masterId: string;
  clientTranId: string;
  fromAccountId: string;
  toAccountId: string;
  fromEmail: string;
  toEmail: string;
  asset: string;
  amount: string;
  createdAt: number;
  status: SubTransferStatus;
}

export interface SubTransfersState {
  seq: number;
  /** The next generated clientTranId. */
  generated: string;
  records: SubTransferRecord[];
}

export const SUB_TRANSFERS_STATE: z.ZodType<SubTransfersState> = z.object({
  seq: z.number().int().nonnegative(),
  generated: z.string().regex(/^\d+$/),
  records: z.array(
    z.object({
      seq: z.number().int(),
      masterId: z.string(),
      clientTranId: z.string(),
      fromAccountId: z.string(),
      toAccountId: z.string(),
      fromEmail: z.string(),
      toEmail: z.string(),
      asset: z.string(),
      amount: zAmount,
      createdAt: zTime,
      status: z.enum(['success', 'pending', 'failed']),
    }),
  ),
});

export class SubTransferStore implements Persistent<SubTransfersState> {
  private readonly records: SubTransferRecord[] = [];
  private seq = 0;
  /** Generated ids look like the venue's 19-digit ones and start from the sandbox's start time (plugin.ts; reserved, exchange-core/ids.ts). */
  constructor(private readonly generated: IdSource) {}

  nextClientTranId(masterId: string): string {
    let id: string;
    do id = this.generated();
    while (this.find(masterId, id));
    return id;
  }

  dumpState(): SubTransfersState {
    return { seq: this.seq, generated: this.generated.peek(), records: this.records.map((r) => ({ ...r })) };
  }

  restoreState(data: SubTransfersState): void {
    refill(this.records, data.records);
    this.seq = Math.max(this.seq, data.seq);
    // `generated` is the next id.
    this.generated.continueFrom(BigInt(data.generated));
  }

  find(masterId: string, clientTranId: string): SubTransferRecord | undefined {
    return this.records.find((r) => r.masterId === masterId && r.clientTranId === clientTranId);
  }

  add(record: Omit<SubTransferRecord, 'seq'>): SubTransferRecord {
    const full = { ...record, seq: this.seq++ };
    this.records.push(full);
    return full;
  }

  /** The family's records, oldest first (spec 1.2: lists are ascending). */
  ofMaster(masterId: string): SubTransferRecord[] {
    return this.records.filter((r) => r.masterId === masterId).sort((a, b) => a.createdAt - b.createdAt || a.seq - b.seq);
  }
}

/** The wire shape of spec 2.12. */
export function transferView(r: SubTransferRecord): Record<string, unknown> {
  return { clientTranId: r.clientTranId, fromEmail: r.fromEmail, toEmail: r.toEmail, asset: r.asset, amount: r.amount, createdAt: r.createdAt, status: r.status };
}
