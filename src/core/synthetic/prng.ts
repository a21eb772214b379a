/**
 * Seeded randomness for the synthetic market: mulberry32 (32-bit state, period 2^32, fast and
 * good enough for price paths; not for anything secret). Same seed, same sequence, on every
 * platform: only 32-bit integer arithmetic (Math.imul, >>>) feeds the output. String seeds are
 * hashed with FNV-1a so scenario names can be seeds. Pure: no I/O, no clock, no Math.random.
 */

export type Seed = number | string;

/** A 32-bit unsigned seed from a number (any finite value) or a string. */
export function seedOf(seed: Seed): number {
  if (typeof seed === 'string') {
    let h = 0x811c9dc5;
    for (let i = 0; i < seed.length; i++) {
      h ^= seed.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  }
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be finite, got ${String(seed)}`);
  // Fold the high bits in so seeds above 2^32 are not silently equal to their low 32 bits.
  return (Math.trunc(seed) ^ Math.trunc(seed / 0x1_0000_0000)) >>> 0;
}

export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (Box-Muller, the second value of each pair is kept for the next call). */
  normal(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
}

export function mulberry32(seed: Seed): Prng {
  let state = seedOf(seed);
  let spare: number | undefined;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    normal() {
      if (spare !== undefined) {
        const s = spare;
        spare = undefined;
        return s;
      }
      // 1 - u keeps the log argument in (0, 1].
      const r = Math.sqrt(-2 * Math.log(1 - next()));
      const theta = 2 * Math.PI * next();
      spare = r * Math.sin(theta);
      return r * Math.cos(theta);
    },
    int(min, max) {
      return min + Math.floor(next() * (max - min + 1));
    },
  };
}
