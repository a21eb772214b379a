/**
 * Order and trade ids as the venue issues them: integers above 2^53 (notes 5.1), kept as decimal
 * strings. Seeded from the start time so ids stay unique across restarts of a persisted sandbox.
 */
export function idSequence(startTimeMs: number, salt: bigint): () => string {
  // ms * 10^6 puts today's ids near 1.8e18, beyond 2^53 like the real service's.
  let next = BigInt(Math.floor(startTimeMs)) * 1_000_000n + salt;
  return () => (next++).toString();
}
