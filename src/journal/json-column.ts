/**
 * JSON columns: values go in through `JSON.stringify` and come out through `JSON.parse`. Ids are
 * strings everywhere in Halyard (they exceed 2^53), so the round trip is exact; a stray bigint is
 * written as a decimal string rather than throwing.
 */

export function toJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  // JSON.stringify(undefined) is undefined: store JSON null instead of failing the NOT NULL.
  return text ?? 'null';
}

export function toJsonOrNull(value: unknown): string | null {
  return value === undefined ? null : toJson(value);
}

export function fromJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}

export function fromJsonOrNull(text: string | null): unknown {
  return text === null ? null : fromJson(text);
}
