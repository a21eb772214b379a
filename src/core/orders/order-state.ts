/**
 * The order-state reducer (spec 3.1): the venue's statuses NEW, PARTIALLY_FILLED, FILLED,
 * CANCELED, PARTIALLY_CANCELED (self-trade), EXPIRED and REJECTED, plus the order manager's own:
 * PENDING_NEW (sent, not yet acknowledged), PENDING_CANCEL (cancel sent), DENIED (refused by the
 * pre-trade checks, never sent) and UNKNOWN (a write whose outcome is not known: timeout, 5xx;
 * reconciliation resolves it).
 *
 * Pure: (progress, trigger) -> applied | unchanged | illegal. An illegal transition (a venue
 * event that contradicts what we know: FILLED -> NEW, an executed quantity going back, REJECTED
 * after an acknowledgement) is reported and never applied; a repeated event (the same status and
 * quantity again, as a resent stream message) is `unchanged`. While a cancel is pending, fills
 * keep coming: the order stays PENDING_CANCEL and remembers the venue status to `resume` if the
 * cancel is rejected.
 *
 * A cancel whose outcome is not known (timeout, 5xx) resumes that status too: the order is taken
 * as still working until the venue says it ended. Left PENDING_CANCEL it could never be cancelled
 * or replaced again (a cancel would be "already pending"), and reconciliation could not free it:
 * the venue's NEW or PARTIALLY_FILLED for a live order only updates a pending cancel's `resume`.
 */
import type { Dec } from '../money/decimal.ts';
import type { StrategyOrderStatus } from './types.ts';
import type { VenueOrderStatus } from './venue-messages.ts';

export const ORDER_STATES = [
  'PENDING_NEW',
  'NEW',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELED',
  'PARTIALLY_CANCELED',
  'EXPIRED',
  'REJECTED',
  'PENDING_CANCEL',
  'DENIED',
  'UNKNOWN',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const TERMINAL_STATES: ReadonlySet<OrderState> = new Set<OrderState>(['FILLED', 'CANCELED', 'PARTIALLY_CANCELED', 'EXPIRED', 'REJECTED', 'DENIED']);
export const isTerminal = (s: OrderState): boolean => TERMINAL_STATES.has(s);

export interface OrderProgress {
  readonly status: OrderState;
  /** While PENDING_CANCEL: the status to return to if the cancel is rejected. */
  readonly resume?: OrderState | undefined;
  readonly executedQty: Dec;
}

export type OrderTrigger =
  /** An acknowledgement or update from the venue (an execution report, with or without a fill). */
  | { readonly kind: 'venue'; readonly status: VenueOrderStatus; readonly executedQty: Dec }
  | { readonly kind: 'rejected' }
  | { readonly kind: 'cancelRequested' }
  | { readonly kind: 'cancelRejected' }
  /** A write whose outcome is not known: the order's placement (the default) or its cancel. */
  | { readonly kind: 'unknownOutcome'; readonly command?: 'place' | 'cancel' | undefined };

export type Reduction =
  | { readonly kind: 'applied'; readonly next: OrderProgress }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'illegal'; readonly from: OrderState; readonly to: string; readonly reason: string };

const ENDS: readonly OrderState[] = ['FILLED', 'CANCELED', 'PARTIALLY_CANCELED', 'EXPIRED'];

/** Venue statuses reachable from each state (PENDING_CANCEL and the local triggers are handled apart). */
const VENUE_NEXT: Readonly<Record<OrderState, readonly OrderState[]>> = {
  PENDING_NEW: ['NEW', 'PARTIALLY_FILLED', ...ENDS],
  UNKNOWN: ['NEW', 'PARTIALLY_FILLED', ...ENDS],
  NEW: ['NEW', 'PARTIALLY_FILLED', ...ENDS],
  PARTIALLY_FILLED: ['PARTIALLY_FILLED', ...ENDS],
  PENDING_CANCEL: ['NEW', 'PARTIALLY_FILLED', ...ENDS],
  FILLED: [],
  CANCELED: [],
  PARTIALLY_CANCELED: [],
  EXPIRED: [],
  REJECTED: [],
  DENIED: [],
};

const illegal = (from: OrderState, to: string, reason: string): Reduction => ({ kind: 'illegal', from, to, reason });

/** `a < b`, without decimal.js's copy of `b` when b is zero (the first execution of every order). */
const below = (a: Dec, b: Dec): boolean => (b.isZero() ? a.isNegative() && !a.isZero() : a.lt(b));

/** reduceOrder of a venue trigger { status, executedQty }, without the trigger object (the order manager's hot path). */
export function reduceVenue(cur: OrderProgress, status: VenueOrderStatus, executed: Dec): Reduction {
  const from = cur.status;
  // Identity first: the same Decimal is neither less nor more (decimal.js copies its argument to compare).
  if (executed !== cur.executedQty && below(executed, cur.executedQty)) {
    return illegal(from, status, `executed quantity went back from ${cur.executedQty.toFixed()} to ${executed.toFixed()}`);
  }
  if (isTerminal(from)) {
    return from === status && executed.eq(cur.executedQty) ? { kind: 'unchanged' } : illegal(from, status, `${from} is final`);
  }
  // A pending cancel that has not been answered: progress is recorded, the cancel stays pending.
  const base = from === 'PENDING_CANCEL' ? (cur.resume ?? 'NEW') : from;
  if (!VENUE_NEXT[base].includes(status)) {
    return illegal(from, status, `${base} cannot become ${status}`);
  }
  if (status === 'NEW' && !executed.isZero() && executed.isPositive()) return illegal(from, status, `NEW with executed quantity ${executed.toFixed()}`);
  if (from === 'PENDING_CANCEL' && (status === 'NEW' || status === 'PARTIALLY_FILLED')) {
    if (cur.resume === status && executed.eq(cur.executedQty)) return { kind: 'unchanged' };
    return { kind: 'applied', next: { status: 'PENDING_CANCEL', resume: status, executedQty: executed } };
  }
  if (status === from && executed.eq(cur.executedQty)) return { kind: 'unchanged' };
  return { kind: 'applied', next: { status, executedQty: executed } };
}

export function reduceOrder(cur: OrderProgress, trigger: OrderTrigger): Reduction {
  const from = cur.status;
  switch (trigger.kind) {
    case 'venue':
      return reduceVenue(cur, trigger.status, trigger.executedQty);
    case 'rejected':
      if (from === 'PENDING_NEW' || from === 'UNKNOWN' || (from === 'PENDING_CANCEL' && (cur.resume === 'PENDING_NEW' || cur.resume === 'UNKNOWN'))) {
        return { kind: 'applied', next: { status: 'REJECTED', executedQty: cur.executedQty } };
      }
      return from === 'REJECTED' ? { kind: 'unchanged' } : illegal(from, 'REJECTED', `an order already ${from} cannot be rejected`);
    case 'cancelRequested':
      if (from === 'NEW' || from === 'PARTIALLY_FILLED' || from === 'PENDING_NEW' || from === 'UNKNOWN') {
        return { kind: 'applied', next: { status: 'PENDING_CANCEL', resume: from, executedQty: cur.executedQty } };
      }
      return illegal(from, 'PENDING_CANCEL', from === 'PENDING_CANCEL' ? 'a cancel is already pending' : `${from} is final`);
    case 'cancelRejected':
      if (from === 'PENDING_CANCEL') return { kind: 'applied', next: { status: cur.resume ?? 'NEW', executedQty: cur.executedQty } };
      // The order ended (filled, expired) before the cancel reached it: nothing to undo.
      return isTerminal(from) ? { kind: 'unchanged' } : illegal(from, 'cancelRejected', 'no cancel was pending');
    case 'unknownOutcome':
      if (trigger.command === 'cancel') {
        if (from === 'PENDING_CANCEL') return { kind: 'applied', next: { status: cur.resume ?? 'NEW', executedQty: cur.executedQty } };
        // The order ended (filled, cancelled) before the cancel's answer was lost: nothing to undo.
        return isTerminal(from) ? { kind: 'unchanged' } : illegal(from, 'cancel outcome unknown', 'no cancel was pending');
      }
      if (from === 'PENDING_NEW') return { kind: 'applied', next: { status: 'UNKNOWN', executedQty: cur.executedQty } };
      return from === 'PENDING_CANCEL' || from === 'UNKNOWN' ? { kind: 'unchanged' } : illegal(from, 'UNKNOWN', `${from} was already acknowledged`);
  }
}

/**
 * What the strategy is told: a pending cancel shows the status it is cancelling from; UNKNOWN (a
 * place whose outcome is not known) is shown as it is, so a strategy can tell "sent, waiting" from
 * "may exist, being looked up" (issue 20: the strategy sees UNKNOWN, then the real state).
 */
export function visibleStatus(p: Pick<OrderProgress, 'status' | 'resume'>): StrategyOrderStatus {
  const s = p.status === 'PENDING_CANCEL' ? (p.resume ?? 'NEW') : p.status;
  return s === 'PENDING_CANCEL' ? 'PENDING_NEW' : s;
}
