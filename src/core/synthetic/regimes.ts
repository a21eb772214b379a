/**
 * Market regimes for the synthetic generator: each is a per-bar model of the log return,
 * r = drift + meanReversion * (ln anchor - ln price) + volatility * z (z standard normal), where
 * the anchor is the price at the start of the segment. Presets are calibrated on 1-minute bars so
 * a 1000-bar segment shows its character plainly (slowUp ends about +22%, sharpUp about +170%,
 * flat stays within a few percent, crash falls about 30% in 100 bars). Pure data.
 */

export interface RegimeParams {
  /** Mean log return per bar (0.0002 = +0.02% a bar). */
  readonly drift: number;
  /** Standard deviation of the log return per bar. */
  readonly volatility: number;
  /** Pull per bar back toward the segment's opening price (0..1); 0 = a random walk. */
  readonly meanReversion?: number;
  /** Volume multiplier for the segment (1 = the base volume). */
  readonly volumeFactor?: number;
}

export const REGIMES = {
  slowUp: { drift: 0.0002, volatility: 0.001 },
  sharpUp: { drift: 0.001, volatility: 0.002, volumeFactor: 2 },
  flat: { drift: 0, volatility: 0.001, meanReversion: 0.05, volumeFactor: 0.7 },
  slowDown: { drift: -0.0002, volatility: 0.001 },
  sharpDown: { drift: -0.001, volatility: 0.002, volumeFactor: 2 },
  crash: { drift: -0.0036, volatility: 0.004, volumeFactor: 5 },
} as const satisfies Record<string, RegimeParams>;

export type RegimeName = keyof typeof REGIMES;

export const REGIME_NAMES = Object.keys(REGIMES) as readonly RegimeName[];

/** One stretch of bars under one regime. */
export interface Segment {
  readonly regime: RegimeName | RegimeParams;
  readonly bars: number;
}

export function regimeParams(regime: RegimeName | RegimeParams): RegimeParams {
  if (typeof regime !== 'string') return regime;
  const p: RegimeParams | undefined = REGIMES[regime];
  if (!p) throw new RangeError(`unknown regime '${String(regime)}' (known: ${REGIME_NAMES.join(', ')})`);
  return p;
}
