/**
 * The venue port: commands in, events out. The order manager (core/orders) produces commands and
 * consumes events; behind this port sits the live exchange client, the sandbox over HTTP, or the
 * backtester's simulated venue (src/backtest/run/sim-venue.ts). The message types live in core so
 * the order manager stays pure; they are re-exported here with the port.
 *
 * `send` never throws for a venue refusal: a refused or failed command comes back as an event
 * (`rejected`, `cancelRejected`, `unknownOutcome`). Events are delivered in batches, one per venue
 * operation (an acknowledgement with the balance change it caused, a fill with its status), in
 * the order they happened; the host applies a batch to the order manager before reacting to it.
 * A venue may deliver a command's events later than `send` returns (live: over the user data
 * stream; simulated: at the next price of the market), never before.
 */
import type { VenueCommand, VenueEvent } from '../core/orders/venue-messages.ts';

export type {
  CancelCommand,
  CancelReplaceCommand,
  PlaceCommand,
  VenueBalanceEvent,
  VenueCancelRejectedEvent,
  VenueCommand,
  VenueEvent,
  VenueFillEvent,
  VenueOrderEvent,
  VenueOrderStatus,
  VenueRejectedEvent,
  VenueUnknownOutcomeEvent,
} from '../core/orders/venue-messages.ts';

/** Where a venue delivers its events: one call per batch. */
export type VenueEventSink = (events: readonly VenueEvent[]) => void;

export interface VenuePort {
  /** Register the one consumer of this venue's events (the engine). */
  connect(sink: VenueEventSink): void;
  /** Hand a command to the venue. Its outcome arrives as events. */
  send(command: VenueCommand): void;
}
