/**
 * Ids as the venue issues them: integers above 2^53 (notes 5.1), kept as decimal strings.
 * Seeded from the start time so ids stay unique across restarts of a persisted sandbox; a store
 * whose records were restored (persistence/persistent-parts.ts) also moves its sequence past
 * them (`skipPast`), since a configured fixed clock start would otherwise issue them again.
 */

/** The first id of a sequence seeded at `startTimeMs`: ms * 10^6 puts today's ids near 1.8e18, beyond 2^53 like the real service's. */
export function firstId(startTimeMs: number, salt: bigint): bigint {
  return BigInt(Math.floor(startTimeMs)) * 1_000_000n + salt;
}

/** Issues the next id as text; `skipPast` / `peek` serve persistence. */
export interface IdSource {
  (): string;
  /** Later ids are above the number `id` ends with (`d_769800519366885376`: 769800519366885376). */
  skipPast(id: string): void;
  /** The id the next call returns. */
  peek(): string;
}

/** firstId, firstId + 1, ... as text (deposits, withdrawals, transfers, invoices; the engine counts its own, id-sequence.ts). */
export function idSequence(startTimeMs: number, salt: bigint): IdSource {
  let next = firstId(startTimeMs, salt);
  const source = () => (next++).toString();
  source.skipPast = (id: string) => {
    const digits = /(\d+)$/.exec(id)?.[1];
    if (digits !== undefined && BigInt(digits) >= next) next = BigInt(digits) + 1n;
  };
  source.peek = () => next.toString();
  return source;
}
