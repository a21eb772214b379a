/**
 * Where the liquidity agent wants its quotes: `levels` prices a side around the path price, the
 * best bid and ask at least `halfSpread` ticks away from it, then one level every `step` ticks.
 * Levels sit on multiples of `step` (not on offsets from the price), so a move of a tick or two
 * keeps most quotes where they are and only the edges are cancelled and replaced: less churn in
 * the book and in the depth stream, like a real market maker. Prices in ticks. Pure.
 */

export interface LadderSpec {
  readonly levels: number;
  /** Ticks from the path price to the best quote (>= 1). */
  readonly halfSpread: number;
  /** Ticks between levels (>= 1). */
  readonly step: number;
  /** Lowest and highest prices the symbol accepts, in ticks. */
  readonly min: number;
  readonly max: number;
}

export interface Ladder {
  /** Best first (descending). */
  readonly bids: number[];
  /** Best first (ascending). */
  readonly asks: number[];
}

export function ladderAround(center: number, spec: LadderSpec): Ladder {
  const step = Math.max(1, Math.round(spec.step));
  const half = Math.max(1, Math.round(spec.halfSpread));
  const firstAsk = Math.ceil((center + half) / step) * step;
  const firstBid = Math.floor((center - half) / step) * step;
  const bids: number[] = [];
  const asks: number[] = [];
  for (let i = 0; i < spec.levels; i++) {
    const bid = firstBid - i * step;
    const ask = firstAsk + i * step;
    if (bid >= spec.min && bid <= spec.max) bids.push(bid);
    if (ask >= spec.min && ask <= spec.max) asks.push(ask);
  }
  return { bids, asks };
}

/** Half the spread and the level step in ticks, from basis points of the price. */
export function ladderSteps(price: number, tick: number, spreadBps: number, levelStepBps: number): { halfSpread: number; step: number } {
  const bps = (b: number) => (price * b) / 10_000 / tick;
  return { halfSpread: Math.max(1, Math.ceil(bps(spreadBps / 2))), step: Math.max(1, Math.round(bps(levelStepBps))) };
}
