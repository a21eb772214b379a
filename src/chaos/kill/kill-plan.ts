/**
 * Where each kill of a `--kill N` run lands (issue 22 deliverable 3: "at N random points of the
 * order flow"): a point of live/kill-points.ts and which pass of it, drawn from the seed. The start-up
 * reconciliation runs once per process, so its kill is always its first pass; a resync runs at the
 * stream's first open and after each drop, so the 1st or 2nd; the order-flow points the 1st to 4th.
 */
import { KILL_POINTS, type KillPoint } from '../../live/kill-points.ts';
import { prng } from './prng.ts';

export interface PlannedKill {
  readonly point: KillPoint;
  /** Which pass of the point (from 1). */
  readonly occurrence: number;
}

const MAX_PASS: Record<KillPoint, number> = {
  'journaled-unsent': 4,
  'answered-unjournaled': 4,
  'fill-half-written': 4,
  'mid-resync': 2,
  'mid-reconcile': 1,
  'fill-journaled-untold': 4,
};

export function planKills(seed: string, kills: number, points: readonly KillPoint[] = KILL_POINTS): PlannedKill[] {
  if (!Number.isSafeInteger(kills) || kills < 0) throw new RangeError(`kills: expected an integer >= 0, got ${kills}`);
  const r = prng(`kill:${seed}`);
  return Array.from({ length: kills }, () => {
    const point = r.pick(points);
    return { point, occurrence: 1 + r.int(MAX_PASS[point]) };
  });
}
