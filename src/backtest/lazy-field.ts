/**
 * A field of a result object that is built the first time it is read: an enumerable accessor in
 * the field's key position that, on first read (or assignment), becomes a plain writable data
 * property in the same place. JSON.stringify, spreads, Object.keys and structured clones see
 * exactly the plain object; readers that need only numbers take the columns or records the field
 * is built from (equity-columns.ts, round-trips.ts) and the objects are never made.
 */
export function defineLazyField<T extends object, V>(target: T, key: string, build: () => V): void {
  const settle = (value: V): V => {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => settle(build()),
    set: (value: V) => void settle(value),
  });
}

/** Whether `key` of `target` is still the unbuilt accessor `defineLazyField` put there (not replaced). */
export function isLazyField(target: object, key: string): boolean {
  const d = Object.getOwnPropertyDescriptor(target, key);
  return d !== undefined && d.get !== undefined;
}
