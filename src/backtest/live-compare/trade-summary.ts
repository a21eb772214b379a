/**
 * A trade's fills as one execution: total quantity, volume-weighted price, first and last fill
 * time, commissions per asset and the effective fee rate, exact (decimal.js), so that two trades
 * of the same order compare the way the venue would report them (issue 21 deliverable 6: "fill
 * time, fill price").
 */
import { D, type Dec } from '../../core/money/decimal.ts';
import type { Trade } from './types.ts';

export interface TradeSummary {
  readonly qty: Dec;
  readonly quoteQty: Dec;
  /** quoteQty / qty; undefined without fills. */
  readonly price: Dec | undefined;
  readonly firstTime: number | undefined;
  readonly lastTime: number | undefined;
  /** Commission per asset, assets in the order first charged. */
  readonly commission: ReadonlyMap<string, Dec>;
  /** Every fill maker, every fill taker, or both kinds. */
  readonly role: 'maker' | 'taker' | 'mixed' | undefined;
  /**
   * The commission as a share of what it was charged on: base for a commission in the base asset
   * (what a BUY receives), quote otherwise; undefined without fills or with several assets.
   */
  readonly feeRate: Dec | undefined;
}

const ZERO = new D(0);

export function summarize(trade: Trade, baseAsset?: string): TradeSummary {
  let qty = ZERO;
  let quoteQty = ZERO;
  const commission = new Map<string, Dec>();
  let makers = 0;
  for (const f of trade.fills) {
    qty = qty.plus(f.qty);
    quoteQty = quoteQty.plus(f.quoteQty);
    commission.set(f.commissionAsset, (commission.get(f.commissionAsset) ?? ZERO).plus(f.commission));
    if (f.isMaker) makers++;
  }
  const n = trade.fills.length;
  const role = n === 0 ? undefined : makers === n ? 'maker' : makers === 0 ? 'taker' : 'mixed';
  let feeRate: Dec | undefined;
  if (commission.size === 1 && qty.gt(0)) {
    const [asset, amount] = [...commission][0] as [string, Dec];
    const base = baseAsset === undefined ? trade.side === 'BUY' : asset === baseAsset;
    const on = base ? qty : quoteQty;
    feeRate = on.gt(0) ? amount.div(on) : undefined;
  }
  return {
    qty,
    quoteQty,
    price: qty.gt(0) ? quoteQty.div(qty) : undefined,
    firstTime: trade.fills[0]?.time,
    lastTime: trade.fills[n - 1]?.time,
    commission,
    role,
    feeRate,
  };
}

/** Whether the trade filled at all. */
export const filled = (t: Trade | undefined): boolean => t !== undefined && t.fills.length > 0;

/** `a - b` and the same in basis points of `b`, for a detail line: `+150 (+0.50 bps)`. */
export function deltaText(a: Dec, b: Dec): string {
  const d = a.minus(b);
  const sign = d.gt(0) ? '+' : '';
  const bps = b.isZero() ? '' : ` (${sign}${d.div(b).times(10_000).toFixed(2)} bps)`;
  return `${sign}${d.toFixed()}${bps}`;
}

/** A price for display: at most 12 significant digits past the point, trailing zeros dropped. */
export function priceText(p: Dec | undefined): string {
  if (p === undefined) return '-';
  return p.toDecimalPlaces(Math.max(0, 12 - p.abs().floor().toFixed().length), D.ROUND_HALF_UP).toFixed();
}
