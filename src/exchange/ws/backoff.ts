/**
 * Reconnect delays: exponential back-off with full jitter (design rule 9; AWS "Exponential Backoff
 * and Jitter"): attempt n waits a uniform random time in [0, min(maxMs, baseMs * 2^n)). Full
 * jitter spreads many clients that lost the venue at the same moment, so they do not return in
 * one burst (notes 1: IPs disconnected repeatedly may be banned). The random source is injected
 * so tests replay one sequence.
 */
import { mulberry32 } from '../../core/synthetic/prng.ts';

export interface BackoffSettings {
  /** First ceiling (attempt 0). */
  baseMs: number;
  /** Largest ceiling: no wait is longer. */
  maxMs: number;
}

/** The wait before attempt `attempt` (0-based), given `random` uniform in [0, 1). */
export function fullJitterDelay(attempt: number, settings: BackoffSettings, random: () => number): number {
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** Math.min(attempt, 30));
  const r = random();
  // A random source outside [0, 1) is a bug of the caller's; clamp instead of waiting forever or not at all.
  const u = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0.5;
  return Math.floor(u * ceiling);
}

/** Seeded uniform random in [0, 1) (the synthetic market's mulberry32): for tests and reproducible runs. */
export function seededRandom(seed: number | string): () => number {
  const prng = mulberry32(seed);
  return () => prng.next();
}
