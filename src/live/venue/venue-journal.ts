/**
 * What the live venue writes to the journal of live runs (issue 20 deliverable 7): each order when
 * it is about to leave (the request itself goes to request-store first, "journaled before its
 * request leaves"), then every order state change and fill it forwards, and balance snapshots. A
 * batch is one transaction, so a SIGKILL never leaves a fill journaled without the order status it
 * reached (start-up reconciliation reads both). Fills are idempotent on (symbol, trade id, side).
 * A new fill is journaled with its `fill-owed` mark (reconcile/untold-fills.ts): owed to its
 * strategy until the host marks it told, so one a crash kept from onFill is told at the next start.
 *
 * Writes that nothing waits on are not given a commit of their own (each commit is a WAL write,
 * and a place / cancel cycle made about eight of them on the live path, 2 ms of CPU a cycle in
 * bench/stream-latency.bench.ts): the answer of a request whose events the stream brought first,
 * the duplicates the seen ledger dropped, and a delivery of balances only. They are written with
 * the next transaction, or within DEFER_MS, or by `flush()` (the venue's `idle` and `close`). A
 * crash loses at most those: a request left `sent` is looked up by the next run's start-up
 * reconciliation (never resent), balances are read from the venue again; an order's state, a fill
 * and a request before it leaves are never deferred.
 *
 * Optional: a venue without a journal (a quick test, a benchmark) writes nothing.
 */
import type { Journal } from '../../journal/journal.ts';
import type { PlaceCommand, VenueBalanceEvent } from '../../ports/venue.ts';
import type { LiveEvent } from '../events/live-events.ts';
import { isFinalStatus } from '../events/venue-status.ts';
import { killPoint } from '../kill-points.ts';
import { FILL_OWED, owedMark } from '../reconcile/untold-fills.ts';

/** An event the seen ledger dropped, to be noted in the journal. */
export interface DroppedNote {
  readonly clientOrderId: string | undefined;
  readonly time: number;
  readonly reason: string;
}

/** How long a deferred write may wait for the next transaction (ms). */
export const DEFER_MS = 50;

export class VenueJournal {
  private readonly later: (() => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly journal: Journal | undefined,
    private readonly runId: string,
    /** A deferred write that failed (the venue logs it). */
    private readonly onError: (e: unknown) => void = () => {},
  ) {}

  /** Write what was deferred now, in one transaction. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const j = this.journal;
    if (j === undefined || this.later.length === 0) return;
    try {
      j.transaction(() => this.drainLater());
    } catch (e) {
      this.onError(e);
    }
  }

  private defer(write: () => void): void {
    this.later.push(write);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), DEFER_MS);
      this.timer.unref?.();
    }
  }

  /** Inside a transaction: each deferred write on its own (one that fails does not take the others, or the caller's, with it). */
  private drainLater(): void {
    for (const write of this.later.splice(0)) {
      try {
        write();
      } catch (e) {
        this.onError(e);
      }
    }
  }

  get enabled(): boolean {
    return this.journal !== undefined;
  }

  /** A new order, PENDING_NEW until the venue answers. */
  placing(cmd: PlaceCommand, time: number): void {
    this.journal?.orders.insert({
      clientOrderId: cmd.clientOrderId,
      runId: this.runId,
      symbol: cmd.symbol,
      side: cmd.side,
      type: cmd.type,
      timeInForce: cmd.timeInForce ?? null,
      price: cmd.price ?? null,
      stopPrice: cmd.stopPrice ?? null,
      qty: cmd.quantity ?? cmd.quoteOrderQty ?? '0',
      status: 'PENDING_NEW',
      createdAt: time,
      raw: { command: cmd },
    });
  }

  /**
   * One delivery's writes, in one transaction (one WAL commit, not one per write): what was
   * deferred, `first` (the answer of the request whose answer brought these events,
   * venue-commands.ts), the events the seen ledger dropped (a duplicate, a stale balance: kept with
   * the reason, for explainRun), then the events forwarded: order rows, fills, balances. A delivery
   * with no order event (all dropped, or balances only) is deferred whole.
   */
  events(events: readonly LiveEvent[], path: string, dropped: readonly DroppedNote[] = [], first?: () => void): void {
    const j = this.journal;
    if (j === undefined || (events.length === 0 && dropped.length === 0 && first === undefined)) return;
    if (!events.some((e) => e.kind !== 'balance')) {
      if (first !== undefined) this.defer(first);
      for (const d of dropped) this.defer(() => this.dropped(d.clientOrderId, d.time, d.reason));
      if (events.length > 0) this.defer(() => this.write(events, path));
      return;
    }
    j.transaction(() => {
      this.drainLater();
      first?.();
      for (const d of dropped) this.dropped(d.clientOrderId, d.time, d.reason);
      this.write(events, path);
    });
  }

  /** The forwarded events' rows (inside a transaction). */
  private write(events: readonly LiveEvent[], path: string): void {
    const j = this.journal;
    if (j === undefined) return;
    {
      const balances: VenueBalanceEvent[] = [];
      for (const e of events) {
        switch (e.kind) {
          case 'adopt':
            if (!j.orders.insert({ clientOrderId: e.clientOrderId, runId: this.runId, symbol: e.symbol, side: e.side, type: e.type, timeInForce: e.timeInForce ?? null, price: e.price ?? null, stopPrice: e.stopPrice ?? null, qty: e.origQty, executedQty: e.executedQty, status: e.status, exchangeOrderId: e.orderId, createdAt: e.time, raw: { adopted: path } })) {
              j.orders.update(e.clientOrderId, { status: e.status, updatedAt: e.time, executedQty: e.executedQty, exchangeOrderId: e.orderId, runId: this.runId }, 'adopted');
            }
            break;
          case 'order':
            j.orders.update(e.clientOrderId, { status: e.status, updatedAt: e.time, executedQty: e.executedQty, exchangeOrderId: e.orderId, runId: this.runId, raw: { path, reason: e.reason } }, path);
            break;
          case 'fill': {
            const fresh = j.fills.insert({ symbol: e.symbol, tradeId: e.tradeId, runId: this.runId, clientOrderId: e.clientOrderId, exchangeOrderId: e.orderId, side: e.side, price: e.price, qty: e.qty, quoteQty: e.quoteQty, commission: e.commission, commissionAsset: e.commissionAsset, isMaker: e.isMaker, time: e.time, raw: { path } });
            killPoint('fill-half-written');
            // A late fill of an order that already ended (its trade came after its end status) keeps the end.
            const was = j.orders.get(e.clientOrderId)?.status;
            const status = was !== undefined && isFinalStatus(was) ? was : e.orderStatus;
            j.orders.update(e.clientOrderId, { status, updatedAt: e.time, executedQty: e.cumulativeQty, exchangeOrderId: e.orderId, runId: this.runId }, `fill ${e.tradeId}`);
            // Owed to its strategy until the host marks it told: a crash before onFill leaves it to the next start (untold-fills.ts).
            if (fresh && was !== undefined) j.orders.addEvent({ clientOrderId: e.clientOrderId, time: e.time, kind: FILL_OWED, payload: owedMark(e), runId: this.runId });
            break;
          }
          case 'rejected':
            j.orders.update(e.clientOrderId, { status: 'REJECTED', updatedAt: e.time, runId: this.runId, raw: { path, code: e.code, reason: e.reason } }, 'rejected');
            break;
          case 'cancelRejected':
            j.orders.addEvent({ clientOrderId: e.clientOrderId, time: e.time, kind: 'cancel-rejected', payload: { code: e.code, reason: e.reason }, runId: this.runId });
            break;
          case 'unknownOutcome':
            if (e.command === 'place') j.orders.update(e.clientOrderId, { status: 'UNKNOWN', updatedAt: e.time, runId: this.runId, raw: { reason: e.reason } }, 'unknown-outcome');
            else j.orders.addEvent({ clientOrderId: e.clientOrderId, time: e.time, kind: 'cancel-unknown-outcome', payload: { reason: e.reason }, runId: this.runId });
            break;
          case 'balance':
            balances.push(e);
            break;
        }
      }
      if (balances.length > 0) {
        const takenAt = Math.max(...balances.map((b) => b.time));
        j.balances.record({ runId: this.runId, takenAt, source: path, balances: balances.map((b) => ({ asset: b.asset, free: b.free, locked: b.locked })) });
      }
    }
  }

  /** An event the seen ledger dropped (a duplicate, a stale balance): kept with the reason, for explainRun. */
  private dropped(clientOrderId: string | undefined, time: number, reason: string): void {
    if (this.journal === undefined || clientOrderId === undefined || this.journal.orders.get(clientOrderId) === undefined) return;
    this.journal.orders.addEvent({ clientOrderId, time, kind: 'duplicate-dropped', payload: { reason }, runId: this.runId });
  }
}
