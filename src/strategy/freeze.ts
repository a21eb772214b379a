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

/**
 * A frozen copy of `value` (what a strategy hands the host, a log line's data): arrays and plain
 * objects are copied, all the way down, and the copies frozen; anything else (a Decimal, a Date, a
 * class instance) is kept as it is. The strategy's own objects are never frozen: `ctx.log('x',
 * { state: ctx.state })` must not make its state read-only (its next write would throw and stop it).
 */
export function frozenCopy<T>(value: T, seen = new Map<object, unknown>()): T {
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done as T;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value as unknown[]) out.push(frozenCopy(item, seen));
    return Object.freeze(out) as T;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<PropertyKey, unknown> = {};
  seen.set(value, out);
  for (const key of Reflect.ownKeys(value)) out[key] = frozenCopy((value as Record<PropertyKey, unknown>)[key], seen);
  return Object.freeze(out) as T;
}
