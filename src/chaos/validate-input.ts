/**
 * Ids must arrive as strings (ground rule: ids above 2^53 are parsed losslessly and kept as strings;
 * spec 2.4 `orderId` and spec 2.5 `id`/`orderId` are numbers on the wire). A number here would be a
 * rounded id, and a fill keyed by it would silently miss its venue twin, so it is refused by field.
 */
import type { ChaosRunInput } from './input.ts';

function requireId(value: unknown, field: string): void {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new RangeError(`${field} must be an id as a string of digits (ids exceed 2^53), got ${typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value} ${String(value)}`}`);
  }
}

export function validateInput(input: ChaosRunInput): void {
  if (!Number.isFinite(input.start) || !Number.isFinite(input.end) || input.end < input.start) {
    throw new RangeError(`start/end must be finite ms with end >= start, got start ${String(input.start)}, end ${String(input.end)}`);
  }
  input.venue.orders.forEach((o, i) => requireId(o.orderId, `venue.orders[${i}].orderId`));
  input.venue.trades.forEach((t, i) => {
    requireId(t.id, `venue.trades[${i}].id`);
    requireId(t.orderId, `venue.trades[${i}].orderId`);
  });
  input.journal.fills.forEach((f, i) => requireId(f.tradeId, `journal.fills[${i}].tradeId`));
  for (const s of input.strategies) {
    s.fills.forEach((f, i) => {
      requireId(f.orderId, `strategies[${s.strategy}].fills[${i}].orderId`);
      requireId(f.tradeId, `strategies[${s.strategy}].fills[${i}].tradeId`);
    });
  }
}
