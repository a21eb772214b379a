/**
 * Fills journaled but never told to their strategy (issue 22 deliverable 3, kill point
 * `fill-journaled-untold`): a fill is journaled before the order manager and its strategy hear of
 * it (live-venue.ts `deliver`: "then the journal, then the order manager"), so a crash between the
 * commit and `onFill` left a fill that the journal holds, that the next start replays into
 * positions and capital, and that no strategy's onFill ever saw. And the start-up reconciliation
 * applies the fills missed while the bot was down before any strategy has started: the strategy
 * that placed the order never saw those either.
 *
 * Two marks in the order's event history (order_events, no schema of its own):
 * - `fill-owed`, written in the same journal transaction as the fill (venue-journal.ts), so a fill
 *   is never journaled without it;
 * - `fill-told`, written by the host (bot/fill-tells.ts) when the strategy is told: just before its
 *   onFill runs, or when it never will (the strategy had stopped or failed, or is not hosted).
 * At start, once the strategies run, each owed fill without its told mark is told once (the order
 * manager already holds it: it is not applied again). A journal written before these marks has no
 * owed marks, so an upgrade tells nothing twice.
 *
 * At most once: a crash between the told mark and onFill loses that one tell (the mark comes
 * first, microseconds before), never repeats it; the order manager's state is right either way.
 */
import type { FillRecord } from '../../journal/fill-store.ts';
import type { Journal } from '../../journal/journal.ts';
import type { VenueFillEvent } from '../../ports/venue.ts';
import { compareIds } from '../events/ids.ts';

export const FILL_OWED = 'fill-owed';
export const FILL_TOLD = 'fill-told';

/** What names a fill within its order's events (the journal's fill key is symbol, trade id, side), and what the strategy is told beside the fill row. */
export interface OwedMark {
  readonly symbol: string;
  readonly tradeId: string;
  readonly side: 'BUY' | 'SELL';
  readonly orderStatus: 'PARTIALLY_FILLED' | 'FILLED';
  readonly cumulativeQty: string;
}

export function owedMark(e: VenueFillEvent): OwedMark {
  return { symbol: e.symbol, tradeId: e.tradeId, side: e.side, orderStatus: e.orderStatus, cumulativeQty: e.cumulativeQty };
}

export interface UntoldFill {
  readonly clientOrderId: string;
  readonly fill: FillRecord;
  readonly orderStatus: 'PARTIALLY_FILLED' | 'FILLED';
  readonly cumulativeQty: string;
}

const keyOf = (m: { symbol?: unknown; tradeId?: unknown; side?: unknown }): string => `${String(m.symbol)}\u0000${String(m.tradeId)}\u0000${String(m.side)}`;

/**
 * The fills journaled by `runIds` that are owed and not told, oldest first (fill time, then trade
 * id). Read through the runs' fills (indexed by run) and each order's events (indexed by order),
 * so the cost is the size of those runs, not of the journal.
 */
export function untoldFills(journal: Journal, runIds: readonly string[]): UntoldFill[] {
  const out: UntoldFill[] = [];
  const byOrder = new Map<string, FillRecord[]>();
  for (const runId of new Set(runIds)) {
    for (const f of journal.fills.list({ runId })) {
      if (f.clientOrderId === null) continue;
      let list = byOrder.get(f.clientOrderId);
      if (list === undefined) byOrder.set(f.clientOrderId, (list = []));
      list.push(f);
    }
  }
  for (const [clientOrderId, fills] of byOrder) {
    const owed = new Map<string, OwedMark>();
    const told = new Set<string>();
    for (const ev of journal.orders.events(clientOrderId)) {
      if (ev.kind !== FILL_OWED && ev.kind !== FILL_TOLD) continue;
      const p = (ev.payload ?? {}) as Partial<OwedMark>;
      if (ev.kind === FILL_OWED) owed.set(keyOf(p), p as OwedMark);
      else told.add(keyOf(p));
    }
    for (const fill of fills) {
      const k = keyOf(fill);
      const mark = owed.get(k);
      if (mark === undefined || told.has(k)) continue;
      out.push({ clientOrderId, fill, orderStatus: mark.orderStatus, cumulativeQty: mark.cumulativeQty });
    }
  }
  return out.sort((a, b) => a.fill.time - b.fill.time || compareIds(a.fill.tradeId, b.fill.tradeId));
}

/** The told mark of one fill; `note` says why when the strategy was not (will never be) told. */
export function markTold(journal: Journal, runId: string, clientOrderId: string, fill: { symbol: string; tradeId: string; side: 'BUY' | 'SELL' }, time: number, note?: string): void {
  journal.orders.addEvent({ clientOrderId, time, kind: FILL_TOLD, payload: { symbol: fill.symbol, tradeId: fill.tradeId, side: fill.side, ...(note === undefined ? {} : { note }) }, runId });
}
