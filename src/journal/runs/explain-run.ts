/**
 * A run's timeline from its journal alone (issue 20 deliverable 7: "a run's journal alone is enough
 * to explain what the bot did and why"): start with config and strategies, every intent, every
 * request as it left and the answer it got (or the query that resolved an unknown outcome), order
 * changes, fills, balance snapshots, stream-health changes, reconciliation reports, treasury
 * actions, and the stop with its exit reason. For `halyard status` and a post-mortem.
 *
 * The order comes from `run_log` (schema 5): each entry's own time (a fill's is the venue's trade
 * time, an intent's the bot's clock), ties broken by `seq`, the order in which the journal wrote
 * them. `order: 'journal'` gives the journal order alone: the order in which the bot learned
 * things (a fill found by a resync sits after the gap, not at its trade time).
 */
import type { BalanceSnapshot } from '../balance-store.ts';
import type { FillRecord } from '../fill-store.ts';
import type { Journal } from '../journal.ts';
import type { LiveRunRecord } from './live-run-store.ts';
import type { OrderEvent } from '../order-store.ts';
import type { ReconciliationRecord } from './reconciliation-store.ts';
import type { RequestRecord, RequestState } from '../request-store.ts';
import type { IntentRecord } from './run-store.ts';
import type { StreamHealthChange } from './stream-health-store.ts';
import type { TreasuryAction } from '../treasury-store.ts';

interface At {
  /** The journal's write order across tables. */
  seq: number;
  time: number;
  /** One readable line. */
  text: string;
}

export type TimelineEntry = At &
  (
    | { kind: 'run-start'; run: LiveRunRecord }
    | { kind: 'intent'; intent: IntentRecord }
    /** A request as it left; `request.state` is its state now. */
    | { kind: 'request'; request: RequestRecord }
    | { kind: 'answer'; state: RequestState; request: RequestRecord }
    | { kind: 'resolution'; request: RequestRecord }
    | { kind: 'order'; event: OrderEvent }
    | { kind: 'fill'; fill: FillRecord }
    | { kind: 'balance'; snapshot: BalanceSnapshot }
    | { kind: 'health'; change: StreamHealthChange }
    | { kind: 'reconciliation'; reconciliation: ReconciliationRecord }
    /** `status`: the action's status at that entry; `action` holds its latest. */
    | { kind: 'treasury'; status: string | null; action: TreasuryAction }
    | { kind: 'run-stop'; run: LiveRunRecord }
  );

export interface RunTimeline {
  run: LiveRunRecord;
  entries: TimelineEntry[];
}

export interface ExplainOptions {
  /** `time` (default): by each entry's time, then journal order. `journal`: journal order only. */
  order?: 'time' | 'journal';
}

const byKey = <T, K>(items: readonly T[], key: (t: T) => K): Map<K, T> => new Map(items.map((t) => [key(t), t]));
const fillKey = (f: FillRecord): string => `${f.symbol} ${f.tradeId} ${f.side}`;
const json = (v: unknown): string => JSON.stringify(v) ?? 'null';

/** The run's timeline; undefined when the journal has no such run. */
export function explainRun(journal: Journal, runId: string, options: ExplainOptions = {}): RunTimeline | undefined {
  const run = journal.liveRuns.get(runId);
  if (!run) return undefined;
  const intents = byKey(journal.runs.intents(runId), (i) => String(i.id));
  const requests = byKey(journal.requests.byRun(runId), (r) => String(r.id));
  const events = byKey(journal.orders.eventsByRun(runId), (e) => String(e.id));
  const fills = byKey(journal.fills.list({ runId }), fillKey);
  const balances = byKey(journal.balances.byRun(runId), (b) => String(b.id));
  const health = byKey(journal.streamHealth.byRun(runId), (h) => String(h.id));
  const reconciliations = byKey(journal.reconciliations.byRun(runId), (r) => String(r.id));
  const treasury = byKey(journal.treasury.list({ runId }), (t) => t.id);

  const entries: TimelineEntry[] = [];
  for (const row of journal.runLog.rows(runId, options.order ?? 'time')) {
    const at = { seq: row.seq, time: row.time };
    switch (row.kind) {
      case 'run-start':
        entries.push({ ...at, kind: 'run-start', run, text: startText(run) });
        break;
      case 'run-stop':
        entries.push({ ...at, kind: 'run-stop', run, text: stopText(run) });
        break;
      case 'intent': {
        const intent = intents.get(row.ref);
        if (intent) entries.push({ ...at, kind: 'intent', intent, text: `intent ${intent.kind} by ${intent.strategy}${intent.clientOrderId ? ` as ${intent.clientOrderId}` : ''}: ${json(intent.payload)}` });
        break;
      }
      case 'request':
      case 'answer':
      case 'resolution': {
        const request = requests.get(row.ref);
        if (!request) break;
        const what = `${request.kind} ${request.clientOrderId} ${request.symbol}`;
        if (row.kind === 'request') entries.push({ ...at, kind: 'request', request, text: `sent ${what}${orderText(request.request)}` });
        else if (row.kind === 'answer') {
          const state = (row.note ?? request.state) as RequestState;
          entries.push({ ...at, kind: 'answer', state, request, text: `${state} ${what}${request.answer === null ? '' : `: ${json(request.answer)}`}` });
        } else entries.push({ ...at, kind: 'resolution', request, text: `resolved ${what}: ${json(request.resolution)}` });
        break;
      }
      case 'order': {
        const event = events.get(row.ref);
        if (event) entries.push({ ...at, kind: 'order', event, text: `order ${event.clientOrderId} ${event.kind}${event.status ? ` -> ${event.status}` : ''}` });
        break;
      }
      case 'fill': {
        const fill = fills.get(row.ref);
        if (fill) entries.push({ ...at, kind: 'fill', fill, text: fillText(fill) });
        break;
      }
      case 'balance': {
        const snapshot = balances.get(row.ref);
        if (snapshot) entries.push({ ...at, kind: 'balance', snapshot, text: `balances (${snapshot.source}): ${snapshot.balances.map((b) => `${b.asset} ${b.free} free ${b.locked} locked`).join(', ') || 'none'}` });
        break;
      }
      case 'health': {
        const change = health.get(row.ref);
        if (change) entries.push({ ...at, kind: 'health', change, text: `stream ${change.stream}: ${change.from ?? '(new)'} -> ${change.to}${change.reason ? ` (${change.reason})` : ''}` });
        break;
      }
      case 'reconciliation': {
        const reconciliation = reconciliations.get(row.ref);
        if (reconciliation) entries.push({ ...at, kind: 'reconciliation', reconciliation, text: reconciliation.summary });
        break;
      }
      case 'treasury': {
        const action = treasury.get(row.ref);
        if (action) entries.push({ ...at, kind: 'treasury', status: row.note, action, text: `treasury ${action.kind}${action.asset ? ` ${action.amount ?? ''} ${action.asset}` : ''} ${action.id}: ${row.note ?? action.status}` });
        break;
      }
    }
  }
  return { run, entries };
}

function startText(run: LiveRunRecord): string {
  const strategies = run.strategies.map((s) => `${s.name}${s.symbols?.length ? `[${s.symbols.join(',')}]` : ''}${s.params === undefined ? '' : ` ${json(s.params)}`}`);
  return `run ${run.id} (${run.kind}) started: ${strategies.join('; ') || run.strategy}`;
}

function stopText(run: LiveRunRecord): string {
  return `run ${run.id} ended: ${run.exitReason ?? 'ended'}${run.exitDetail === null ? '' : ` ${json(run.exitDetail)}`}`;
}

function fillText(f: FillRecord): string {
  const order = [f.exchangeOrderId && `order ${f.exchangeOrderId}`, f.clientOrderId].filter(Boolean).join(' ');
  return `fill ${f.symbol} ${f.side} ${f.qty} @ ${f.price} trade ${f.tradeId}${order ? ` ${order}` : ''}, fee ${f.commission} ${f.commissionAsset}${f.isMaker ? ', maker' : ''}`;
}

/** ` BUY LIMIT 0.01 @ 3150000` from a place command (or a cancelReplace's order); '' otherwise. */
function orderText(request: unknown): string {
  const r = request as { order?: unknown } | null;
  const o = (r && typeof r === 'object' && r.order && typeof r.order === 'object' ? r.order : r) as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || typeof o['side'] !== 'string') return '';
  const qty = o['quantity'] ?? (o['quoteOrderQty'] === undefined ? undefined : `${String(o['quoteOrderQty'])} (quote)`);
  return ` ${String(o['side'])} ${String(o['type'] ?? '')}${qty === undefined ? '' : ` ${String(qty)}`}${o['price'] === undefined ? '' : ` @ ${String(o['price'])}`}`;
}
