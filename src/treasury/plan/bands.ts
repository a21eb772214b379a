/**
 * An account's bands in amounts (issue 23 deliverable 1 semantics): a weight band is a share of the
 * account's equity in the valuation asset, `min` is kept free (so the locked part comes on top),
 * `max` bounds what is held. `rangeOf` turns them into [lo, hi] amounts at a given equity (the
 * planner's allocation moves equity), `violations` says which hold now. Pure, exact (decimal.js).
 */
import { D, type Dec } from '../../core/money/decimal.ts';
import type { AccountRef } from '../moves.ts';
import type { AssetBand, TreasuryPolicy } from '../policy/schema.ts';
import type { BandIssue, Balances, Holding } from './types.ts';

export const INF = new D(Infinity);
const HUNDRED = new D(100);

export interface Range {
  lo: Dec;
  hi: Dec;
  /** The weight target at this equity, if the band has one. */
  target: Dec | undefined;
}

export function total(h: Holding | undefined): Dec {
  return h === undefined ? new D(0) : new D(h.free).plus(h.locked);
}

/** Equity of one account in the valuation asset: assets without a price are not counted (and named by the caller). */
export function equityOf(holdings: Record<string, Holding> | undefined, prices: Record<string, string>): Dec {
  let v = new D(0);
  for (const [asset, h] of Object.entries(holdings ?? {})) {
    const p = prices[asset];
    if (p !== undefined) v = v.plus(total(h).times(p));
  }
  return v;
}

/** [lo, hi] amounts of `band` at equity `equity`; `locked` can never move, so lo is at least it. */
export function rangeOf(band: AssetBand, equity: Dec, price: Dec, locked: Dec): Range {
  let lo = locked;
  let hi = INF;
  let target: Dec | undefined;
  if (band.target !== undefined && band.band !== undefined && price.gt(0)) {
    const t = new D(band.target);
    const b = new D(band.band);
    lo = D.max(lo, D.max(t.minus(b), 0).div(HUNDRED).times(equity).div(price));
    hi = D.min(hi, D.min(t.plus(b), HUNDRED).div(HUNDRED).times(equity).div(price));
    target = t.div(HUNDRED).times(equity).div(price);
  }
  if (band.min !== undefined) lo = D.max(lo, new D(band.min).plus(locked));
  if (band.max !== undefined) hi = D.min(hi, new D(band.max));
  return { lo, hi, target };
}

/** What a band means, in a person's words. */
export function bandText(band: AssetBand): string {
  const parts: string[] = [];
  if (band.target !== undefined) parts.push(`${band.target} % +/- ${band.band ?? 0}`);
  if (band.min !== undefined) parts.push(`at least ${band.min} free`);
  if (band.max !== undefined) parts.push(`at most ${band.max}`);
  return parts.join(', ');
}

/** Tolerance for "inside": a hair of rounding on a weight (1e-9 of equity) is not a violation. */
const EPS = new D('1e-9');

/** Every account/asset outside its band in `balances` (what the planner must fix; what the tests check after the moves). */
export function violations(policy: TreasuryPolicy, balances: Balances, prices: Record<string, string>): BandIssue[] {
  const out: BandIssue[] = [];
  for (const [account, a] of Object.entries(policy.accounts).sort(([x], [y]) => x.localeCompare(y))) {
    const holdings = balances[account] ?? {};
    const equity = equityOf(holdings, prices);
    for (const [asset, band] of Object.entries(a.assets).sort(([x], [y]) => x.localeCompare(y))) {
      const issue = checkOne(account, asset, band, holdings[asset], equity, prices[asset]);
      if (issue !== undefined) out.push(issue);
    }
  }
  return out;
}

function checkOne(account: AccountRef, asset: string, band: AssetBand, h: Holding | undefined, equity: Dec, price: string | undefined): BandIssue | undefined {
  const free = new D(h?.free ?? 0);
  const amount = total(h);
  if (band.min !== undefined && free.lt(band.min)) return { account, asset, reason: `${free.toFixed()} free, below the min ${band.min}` };
  if (band.max !== undefined && amount.gt(band.max)) return { account, asset, reason: `${amount.toFixed()} held, above the max ${band.max}` };
  if (band.target !== undefined && band.band !== undefined) {
    if (price === undefined) return { account, asset, reason: `no price for ${asset}: its weight cannot be measured` };
    if (equity.isZero()) return amount.isZero() && band.target - band.band <= 0 ? undefined : { account, asset, reason: 'the account holds nothing to weigh' };
    const w = amount.times(price).div(equity).times(HUNDRED);
    const lo = new D(band.target).minus(band.band).minus(EPS);
    const hi = new D(band.target).plus(band.band).plus(EPS);
    if (w.lt(lo) || w.gt(hi)) return { account, asset, reason: `${w.toSignificantDigits(6).toFixed()} % of equity, outside ${band.target} % +/- ${band.band}` };
  }
  return undefined;
}
