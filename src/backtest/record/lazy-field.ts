/**
 * A field of a result object that is built the first time it is read: an enumerable accessor in
 * the field's key position that, on first read (or assignment), becomes a plain writable data
 * property in the same place. JSON.stringify, spreads, Object.keys and structured clones see
 * exactly the plain object. The field is built from a `source` (columns, records) that readers
 * needing only numbers take through `lazySource` while the field is unbuilt (computeMetrics:
 * equity-columns.ts, run-trades.ts, recorder.ts), so the objects are never made.
 */
const sources = new WeakMap<object, Map<string, unknown>>();

export function defineLazyField<S, V>(target: object, key: string, source: S, build: (source: S) => V): void {
  const settle = (value: V): V => {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
    sources.get(target)?.delete(key);
    return value;
  };
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => settle(build(source)),
    set: (value: V) => void settle(value),
  });
  let byKey = sources.get(target);
  if (byKey === undefined) sources.set(target, (byKey = new Map()));
  byKey.set(key, source);
}

/** Whether `key` of `target` is still the unbuilt accessor `defineLazyField` put there (not replaced). */
export function isLazyField(target: object, key: string): boolean {
  const d = Object.getOwnPropertyDescriptor(target, key);
  return d !== undefined && d.get !== undefined;
}

/** The source `key` of `target` will be built from, while it is unbuilt (not read, not replaced). */
export function lazySource<S>(target: object, key: string): S | undefined {
  return isLazyField(target, key) ? (sources.get(target)?.get(key) as S | undefined) : undefined;
}
