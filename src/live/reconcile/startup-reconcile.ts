/**
 * Start-up reconciliation (issue 20 deliverable 6), run once before the live venue starts its
 * stream: from the journal (the earlier runs' open orders and fills, their requests whose outcome
 * was never learnt) and the venue (open orders, trades since the last journaled trade id, the
 * orders the journal holds open that the venue no longer lists, account balances):
 *
 * - this bot's orders still open are adopted, with their fills (the journal's state first, into
 *   the order manager through `adopt`; then what the venue did since, as events);
 * - fills made while the bot was down are applied once (the seen ledger holds the journaled ones);
 * - requests that may have reached the venue are resolved by query by client order id (found: the
 *   order's events; not found: rejected as not placed), never resent;
 * - open orders that are not this bot's (another client-id prefix) are reported and left alone,
 *   or cancelled with `cancelForeign`;
 * - balances come from the venue; where they differ from the journal's last record it is reported;
 * - a reconciliation report (kind startup) is journaled.
 *
 * Every REST call goes through the one client (its weight budget, and the 429/418 pause every
 * consumer shares) one after the other, `paceMs` apart (default 50 ms), so a restart with many
 * symbols spreads its reads instead of bursting them (NautilusTrader #780).
 */
import { D } from '../../core/money/decimal.ts';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { Journal } from '../../journal/journal.ts';
import type { BalanceDifference, ReconciliationReport, ResolvedRequest } from '../../journal/runs/reconciliation-store.ts';
import type { LiveEvent } from '../events/live-events.ts';
import { eventsFromResync } from '../resync/events-from-resync.ts';
import type { ResyncResult } from '../resync/events-from-resync.ts';
import type { ResyncAnswer } from '../resync/resync-queries.ts';
import type { AdoptInput } from '../venue/adopt-order.ts';
import type { LiveVenue } from '../venue/live-venue.ts';
import { runResyncQueries } from '../venue/resync-runner.ts';
import { silentLog, type VenueLog } from '../venue/venue-log.ts';
import { killPoint } from '../kill-points.ts';
import { seedFromJournal } from './journal-seed.ts';

export interface StartupOptions {
  readonly client: ExchangeClient;
  readonly journal: Journal;
  /** The run starting now (begun in the journal: live-run-store `begin`). */
  readonly runId: string;
  readonly symbols: readonly string[];
  /** The venue whose ledger and delivery path the adopted orders and missed events take. */
  readonly venue: LiveVenue;
  /** The journal's open orders into the order manager, as journaled (adopt-order.ts). */
  readonly adopt?: (order: AdoptInput) => boolean;
  readonly ownsClientOrderId?: (clientOrderId: string) => boolean;
  readonly cancelForeign?: boolean;
  readonly paceMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  readonly log?: VenueLog;
}

export interface StartupResult {
  readonly report: ReconciliationReport;
  readonly summary: string;
  readonly delivered: readonly LiveEvent[];
  readonly result: ResyncResult;
  readonly answers: readonly ResyncAnswer[];
  readonly calls: number;
}

export const DEFAULT_STARTUP_PACE_MS = 50;

export async function reconcileAtStartup(o: StartupOptions): Promise<StartupResult> {
  const now = o.now ?? Date.now;
  const log = o.log ?? silentLog;
  const ledger = o.venue.ledger;
  const state = seedFromJournal(o.journal, ledger, o.symbols, o.runId);
  const lastBalances = journaledBalances(o.journal);

  // The journal's picture first: the order manager holds these orders before their news arrives.
  for (const order of state.orders) {
    const taken = o.adopt?.(order) ?? false;
    o.venue.noteAdoption(order.clientOrderId, taken);
    log({ level: 'info', topic: 'reconcile', time: now(), message: `journal: ${order.symbol} order ${order.clientOrderId} held as ${order.status} (${order.executedQty} executed)${taken ? '' : ': not taken by the order manager'}` });
  }

  const snapshot = ledger.snapshot();
  const run = await runResyncQueries(o.client, snapshot, o.symbols, { paceMs: o.paceMs ?? DEFAULT_STARTUP_PACE_MS, ...(o.sleep ? { sleep: o.sleep } : {}) });
  const result = eventsFromResync(snapshot, run.answers, { now: now(), ...(o.ownsClientOrderId ? { ownsClientOrderId: o.ownsClientOrderId } : {}), cancelForeign: o.cancelForeign === true });
  ledger.noteTradeIds(result.highestTradeIds);
  const delivered = o.venue.deliver(result.events, 'resync');
  killPoint('mid-reconcile');

  const cancelled = new Set<string>();
  for (const c of result.cancels) {
    try {
      await o.client.spot.cancelOrder({ origClientOrderId: c.clientOrderId });
      cancelled.add(c.clientOrderId);
    } catch (e) {
      log({ level: 'warn', topic: 'reconcile', time: now(), message: `cancelling foreign order ${c.clientOrderId} failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  for (const f of result.foreign) log({ level: 'warn', topic: 'reconcile', time: now(), message: `open ${f.symbol} order ${f.clientOrderId} (${f.orderId}) is not this bot's: ${cancelled.has(f.clientOrderId) ? 'cancelled' : 'left alone'}` });
  for (const p of result.incomplete) log({ level: 'warn', topic: 'reconcile', time: now(), message: `${p.symbol} ${p.clientOrderId}: ${p.message}` });

  const resolved = resolvePending(o.journal, state.pending, run.answers, now());
  const report: ReconciliationReport = {
    symbols: [...o.symbols],
    calls: run.calls,
    journalOrders: state.orders.map((x) => ({ clientOrderId: x.clientOrderId, status: x.status, executedQty: x.executedQty })),
    adoptedOrders: delivered.filter((e) => e.kind === 'adopt').map((e) => ({ symbol: e.symbol, clientOrderId: e.clientOrderId, orderId: e.orderId, status: e.status, executedQty: e.executedQty })),
    missedFills: delivered.filter((e) => e.kind === 'fill').map((e) => ({ symbol: e.symbol, orderId: e.orderId, tradeId: e.tradeId, clientOrderId: e.clientOrderId, side: e.side, price: e.price, qty: e.qty })),
    foreignOrders: result.foreign.map((f) => ({ symbol: f.symbol, orderId: f.orderId, clientOrderId: f.clientOrderId, action: cancelled.has(f.clientOrderId) ? 'cancelled' : 'left' })),
    resolvedRequests: resolved,
    balanceDifferences: balanceDifferences(lastBalances, run.answers),
    incomplete: result.incomplete,
    unmatchedTrades: result.unmatched.length,
  };
  const id = o.journal.reconciliations.record({ runId: o.runId, time: now(), kind: 'startup', report });
  const summary = o.journal.reconciliations.byId(id)?.summary ?? '';
  log({ level: 'info', topic: 'reconcile', time: now(), message: `${summary} (${run.calls} calls)` });
  return { report, summary, delivered, result, answers: run.answers, calls: run.calls };
}

/** Each pending request's outcome, from what the queries found under its client order id. */
function resolvePending(journal: Journal, pending: readonly { clientOrderId: string; kind: 'place' | 'cancel' | 'cancelReplace' }[], answers: readonly ResyncAnswer[], time: number): ResolvedRequest[] {
  const out: ResolvedRequest[] = [];
  for (const r of pending) {
    let found: { status: string; orderId: string; executedQty: string } | undefined;
    let missing = false;
    for (const a of answers) {
      if (a.kind === 'openOrders' || a.kind === 'queryOrder') {
        const o = a.orders.filter((x) => x.clientOrderId === r.clientOrderId).at(-1);
        if (o !== undefined) found = { status: o.status, orderId: o.orderId, executedQty: o.executedQty };
      } else if (a.kind === 'orderNotFound' && a.query.clientOrderId === r.clientOrderId) missing = true;
    }
    if (found === undefined && !missing) continue;
    const resolution = found ? { found: true, ...found, by: 'startup' } : { found: false, by: 'startup' };
    if (journal.requests.resolve(r.clientOrderId, r.kind, time, resolution)) {
      out.push({ clientOrderId: r.clientOrderId, kind: r.kind, outcome: found ? `found ${found.status}` : 'not found' });
    }
  }
  return out;
}

/** The last journaled free/locked of each asset (any run). */
function journaledBalances(journal: Journal): Map<string, { free: string; locked: string }> {
  const out = new Map<string, { free: string; locked: string }>();
  // Oldest first: the last line of each asset stands (a stream snapshot lists only the assets that moved).
  const lines = journal.db
    .prepare('SELECT b.asset, b.free, b.locked FROM balances b JOIN balance_snapshots s ON s.id = b.snapshot_id ORDER BY s.taken_at, s.id')
    .all() as { asset: string; free: string; locked: string }[];
  for (const l of lines) out.set(l.asset, { free: l.free, locked: l.locked });
  return out;
}

function balanceDifferences(journaled: ReadonlyMap<string, { free: string; locked: string }>, answers: readonly ResyncAnswer[]): BalanceDifference[] {
  const account = answers.find((a) => a.kind === 'account');
  if (account === undefined || account.kind !== 'account') return [];
  const out: BalanceDifference[] = [];
  const venue = new Map(account.account.balances.map((b) => [b.asset, b] as const));
  for (const [asset, j] of journaled) {
    const v = venue.get(asset) ?? { free: '0', locked: '0' };
    if (!new D(v.free).eq(j.free) || !new D(v.locked).eq(j.locked)) out.push({ asset, expectedFree: j.free, expectedLocked: j.locked, venueFree: v.free, venueLocked: v.locked });
  }
  return out;
}
