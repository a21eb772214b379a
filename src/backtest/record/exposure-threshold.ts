/**
 * The exposure threshold: the smallest position a run counts as holding. Used by the run of several
 * symbols (its per-symbol exposure) and by the metrics (metrics/metrics-trades.ts exposurePct); it
 * sits here, below both, so the run never imports the metrics.
 */
import type { BacktestRun } from '../types.ts';

/**
 * The smallest position that counts as exposure (the one definition; the metrics header and
 * docs/concepts/metrics.md point here): the symbol's LOT_SIZE minQty, or its stepSize when minQty is 0, from the
 * run's `lot`: the least an order can buy or sell, and (minQty) the least the round trips count as
 * not flat (core/portfolio/round-trips.ts). A base commission leaves dust below it that no order can
 * sell; counting that dust would put a flat strategy at 100% exposure. A hair under the step, so
 * float noise on a position of exactly one step still counts. Without the rule (a run made by hand,
 * one written before runs carried `lot`, a symbol without LOT_SIZE) any non-zero position counts.
 */
export function exposureThreshold(lot: BacktestRun['lot']): number {
  const minQty = Number(lot?.minQty);
  const step = minQty > 0 ? minQty : Number(lot?.stepSize);
  return step > 0 && Number.isFinite(step) ? step * (1 - 1e-9) : Number.MIN_VALUE;
}
