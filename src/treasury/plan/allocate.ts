/**
 * One account's allocation (issue 23 deliverable 2): given what it holds and the equity it should
 * end with, the amount of each asset after rebalancing. Assets outside their band go to their
 * target (the middle of a weight band, else the nearest edge: a rebalance that stops at the edge
 * is undone by the next tick of noise); assets inside stay; the account's `cash` asset takes up the
 * difference. When that pushes cash out of its own band, the other banded assets give (or take)
 * first down to their targets, then to their band edges. Conversions are value-preserving at the
 * valuation prices, so everything here is in value = amount * price. Pure, exact.
 */
import { D, type Dec } from '../../core/money/decimal.ts';
import type { AssetBand } from '../policy/schema.ts';
import { INF, rangeOf, type Range } from './bands.ts';

export interface Slot {
  asset: string;
  price: Dec;
  /** What the account holds (may be below zero on the master: money promised to a sub-account). */
  cur: Dec;
  locked: Dec;
  /** `band`: listed; `cash`: absorbs; `fixed`: left as is (unlisted, or frozen). */
  kind: 'band' | 'cash' | 'fixed';
  band?: AssetBand;
}

export interface Allocation {
  /** Amount of each asset after. */
  amounts: Map<string, Dec>;
  issues: { asset: string; reason: string }[];
}

export function rangeAt(s: Slot, equity: Dec): Range {
  if (s.kind === 'fixed') {
    const v = D.max(s.cur, 0);
    return { lo: v, hi: v, target: undefined };
  }
  if (s.band !== undefined) return rangeOf(s.band, equity, s.price, s.locked);
  return { lo: s.locked, hi: INF, target: undefined };
}

/** Sum of the slots' lower (or upper) bounds in value at `equity`. */
export function boundSum(slots: readonly Slot[], equity: Dec, side: 'lo' | 'hi'): Dec {
  let sum = new D(0);
  for (const s of slots) {
    const r = rangeAt(s, equity);
    const v = r[side];
    if (!v.isFinite()) return INF;
    sum = sum.plus(v.times(s.price));
  }
  return sum;
}

/**
 * The equity an account should end with: its own, unless its lower bounds need more (and it is
 * fed) or its upper bounds allow less (and it feeds). Bounds that scale with equity make it a
 * fixed point; iterated (monotone, converges while the weights' floors sum under 100 %).
 */
export function equityTarget(slots: readonly Slot[], equity: Dec, fed: boolean, feeds: boolean): Dec {
  let v = equity;
  if (fed && boundSum(slots, v, 'lo').gt(v)) {
    for (let i = 0; i < 500; i++) {
      const next = boundSum(slots, v, 'lo');
      if (next.minus(v).abs().lte(v.times('1e-15'))) return next;
      v = next;
    }
    return v;
  }
  if (feeds) {
    const hi = boundSum(slots, v, 'hi');
    if (hi.isFinite() && hi.lt(v)) {
      for (let i = 0; i < 500; i++) {
        const next = boundSum(slots, v, 'hi');
        if (next.minus(v).abs().lte(v.times('1e-15'))) return next;
        v = next;
      }
    }
  }
  return v;
}

const inside = (x: Dec, r: Range) => x.gte(r.lo) && x.lte(r.hi);
const clamp = (x: Dec, r: Range) => D.min(D.max(x, r.lo), r.hi);

export function allocate(slots: readonly Slot[], equity: Dec, cashAsset: string): Allocation {
  const issues: Allocation['issues'] = [];
  const amounts = new Map<string, Dec>();
  const ranges = new Map<string, Range>();
  let othersValue = new D(0);
  const cash = slots.find((s) => s.asset === cashAsset);
  for (const s of slots) {
    const r = rangeAt(s, equity);
    ranges.set(s.asset, r);
    if (s === cash) continue;
    let f = s.kind === 'fixed' ? r.lo : s.cur;
    if (s.kind === 'band') {
      if (r.lo.gt(r.hi)) {
        issues.push({ asset: s.asset, reason: `its band cannot hold at this equity: needs at least ${r.lo.toSignificantDigits(12).toFixed()} and at most ${r.hi.toSignificantDigits(12).toFixed()}` });
      } else if (!inside(s.cur, r)) {
        f = clamp(r.target ?? (s.cur.lt(r.lo) ? r.lo : r.hi), r);
      }
    }
    amounts.set(s.asset, f);
    othersValue = othersValue.plus(f.times(s.price));
  }
  if (cash === undefined) return { amounts, issues };
  const rc = ranges.get(cash.asset) as Range;
  let fc = equity.minus(othersValue).div(cash.price);
  if (!inside(fc, rc) && !rc.lo.gt(rc.hi)) {
    const edge = fc.lt(rc.lo) ? rc.lo : rc.hi;
    const aim = clamp(rc.target ?? edge, rc);
    const sign = fc.lt(rc.lo) ? 1 : -1; // +1: cash needs value from the others; -1: cash gives value to them.
    const need = edge.minus(fc).abs().times(cash.price);
    const want = aim.minus(fc).abs().times(cash.price);
    let got = new D(0);
    const banded = slots.filter((s) => s.kind === 'band' && s !== cash).sort((a, b) => a.asset.localeCompare(b.asset));
    // Stage 1: toward the others' weight targets, up to what cash wants; stage 2: to their band edges, up to what it needs.
    for (const stage of [1, 2] as const) {
      const goal = stage === 1 ? want : need;
      for (const s of banded) {
        if (got.gte(goal)) break;
        const r = ranges.get(s.asset) as Range;
        if (r.lo.gt(r.hi)) continue;
        const f = amounts.get(s.asset) as Dec;
        const stop = stage === 1 ? (r.target === undefined ? undefined : clamp(r.target, r)) : sign > 0 ? r.lo : r.hi;
        if (stop === undefined) continue;
        const room = sign > 0 ? f.minus(stop) : stop.minus(f);
        if (!room.gt(0)) continue;
        const roomValue = room.isFinite() ? room.times(s.price) : INF;
        const take = D.min(roomValue, goal.minus(got));
        amounts.set(s.asset, f.minus(take.div(s.price).times(sign)));
        got = got.plus(take);
      }
    }
    fc = fc.plus(got.div(cash.price).times(sign));
    if (got.lt(need)) {
      const short = need.minus(got);
      issues.push({
        asset: cash.asset,
        reason: sign > 0 ? `needs ${short.div(cash.price).toSignificantDigits(12).toFixed()} more ${cash.asset} than the account can free inside its other bands` : `${short.div(cash.price).toSignificantDigits(12).toFixed()} ${cash.asset} above its band that no other band can take`,
      });
    }
  }
  amounts.set(cash.asset, fc);
  return { amounts, issues };
}
