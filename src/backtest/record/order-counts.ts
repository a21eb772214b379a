/**
 * What became of the orders a run sent to the venue (BacktestRun.orders): how many ended filled,
 * canceled, expired or rejected, and how many were still open at the end. A fill ratio a grid or
 * market maker is judged by (NautilusTrader's orders report, in one line); the intents the
 * pre-trade checks refused never reached the venue and are the Denied line's.
 */
import type { OrderRegistry } from '../../core/orders/order-registry.ts';

/** The statuses in the order they are told, and how the summary names them. */
const STATUSES: readonly (readonly [string, string])[] = [
  ['FILLED', 'filled'],
  ['PARTIALLY_CANCELED', 'canceled part filled'],
  ['CANCELED', 'canceled'],
  ['EXPIRED', 'expired'],
  ['REJECTED', 'rejected by the venue'],
  ['PARTIALLY_FILLED', 'open part filled'],
  ['NEW', 'open'],
  ['PENDING_NEW', 'sent, not yet acknowledged'],
  ['PENDING_CANCEL', 'open, cancel sent'],
  ['UNKNOWN', 'outcome unknown'],
];

/** The registry's counts by status, in STATUSES' order (any other status after them): the run's `orders`. */
export function orderCounts(registry: Pick<OrderRegistry, 'statusCounts'>): Record<string, number> {
  const counts = registry.statusCounts();
  const out: Record<string, number> = {};
  for (const [status] of STATUSES) if (counts[status] !== undefined) out[status] = counts[status];
  for (const status of Object.keys(counts).sort()) if (out[status] === undefined) out[status] = counts[status] as number;
  return out;
}

/** The summary's Orders line (after its label): `20 sent to the venue: 12 filled, 6 canceled, 2 open`; undefined when none was sent. */
export function ordersText(counts: Readonly<Record<string, number>> | undefined): string | undefined {
  if (counts === undefined) return undefined;
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  const sent = entries.reduce((sum, [, n]) => sum + n, 0);
  if (sent === 0) return undefined;
  const names = new Map(STATUSES);
  return `${sent} sent to the venue: ${entries.map(([status, n]) => `${n} ${names.get(status) ?? status.toLowerCase()}`).join(', ')}`;
}
