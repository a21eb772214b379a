/**
 * One kline expanded into a plausible intra-bar price path (issue "Sandbox exchange", deliverable
 * 6): open, then the two extremes, then close, with interpolated points between them.
 *
 * The extremes' order is seeded: usually the one against the bar's direction comes first (a rising
 * bar dips to its low, then rallies to its high: O-L-H-C; a falling bar O-H-L-C), sometimes the
 * other way, so replays are not all alike yet the same seed gives the same path. The open, high,
 * low and close are always points of the path, so the trades made at them rebuild the bar's OHLC
 * exactly; the points between are spread over the legs by length, with a little seeded noise,
 * never outside [low, high]. The bar's volume is split over the points with seeded weights.
 * Prices are integer ticks (MarketRules.units). Pure.
 */
import type { Prng } from '../../core/synthetic/index.ts';

export interface UnitBar {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

export interface BarPath {
  /** `steps` prices in ticks, first the open, last the close. */
  readonly prices: number[];
  /** `steps` weights summing to 1: each point's share of the bar's volume. */
  readonly weights: number[];
}

/** Probability that the extreme against the bar's direction comes first. */
const USUAL_ORDER = 0.75;

export function expandBar(bar: UnitBar, steps: number, rng: Prng): BarPath {
  if (!Number.isInteger(steps) || steps < 4) throw new RangeError(`steps must be an integer >= 4, got ${steps}`);
  const high = Math.max(bar.high, bar.open, bar.close);
  const low = Math.min(bar.low, bar.open, bar.close);
  const lowFirstUsual = bar.close >= bar.open;
  const lowFirst = rng.next() < USUAL_ORDER ? lowFirstUsual : !lowFirstUsual;
  const anchors = lowFirst ? [bar.open, low, high, bar.close] : [bar.open, high, low, bar.close];
  const legs = [0, 1, 2].map((i) => Math.abs(anchors[i + 1]! - anchors[i]!));
  const inner = spread(steps - 4, legs);
  const prices: number[] = [anchors[0]!];
  for (let leg = 0; leg < 3; leg++) {
    const from = anchors[leg]!;
    const to = anchors[leg + 1]!;
    const n = inner[leg]!;
    for (let j = 1; j <= n; j++) {
      const straight = from + ((to - from) * j) / (n + 1);
      const noise = rng.normal() * 0.25 * (Math.abs(to - from) / (n + 1));
      prices.push(Math.min(high, Math.max(low, Math.round(straight + noise))));
    }
    prices.push(to);
  }
  const raw = prices.map(() => 0.5 + rng.next());
  const total = raw.reduce((s, w) => s + w, 0);
  return { prices, weights: raw.map((w) => w / total) };
}

/** `count` points over the legs, proportionally to their lengths (largest remainder; even when all are 0). */
function spread(count: number, legs: readonly number[]): number[] {
  const total = legs.reduce((s, l) => s + l, 0);
  const share = legs.map((l) => (total === 0 ? count / legs.length : (count * l) / total));
  const out = share.map(Math.floor);
  let left = count - out.reduce((s, n) => s + n, 0);
  const order = share.map((s, i) => [s - Math.floor(s), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}
