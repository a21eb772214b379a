/**
 * Issue 20 deliverable 5: "While the user stream is not LIVE, new orders are denied with a reason
 * the strategy sees (for example STREAM_NOT_LIVE); cancels still go out." Without the stream the
 * process cannot see its fills as they happen, so it must not add exposure it cannot follow; a
 * cancel only ever reduces it.
 *
 * The denial is a `rejected` venue event (never sent, so no venue code: 0), which the order manager
 * turns into a REJECTED order update whose reason reads `STREAM_NOT_LIVE: ... (0)`: the strategy
 * tells it from a venue refusal by the prefix.
 */
import type { StreamHealth } from '../../exchange/ws/stream-health.ts';
import type { PlaceCommand, VenueRejectedEvent } from '../../ports/venue.ts';

export const STREAM_NOT_LIVE = 'STREAM_NOT_LIVE';
/** Not a venue code: the order never left. */
export const STREAM_NOT_LIVE_CODE = 0;

export function streamNotLive(cmd: PlaceCommand, health: StreamHealth, time: number): VenueRejectedEvent {
  return {
    kind: 'rejected',
    symbol: cmd.symbol,
    clientOrderId: cmd.clientOrderId,
    code: STREAM_NOT_LIVE_CODE,
    reason: `${STREAM_NOT_LIVE}: the user data stream is ${health.state} (${health.reason}); new orders wait until it is LIVE again`,
    time,
  };
}
