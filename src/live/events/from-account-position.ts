/**
 * The user stream's balance payloads (protocol notes 4.1):
 * - outboundAccountPosition -> one `balance` event per asset (free and locked after the change),
 *   timed by the account's last update `u`, which the seen ledger orders balances by and which
 *   account information's `updateTime` is comparable with;
 * - balanceUpdate (a deposit, withdrawal or transfer) is not a venue event: the order manager
 *   learns the new balance from the outboundAccountPosition that follows it. It is handed back
 *   apart, for the journal and the treasury.
 *
 * `fromUserStreamEvent` dispatches a decoded user stream event to its mapping.
 */
import type { VenueBalanceEvent, VenueEvent } from '../../ports/venue.ts';
import type { AccountPosition, BalanceUpdate, UserStreamEvent } from '../../exchange/streams/user-payload-types.ts';
import { fromExecutionReport } from './from-execution-report.ts';

export function fromAccountPosition(p: AccountPosition): VenueBalanceEvent[] {
  return p.balances.map((b) => ({ kind: 'balance', asset: b.asset, free: b.free, locked: b.locked, time: p.lastUpdateTime }));
}

export interface UserStreamMapping {
  readonly events: VenueEvent[];
  /** A non-trading balance change, for the journal and the treasury (not an order manager event). */
  readonly balanceUpdate?: BalanceUpdate | undefined;
}

export function fromUserStreamEvent(e: UserStreamEvent): UserStreamMapping {
  switch (e.eventType) {
    case 'executionReport':
      return { events: fromExecutionReport(e) };
    case 'outboundAccountPosition':
      return { events: fromAccountPosition(e) };
    case 'balanceUpdate':
      return { events: [], balanceUpdate: e };
  }
}
