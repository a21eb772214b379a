/**
 * Reconciliation reports (issue 20 deliverables 5 and 6): what a start-up reconciliation or a
 * resync after a gap found and did, kept whole as JSON beside a one-line summary, so a run's
 * journal says which orders it adopted, which fills it applied late, which orders it left alone
 * (or cancelled) and where the balances differed. The reconciler owns the content; the shape
 * below names the parts the summary counts, and money in them stays decimal text.
 */
import type { Database, Statement } from 'better-sqlite3';
import { JournalError } from '../errors.ts';
import { fromJson, toJson } from '../json-column.ts';
import { requireMoneyText } from '../money-text.ts';
import { guardWrite } from '../write-guard.ts';

export const RECONCILIATION_KINDS = ['startup', 'resync'] as const;
export type ReconciliationKind = (typeof RECONCILIATION_KINDS)[number];

/** An order of this bot found open at the venue and taken over. */
export interface AdoptedOrder {
  symbol: string;
  clientOrderId: string;
  orderId: string;
  status: string;
  executedQty?: string;
}

/** A fill the run had not seen (made while it was down or the stream was not LIVE), applied once. */
export interface MissedFill {
  symbol: string;
  orderId: string;
  tradeId: string;
  clientOrderId?: string | null;
  side?: 'BUY' | 'SELL';
  price: string;
  qty: string;
}

/** An open order the journal does not know (another program's, or another bot's prefix). */
export interface ForeignOrder {
  symbol: string;
  orderId: string;
  clientOrderId: string | null;
  action: 'left' | 'cancelled';
}

/** An asset whose balance at the venue is not what the journal's record of the run implies. */
export interface BalanceDifference {
  asset: string;
  expectedFree: string;
  expectedLocked: string;
  venueFree: string;
  venueLocked: string;
}

/** A request journaled as sent whose outcome a query established. */
export interface ResolvedRequest {
  clientOrderId: string;
  kind: string;
  /** e.g. `found NEW`, `found FILLED`, `not found`. */
  outcome: string;
}

export interface ReconciliationReport {
  adoptedOrders?: readonly AdoptedOrder[];
  missedFills?: readonly MissedFill[];
  foreignOrders?: readonly ForeignOrder[];
  balanceDifferences?: readonly BalanceDifference[];
  resolvedRequests?: readonly ResolvedRequest[];
  /** Anything else worth keeping (symbols checked, weight spent, the gap that caused a resync). */
  [extra: string]: unknown;
}

export interface ReconciliationRecord {
  id: number;
  runId: string;
  time: number;
  kind: ReconciliationKind;
  summary: string;
  report: ReconciliationReport;
}

export interface NewReconciliation {
  runId: string;
  time: number;
  kind: ReconciliationKind;
  report: ReconciliationReport;
  /** Default: `summarizeReconciliation(kind, report)`. */
  summary?: string;
}

type Row = { id: number; run_id: string; time: number; kind: ReconciliationKind; summary: string; report: string };

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** One line: `start-up: 2 orders adopted, 1 missed fill applied, 1 foreign order (left), balances differ in BTC`. */
export function summarizeReconciliation(kind: ReconciliationKind, report: ReconciliationReport): string {
  const parts: string[] = [];
  const adopted = report.adoptedOrders ?? [];
  const fills = report.missedFills ?? [];
  const foreign = report.foreignOrders ?? [];
  const balances = report.balanceDifferences ?? [];
  const resolved = report.resolvedRequests ?? [];
  if (adopted.length) parts.push(`${count(adopted.length, 'order')} adopted`);
  if (fills.length) parts.push(`${count(fills.length, 'missed fill')} applied`);
  if (foreign.length) {
    const cancelled = foreign.filter((o) => o.action === 'cancelled').length;
    const how = cancelled === 0 ? 'left' : cancelled === foreign.length ? 'cancelled' : `${cancelled} cancelled`;
    parts.push(`${count(foreign.length, 'foreign order')} (${how})`);
  }
  if (resolved.length) parts.push(`${count(resolved.length, 'pending request')} resolved`);
  if (balances.length) parts.push(`balances differ in ${balances.map((b) => b.asset).join(', ')}`);
  return `${kind === 'startup' ? 'start-up' : 'resync'}: ${parts.length ? parts.join(', ') : 'nothing missed, journal and venue agree'}`;
}

export class ReconciliationStore {
  private readonly insert: Statement;
  private readonly selectById: Statement;
  private readonly selectByRun: Statement;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insert = db.prepare('INSERT INTO reconciliations (run_id, time, kind, summary, report) VALUES (?, ?, ?, ?, ?)');
    this.selectById = db.prepare('SELECT * FROM reconciliations WHERE id = ?');
    this.selectByRun = db.prepare('SELECT * FROM reconciliations WHERE run_id = ? ORDER BY time, id');
  }

  /** Record a report; returns its id. */
  record(r: NewReconciliation): number {
    const what = (): string => `${r.kind} reconciliation of run ${r.runId} at ${r.time}`;
    if (!(RECONCILIATION_KINDS as readonly string[]).includes(r.kind)) {
      throw new JournalError('INVALID_RECORD', this.file, `${what()}: kind must be one of ${RECONCILIATION_KINDS.join(', ')}`);
    }
    if (!r.report || typeof r.report !== 'object' || Array.isArray(r.report)) throw new JournalError('INVALID_RECORD', this.file, `${what()}: report must be an object`);
    (r.report.missedFills ?? []).forEach((f, i) => requireMoneyText(this.file, () => `${what()}, missedFills[${i}]`, f, ['price', 'qty']));
    (r.report.balanceDifferences ?? []).forEach((b, i) =>
      requireMoneyText(this.file, () => `${what()}, balanceDifferences[${i}]`, b, ['expectedFree', 'expectedLocked', 'venueFree', 'venueLocked']),
    );
    (r.report.adoptedOrders ?? []).forEach((o, i) => requireMoneyText(this.file, () => `${what()}, adoptedOrders[${i}]`, o, ['executedQty']));
    const summary = r.summary ?? summarizeReconciliation(r.kind, r.report);
    return guardWrite(this.file, what, () => Number(this.insert.run(r.runId, r.time, r.kind, summary, toJson(r.report)).lastInsertRowid));
  }

  byId(id: number): ReconciliationRecord | undefined {
    const row = this.selectById.get(id) as Row | undefined;
    return row && toRecord(row);
  }

  byRun(runId: string): ReconciliationRecord[] {
    return (this.selectByRun.all(runId) as Row[]).map(toRecord);
  }
}

function toRecord(r: Row): ReconciliationRecord {
  return { id: r.id, runId: r.run_id, time: r.time, kind: r.kind, summary: r.summary, report: fromJson(r.report) as ReconciliationReport };
}
