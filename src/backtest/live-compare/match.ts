/**
 * Pairs a strategy's live trades with the replay's. The replay runs with the live run's id, and
 * client order ids are made from (run id, strategy, tag, per-tag sequence) (core/orders/
 * client-order-id.ts), so while both sides decide alike each live order has its twin under the
 * same id, placed within `toleranceMs` of each other. Once they part (one side skipped an order, the
 * sequence shifts, an id names another decision) the rest are paired by symbol, side and tag,
 * nearest first fill within `toleranceMs`. An order neither side filled is
 * no trade and is left out; one only one side filled is a trade missing on the other (its unfilled
 * twin, when there is one, kept for the explanation).
 */
import { filled } from './trade-summary.ts';
import type { Trade } from './types.ts';

export interface MatchedPair {
  readonly live?: Trade | undefined;
  readonly backtest?: Trade | undefined;
  readonly pairedBy?: 'client-order-id' | 'nearest' | undefined;
}

/** When a trade happened: its first fill, else when it was placed. */
export function tradeTime(t: Trade): number {
  return t.fills[0]?.time ?? t.placedAt ?? Number.MAX_SAFE_INTEGER;
}

const sameShape = (a: Trade, b: Trade): boolean => a.symbol === b.symbol && a.side === b.side;
/** Twins by id are one decision only when placed close together: once the sequences part, an id names another order. */
const placedNear = (a: Trade, b: Trade, toleranceMs: number): boolean => a.placedAt === undefined || b.placedAt === undefined || Math.abs(a.placedAt - b.placedAt) <= toleranceMs;
const key = (t: Trade): string => `${t.symbol}\u0000${t.side}\u0000${t.tag ?? ''}`;

export function matchTrades(live: readonly Trade[], backtest: readonly Trade[], toleranceMs: number): MatchedPair[] {
  const pairs: MatchedPair[] = [];
  const btById = new Map(backtest.map((t) => [t.clientOrderId, t]));
  const usedBt = new Set<Trade>();
  const looseLive: Trade[] = [];
  for (const l of live) {
    const b = btById.get(l.clientOrderId);
    if (b !== undefined && !usedBt.has(b) && sameShape(l, b) && placedNear(l, b, toleranceMs)) {
      usedBt.add(b);
      // Twins both filled: a pair; one filled: a trade missing on the other side, its twin kept.
      if (filled(l) || filled(b)) pairs.push({ live: l, backtest: b, pairedBy: 'client-order-id' });
      continue;
    }
    if (filled(l)) looseLive.push(l);
  }
  const looseBt = backtest.filter((b) => !usedBt.has(b) && filled(b));
  // The loose ones: nearest first fill of the same symbol, side and tag within the tolerance,
  // closest pairs first (a greedy assignment: stable and good enough for trades bars apart).
  const candidates: [number, Trade, Trade][] = [];
  for (const l of looseLive) {
    for (const b of looseBt) {
      if (key(l) !== key(b)) continue;
      const gap = Math.abs(tradeTime(l) - tradeTime(b));
      if (gap <= toleranceMs) candidates.push([gap, l, b]);
    }
  }
  candidates.sort((x, y) => x[0] - y[0] || tradeTime(x[1]) - tradeTime(y[1]));
  const took = new Set<Trade>();
  for (const [, l, b] of candidates) {
    if (took.has(l) || took.has(b)) continue;
    took.add(l).add(b);
    pairs.push({ live: l, backtest: b, pairedBy: 'nearest' });
  }
  for (const l of looseLive) if (!took.has(l)) pairs.push({ live: l });
  for (const b of looseBt) if (!took.has(b)) pairs.push({ backtest: b });
  return pairs.sort((x, y) => pairTime(x) - pairTime(y));
}

/** The earlier of the two sides' times: where the pair sits in the list. */
export function pairTime(p: MatchedPair): number {
  return Math.min(p.live && filled(p.live) ? tradeTime(p.live) : Number.MAX_SAFE_INTEGER, p.backtest && filled(p.backtest) ? tradeTime(p.backtest) : Number.MAX_SAFE_INTEGER);
}
