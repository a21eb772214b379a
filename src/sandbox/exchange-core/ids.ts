/**
 * Ids as the venue issues them: integers above 2^53 (notes 5.1), kept as decimal strings.
 * Seeded from the start time so ids stay unique across restarts of a persisted sandbox.
 */

/** The first id of a sequence seeded at `startTimeMs`: ms * 10^6 puts today's ids near 1.8e18, beyond 2^53 like the real service's. */
export function firstId(startTimeMs: number, salt: bigint): bigint {
  return BigInt(Math.floor(startTimeMs)) * 1_000_000n + salt;
}

/** firstId, firstId + 1, ... as text (deposits, withdrawals, transfers, invoices; the engine counts its own, id-sequence.ts). */
export function idSequence(startTimeMs: number, salt: bigint): () => string {
  let next = firstId(startTimeMs, salt);
  return () => (next++).toString();
}
