/**
 * Spec 3.1 statuses as the venue's messages carry them (free text in REST answers, a union in
 * decoded stream reports), checked into the order manager's VenueOrderStatus, and the forward
 * order of an order's progress that the seen ledger and the resync compare by.
 */
import type { VenueOrderStatus } from '../../ports/venue.ts';
import { VenueMappingError } from './mapping-error.ts';

const STATUSES: ReadonlySet<string> = new Set<VenueOrderStatus>(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'PARTIALLY_CANCELED', 'EXPIRED']);
const FINAL: ReadonlySet<string> = new Set(['FILLED', 'CANCELED', 'PARTIALLY_CANCELED', 'EXPIRED', 'REJECTED']);

/** `text` as a VenueOrderStatus, else a VenueMappingError naming `source.field`. */
export function venueStatus(text: string, source: string, field: string): VenueOrderStatus {
  if (!STATUSES.has(text)) throw new VenueMappingError(source, field, `${JSON.stringify(text)} is not an order status of spec 3.1`);
  return text as VenueOrderStatus;
}

export const isFinalStatus = (status: string): boolean => FINAL.has(status);

/**
 * How far along an order is: sent or unknown 0, NEW 1, PARTIALLY_FILLED 2, any end 3. An event
 * moves an order forward when it ranks higher, or ranks the same (not final) with more executed.
 */
export function statusRank(status: string): number {
  if (status === 'NEW') return 1;
  if (status === 'PARTIALLY_FILLED') return 2;
  return FINAL.has(status) ? 3 : 0;
}
