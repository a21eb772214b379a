/**
 * Deep freezing of what strategies receive, so a handler cannot change params, bars or
 * snapshots behind the engine's back (ESM code is strict: writing to a frozen object throws, and
 * the runner reports it). Decimal instances are left alone: they are immutable by API already.
 */
import { D } from '../core/money/decimal.ts';

export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || D.isDecimal(value)) return value;
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  return Object.freeze(value);
}
