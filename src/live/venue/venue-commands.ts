/**
 * The live venue's commands over REST (issue 20 deliverable 4; spec 4.5, notes 6, spec 7.1):
 *
 * - every request is journaled (request-store `record`; a new order with its orders row, in one
 *   transaction) before it leaves; a new order the journal already holds is never sent again: it
 *   is looked up instead; a cancel may go again (a new attempt row) unless one is in flight;
 * - an answer becomes the events the stream would bring (live/events), delivered through the seen
 *   ledger, so a fill is applied once whichever road brought it first;
 * - a refusal is `rejected` / `cancelRejected` with the venue's code and text;
 * - no answer (timeout, 5xx, an unreadable 2xx: UnknownOutcomeError) is `unknownOutcome` (the
 *   order manager holds the order UNKNOWN), then a query by client order id (client.reconcileOrder)
 *   says what became of it: its real state, or `rejected` "not placed" when the venue never had
 *   it. Never resent.
 *
 * 429/418 need nothing here: the client's weight budget pauses every caller of the same client
 * (exchange/rate/rate-limit-pause.ts); a write refused by the pause (QueueTimeoutError, sent:
 * false) or answered 429/418 did not place anything and is a rejection.
 */
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { CanceledOrder, NewOrderResponse } from '../../exchange/codecs/order.ts';
import { ExchangeError, PartialFailureError, QueueTimeoutError, RateLimitedError, UnknownOutcomeError, VenueRejectedError } from '../../exchange/errors/errors.ts';
import type { Journal } from '../../journal/journal.ts';
import { commandRequest } from '../../journal/request-store.ts';
import type { AnswerState, RequestKind } from '../../journal/request-store.ts';
import type { CancelCommand, CancelReplaceCommand, PlaceCommand, VenueEvent } from '../../ports/venue.ts';
import { fromNewOrderResponse } from '../events/from-new-order.ts';
import { fromCanceledOrder, fromOrder } from '../events/from-order.ts';
import { isFinalStatus } from '../events/venue-status.ts';
import type { EventPath, LiveEvent } from '../events/live-events.ts';
import { NOT_PLACED_REASON } from '../resync/events-from-resync.ts';
import { killPoint } from '../kill-points.ts';
import type { VenueLog } from './venue-log.ts';

export interface CommandContext {
  readonly client: ExchangeClient;
  readonly journal: Journal | undefined;
  readonly runId: string;
  now(): number;
  readonly log: VenueLog;
  /** Through the seen ledger, the journal, then the order manager; `journalFirst` in the same journal transaction. */
  deliver(events: readonly LiveEvent[], path: EventPath, journalFirst?: () => void): void;
  /** Journal a new order's PENDING_NEW row (venue-journal.ts `placing`); called inside `record`'s transaction. */
  placing(cmd: PlaceCommand, time: number): void;
  /** The seen ledger's status of an order (undefined: not held). */
  heldStatus(clientOrderId: string): string | undefined;
  /** Something only a resync can settle (trades behind a resolved order, a failed query). */
  requestResync(reason: string): void;
}

/** The new-order parameters of a place command: FULL answers carry the fills (spec 4.5). */
export function orderParams(cmd: PlaceCommand): Record<string, string> {
  const p: Record<string, string> = { symbol: cmd.symbol, side: cmd.side, type: cmd.type, newClientOrderId: cmd.clientOrderId, newOrderRespType: 'FULL' };
  if (cmd.quantity !== undefined) p['quantity'] = cmd.quantity;
  if (cmd.quoteOrderQty !== undefined) p['quoteOrderQty'] = cmd.quoteOrderQty;
  if (cmd.price !== undefined) p['price'] = cmd.price;
  if (cmd.stopPrice !== undefined) p['stopPrice'] = cmd.stopPrice;
  if (cmd.timeInForce !== undefined) p['timeInForce'] = cmd.timeInForce;
  return p;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const errorAnswer = (e: unknown): unknown => (e instanceof ExchangeError ? { code: e.venueCode, message: e.message, httpStatus: e.httpStatus } : { message: errorText(e) });

/** Nothing was placed: the venue refused it, or the client never sent it. */
function refused(e: unknown): e is ExchangeError {
  return e instanceof VenueRejectedError || e instanceof RateLimitedError || e instanceof QueueTimeoutError;
}

/** Spec 7.3 / 7.4: a cancel refused as CANCEL_REJECTED "Unknown order sent.", or NO_SUCH_ORDER: the venue holds no open order by that id. */
const UNKNOWN_ORDER_CODES: ReadonlySet<number | string | undefined> = new Set([-2011, -2013]);

export class VenueCommands {
  /** New orders (place, and a cancelReplace's new order) whose answer or look-up is not done yet, by client order id. */
  private readonly unanswered = new Map<string, Promise<void>>();

  constructor(private readonly ctx: CommandContext) {}

  /** Run `send`, the order `cid` counted as unanswered until it is done (answered, refused or looked up). */
  private async answering(cids: readonly string[], send: () => Promise<void>): Promise<void> {
    const p = send();
    for (const cid of cids) this.unanswered.set(cid, p);
    try {
      await p;
    } finally {
      for (const cid of cids) if (this.unanswered.get(cid) === p) this.unanswered.delete(cid);
    }
  }

  /**
   * A cancel (or the cancel half of a cancelReplace) of an order the venue has not acknowledged
   * yet waits for the order's answer: sent first, it could reach the venue before the order and
   * be refused as unknown (-2011), and the order then rest uncancelled (Hummingbot's cancel waits
   * for the exchange order id the same way). Returns the order's status once known (the seen ledger's).
   */
  private async acknowledged(cid: string): Promise<string | undefined> {
    const p = this.unanswered.get(cid);
    if (p !== undefined) {
      this.ctx.log({ level: 'info', topic: 'order', time: this.ctx.now(), message: `cancel ${cid}: the order is not acknowledged yet; the cancel waits for its answer` });
      await p.catch(() => {});
    }
    return this.ctx.heldStatus(cid);
  }

  /**
   * Journal before it leaves; false: journaled already (by this run or an earlier one), not to be
   * sent again. A new order's PENDING_NEW row and its request row are one transaction, one commit
   * before the POST (two commits were two WAL writes on the order's path): a crash before the
   * commit leaves neither (nothing was sent), after it both, the request `sent`, which the start-up
   * reconciliation looks up by client order id (startup-reconcile.ts). The journal runs WAL with
   * synchronous=NORMAL (journal/db.ts): the commit is in the OS's hands when it returns, so a
   * killed process keeps it, without an fsync on the order's path (FULL would add one, for power
   * cuts only: the start-up reconciliation adopts what a lost row would have named).
   */
  private record(cmd: PlaceCommand | CancelCommand | CancelReplaceCommand): boolean {
    const j = this.ctx.journal;
    if (j === undefined) return true;
    const time = this.ctx.now();
    const request = commandRequest(this.ctx.runId, cmd, time);
    const order = cmd.kind === 'place' ? cmd : cmd.kind === 'cancelReplace' ? cmd.order : undefined;
    if (order === undefined) return j.requests.record(request);
    return j.transaction(() => {
      this.ctx.placing(order, time);
      return j.requests.record(request);
    });
  }

  private answer(cid: string, kind: RequestKind, state: AnswerState, answer: unknown): void {
    this.ctx.journal?.requests.answer(cid, kind, { state, time: this.ctx.now(), answer });
  }

  private resolve(cid: string, kind: RequestKind, resolution: unknown, attempt?: number): void {
    this.ctx.journal?.requests.resolve(cid, kind, this.ctx.now(), resolution, attempt);
  }

  place(cmd: PlaceCommand): Promise<void> {
    return this.answering([cmd.clientOrderId], () => this.sendPlace(cmd));
  }

  private async sendPlace(cmd: PlaceCommand): Promise<void> {
    const { ctx } = this;
    if (!this.record(cmd)) {
      ctx.log({ level: 'warn', topic: 'order', time: ctx.now(), message: `place ${cmd.clientOrderId}: already journaled as sent; not sent again, looked up instead` });
      await this.lookUpPlace(cmd, 'place', undefined);
      return;
    }
    killPoint('journaled-unsent');
    let r: NewOrderResponse;
    try {
      r = await ctx.client.spot.newOrder(orderParams(cmd) as Parameters<ExchangeClient['spot']['newOrder']>[0]);
    } catch (e) {
      await this.placeFailed(cmd, 'place', e);
      return;
    }
    killPoint('answered-unjournaled');
    let events: VenueEvent[];
    try {
      events = fromNewOrderResponse(r, cmd);
    } catch (e) {
      // A 2xx whose order state the mapping refuses (the codec keeps `status` free text): unreadable,
      // so the outcome is unknown and it is looked up, as cancelReplace does. Escaping here left the
      // order PENDING_NEW with its request unanswered and nothing to settle it.
      await this.placeFailed(cmd, 'place', e);
      return;
    }
    // The answer and the events it brings: one journal transaction.
    ctx.deliver(events, 'newOrder', () => this.answer(cmd.clientOrderId, 'place', 'acknowledged', r));
  }

  private async placeFailed(cmd: PlaceCommand, kind: RequestKind, e: unknown): Promise<void> {
    const { ctx } = this;
    if (refused(e)) {
      this.answer(cmd.clientOrderId, kind, 'rejected', errorAnswer(e));
      ctx.log({ level: 'info', topic: 'order', time: ctx.now(), message: `place ${cmd.clientOrderId} refused: ${e.message}` });
      ctx.deliver([{ kind: 'rejected', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, code: e.venueCode ?? -1, reason: e.message, time: ctx.now() }], 'newOrder');
      return;
    }
    // Anything else may have reached the venue (UnknownOutcomeError: timeout, 5xx, unreadable 2xx).
    this.answer(cmd.clientOrderId, kind, 'unknown', errorAnswer(e));
    ctx.log({ level: 'warn', topic: 'order', time: ctx.now(), message: `place ${cmd.clientOrderId}: outcome unknown (${errorText(e)}); looking it up by client order id` });
    // The stream may have acknowledged it already (its report overtook the 5xx): then there is no doubt to report.
    const held = ctx.heldStatus(cmd.clientOrderId);
    if (held === undefined || held === 'PENDING_NEW') ctx.deliver([{ kind: 'unknownOutcome', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, command: 'place', reason: errorText(e), time: ctx.now() }], 'newOrder');
    await this.lookUpPlace(cmd, kind, e instanceof UnknownOutcomeError ? e : undefined);
  }

  /** What became of a placement: by client.reconcileOrder (it waits out the request's recvWindow before a final not-found). */
  private async lookUpPlace(cmd: PlaceCommand, kind: RequestKind, error: UnknownOutcomeError | undefined): Promise<void> {
    const { ctx } = this;
    try {
      if (error !== undefined && error.request?.clientId !== undefined) {
        const rec = await ctx.client.reconcileOrder(error);
        if (rec.status === 'found') return this.found(cmd.clientOrderId, kind, [fromOrder(rec.order)]);
        this.resolve(cmd.clientOrderId, kind, { found: false, code: rec.error.venueCode });
        ctx.log({ level: 'info', topic: 'order', time: ctx.now(), message: `place ${cmd.clientOrderId}: not at the venue (${rec.error.message}): not placed` });
        ctx.deliver([{ kind: 'rejected', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, code: rec.error.venueCode ?? -2013, reason: NOT_PLACED_REASON, time: ctx.now() }], 'queryOrder');
        return;
      }
      // No request to settle against (journaled by an earlier attempt): one query; a not-found is left to the resync.
      const found = await ctx.client.spot.queryOrder({ origClientOrderId: cmd.clientOrderId });
      const order = Array.isArray(found) ? found.at(-1) : found;
      if (order !== undefined) return this.found(cmd.clientOrderId, kind, [fromOrder(order)]);
      ctx.requestResync(`place ${cmd.clientOrderId}: not found yet`);
    } catch (q) {
      ctx.log({ level: 'warn', topic: 'order', time: ctx.now(), message: `place ${cmd.clientOrderId}: the look-up failed (${errorText(q)}); the resync will settle it` });
      ctx.requestResync(`look-up of ${cmd.clientOrderId} failed`);
    }
  }

  private found(cid: string, kind: RequestKind, events: VenueEvent[], attempt?: number, resync = true): void {
    const { ctx } = this;
    const e = events[0];
    if (e?.kind === 'order') {
      this.resolve(cid, kind, { found: true, status: e.status, orderId: e.orderId, executedQty: e.executedQty }, attempt);
      ctx.log({ level: 'info', topic: 'order', time: ctx.now(), message: `${kind} ${cid}: found by query, ${e.status} (executed ${e.executedQty})` });
    }
    ctx.deliver(events, 'queryOrder');
    // The query says how far it filled, not by which trades: those come from the stream or the resync.
    if (resync && e?.kind === 'order' && e.executedQty !== '0' && !/^0(\.0*)?$/.test(e.executedQty)) ctx.requestResync(`trades of ${cid}, found by query`);
  }

  async cancel(cmd: CancelCommand): Promise<void> {
    const { ctx } = this;
    const status = await this.acknowledged(cmd.clientOrderId);
    if (status !== undefined && isFinalStatus(status)) {
      // Refused, or ended, while the cancel waited: nothing left to cancel, nothing sent.
      ctx.log({ level: 'info', topic: 'order', time: ctx.now(), message: `cancel ${cmd.clientOrderId}: the order is ${status}; not sent` });
      ctx.deliver([{ kind: 'cancelRejected', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, code: 0, reason: `the order is ${status}`, time: ctx.now() }], 'cancelOrder');
      return;
    }
    // A cancel may go again once the earlier one was answered or found unknown (idempotent at the venue: -2011 at worst).
    if (!this.record(cmd)) {
      ctx.log({ level: 'warn', topic: 'order', time: ctx.now(), message: `cancel ${cmd.clientOrderId}: a cancel of this order is in flight; not sent again` });
      ctx.deliver([{ kind: 'cancelRejected', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, code: 0, reason: 'a cancel of this order is in flight (no answer yet)', time: ctx.now() }], 'cancelOrder');
      return;
    }
    // This cancel's attempt number, read before the request leaves: a later cancel of the order may be journaled while this one is looked up.
    const attempt = ctx.journal?.requests.get(cmd.clientOrderId, 'cancel')?.attempt;
    let r: CanceledOrder;
    try {
      r = await ctx.client.spot.cancelOrder({ origClientOrderId: cmd.clientOrderId });
    } catch (e) {
      await this.cancelFailed(cmd, e, attempt);
      return;
    }
    killPoint('answered-unjournaled');
    ctx.deliver([{ ...fromCanceledOrder(r, ctx.now()), clientOrderId: cmd.clientOrderId }], 'cancelOrder', () => this.answer(cmd.clientOrderId, 'cancel', 'acknowledged', r));
  }

  private async cancelFailed(cmd: CancelCommand, e: unknown, attempt: number | undefined): Promise<void> {
    const { ctx } = this;
    if (refused(e)) {
      this.answer(cmd.clientOrderId, 'cancel', 'rejected', errorAnswer(e));
      // "Unknown order" says the venue holds no open order by that id, not that the order is as it
      // was: it may have filled, been cancelled or expired, with the news still on its way (or lost).
      // Asked first, so the order moves to what the venue says instead of back to NEW; the refusal
      // then only undoes the pending cancel of an order the venue still has open.
      if (e instanceof VenueRejectedError && UNKNOWN_ORDER_CODES.has(e.venueCode)) {
        ctx.log({ level: 'info', topic: 'order', time: ctx.now(), message: `cancel ${cmd.clientOrderId}: ${e.message}; asking the venue what became of the order` });
        await this.lookUpOrder(cmd.clientOrderId, 'cancel', attempt, false);
      }
      ctx.deliver([{ kind: 'cancelRejected', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, code: e.venueCode ?? -1, reason: e.message, time: ctx.now() }], 'cancelOrder');
      return;
    }
    this.answer(cmd.clientOrderId, 'cancel', 'unknown', errorAnswer(e));
    ctx.deliver([{ kind: 'unknownOutcome', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, command: 'cancel', reason: errorText(e), time: ctx.now() }], 'cancelOrder');
    await this.lookUpOrder(cmd.clientOrderId, 'cancel', attempt);
  }

  /**
   * The order's state now, by client order id (a cancel's outcome). `resync` false (a cancel refused
   * as unknown): one query and no more; its trades come by the stream or the next gap's resync, and
   * a failed query leaves the refusal to stand. Each -2011 asking for a resync (myTrades paged from
   * the last trade id known) could, with cancels refused again and again, earn a 429 and then a ban.
   */
  private async lookUpOrder(cid: string, kind: RequestKind, attempt?: number, resync = true): Promise<void> {
    const { ctx } = this;
    try {
      const found = await ctx.client.spot.queryOrder({ origClientOrderId: cid });
      const order = Array.isArray(found) ? found.at(-1) : found;
      if (order !== undefined) this.found(cid, kind, [fromOrder(order)], attempt, resync);
    } catch (q) {
      ctx.log({ level: 'warn', topic: 'order', time: ctx.now(), message: `${kind} ${cid}: the look-up failed (${errorText(q)})${resync ? '; the resync will settle it' : ''}` });
      if (resync) ctx.requestResync(`look-up of ${cid} failed`);
    }
  }

  /** Notes 6 STOP_ON_FAILURE: the new order only if the cancel went through. */
  async cancelReplace(cmd: CancelReplaceCommand): Promise<void> {
    // The old order's answer first (see `acknowledged`); the new order is unanswered from now.
    const old = this.acknowledged(cmd.cancelClientOrderId);
    return this.answering([cmd.order.clientOrderId], async () => {
      await old;
      await this.sendCancelReplace(cmd);
    });
  }

  private async sendCancelReplace(cmd: CancelReplaceCommand): Promise<void> {
    const { ctx } = this;
    const neu = cmd.order;
    if (!this.record(cmd)) {
      ctx.log({ level: 'warn', topic: 'order', time: ctx.now(), message: `cancelReplace ${neu.clientOrderId}: already journaled; not sent again, looked up instead` });
      await this.lookUpPlace(neu, 'cancelReplace', undefined);
      return;
    }
    killPoint('journaled-unsent');
    try {
      const r = await ctx.client.spot.cancelReplace({ ...orderParams(neu), cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrigClientOrderId: cmd.cancelClientOrderId } as Parameters<ExchangeClient['spot']['cancelReplace']>[0]);
      killPoint('answered-unjournaled');
      const events: VenueEvent[] = [];
      if (isOrder(r.cancelResponse)) events.push({ ...fromCanceledOrder(r.cancelResponse as CanceledOrder, ctx.now(), 'cancelReplace'), clientOrderId: cmd.cancelClientOrderId });
      if (isOrder(r.newOrderResponse)) events.push(...fromNewOrderResponse(r.newOrderResponse as NewOrderResponse, neu));
      ctx.deliver(events, 'newOrder', () => this.answer(neu.clientOrderId, 'cancelReplace', 'acknowledged', r));
    } catch (e) {
      if (e instanceof PartialFailureError) {
        this.answer(neu.clientOrderId, 'cancelReplace', 'rejected', { ...(errorAnswer(e) as object), legs: e.legs });
        const events: VenueEvent[] = [];
        if (isOrder(e.legs.cancelResponse)) events.push({ ...fromCanceledOrder(e.legs.cancelResponse as CanceledOrder, ctx.now(), 'cancelReplace'), clientOrderId: cmd.cancelClientOrderId });
        else events.push({ kind: 'cancelRejected', symbol: cmd.symbol, clientOrderId: cmd.cancelClientOrderId, code: legCode(e.legs.cancelResponse) ?? e.venueCode ?? -1, reason: e.message, time: ctx.now() });
        if (isOrder(e.legs.newOrderResponse)) events.push(...fromNewOrderResponse(e.legs.newOrderResponse as NewOrderResponse, neu));
        else events.push({ kind: 'rejected', symbol: neu.symbol, clientOrderId: neu.clientOrderId, code: legCode(e.legs.newOrderResponse) ?? e.venueCode ?? -1, reason: e.message, time: ctx.now() });
        // The old order unknown to the venue (ended, its news on the way): asked first, as a cancel's -2011 is.
        if (!isOrder(e.legs.cancelResponse) && UNKNOWN_ORDER_CODES.has(legCode(e.legs.cancelResponse))) await this.lookUpOrder(cmd.cancelClientOrderId, 'cancel', undefined, false);
        ctx.deliver(events, 'newOrder');
        return;
      }
      if (refused(e)) {
        this.answer(neu.clientOrderId, 'cancelReplace', 'rejected', errorAnswer(e));
        ctx.deliver(
          [
            { kind: 'cancelRejected', symbol: cmd.symbol, clientOrderId: cmd.cancelClientOrderId, code: e.venueCode ?? -1, reason: e.message, time: ctx.now() },
            { kind: 'rejected', symbol: neu.symbol, clientOrderId: neu.clientOrderId, code: e.venueCode ?? -1, reason: e.message, time: ctx.now() },
          ],
          'newOrder',
        );
        return;
      }
      ctx.deliver([{ kind: 'unknownOutcome', symbol: cmd.symbol, clientOrderId: cmd.cancelClientOrderId, command: 'cancel', reason: errorText(e), time: ctx.now() }], 'cancelOrder');
      await this.placeFailed(neu, 'cancelReplace', e);
      await this.lookUpOrder(cmd.cancelClientOrderId, 'cancel');
    }
  }
}

function isOrder(leg: unknown): boolean {
  return typeof leg === 'object' && leg !== null && 'orderId' in leg;
}

function legCode(leg: unknown): number | undefined {
  return typeof leg === 'object' && leg !== null && typeof (leg as { code?: unknown }).code === 'number' ? (leg as { code: number }).code : undefined;
}
