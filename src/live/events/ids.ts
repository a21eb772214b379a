/**
 * Venue ids as the live adapter compares them (protocol notes 5.1: order and trade ids exceed
 * 2^53 and travel as decimal strings). Compared as BigInt, never as numbers: `Number` would make
 * 1375445991893797391 and 1375445991893797400 equal, and text comparison puts "9" after "10".
 */

/** BigInt of a decimal id; a TypeError naming `field` for anything else (a decoder let it through). */
export function idBig(id: string, field: string): bigint {
  if (!/^\d+$/.test(id)) throw new TypeError(`${field}: ${JSON.stringify(id)} is not a decimal id`);
  return BigInt(id);
}

/** The larger of two decimal ids (undefined counts as none). */
export function maxId(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return BigInt(a) >= BigInt(b) ? a : b;
}

/** Ascending order of decimal ids. */
export function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `id + 1` as text: the `fromId` after the last trade seen (spec 4.5: trades with id >= fromId). */
export function nextId(id: string): string {
  return (BigInt(id) + 1n).toString();
}
