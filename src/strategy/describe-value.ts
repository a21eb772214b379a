/**
 * Short descriptions of bad values for error messages: `got "x"`, `got number 101.5`,
 * `got nothing`. Kept apart so params and intents word their errors the same way.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  if (typeof value === 'boolean') return `boolean ${String(value)}`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') return 'a Promise';
  return 'an object';
}

/** `intents[1].order.price` from a base and a zod-style path. */
export function joinPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out;
}
