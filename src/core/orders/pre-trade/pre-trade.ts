/**
 * Pre-trade checks (design rule 6: filter failures are prevented, not handled): before an order
 * leaves, run EVERY exchangeInfo filter and the spec 7.4 order rules through core/market's
 * `checkOrder` (symbol trading state, order type enabled, price * quantity > 0, the filters with
 * open-order counts for MAX_NUM_ORDERS / MAX_NUM_ALGO_ORDERS), then the funds the order needs
 * against what is available (free minus what pending orders reserve, reserve.ts), and, with
 * per-strategy capital (capital.ts), against what the strategy itself may commit. The answer is
 * Approved (with the reserve) or Denied with every violation found, each with the venue's text
 * and the numbers: the strategy gets them as the reasons of a DENIED order update.
 *
 * Checks the market context cannot feed (PERCENT_PRICE without an average price...) are skipped
 * by the filter engine; `requireComplete` turns a skipped check into a denial instead.
 *
 * The order manager asks quick-pre-trade.ts first, a fast path that approves the common orders
 * exactly as this check would (property-tested against it); this check answers everything else.
 */
import { checkOrder } from '../../market/filter-engine.ts';
import type { Instrument } from '../../market/instrument.ts';
import { ENGINE_MESSAGE } from '../../market/messages.ts';
import type { MarketContext, OrderCheckInput } from '../../market/types.ts';
import type { Dec } from '../../money/decimal.ts';
import { toWire } from '../../money/decimal.ts';
import { parsedDecimal } from '../decimal-cache.ts';
import { reserveOf } from './reserve.ts';
import type { Reserve } from './reserve.ts';
import type { OrderFields } from '../types.ts';

export interface PreTradeViolation {
  /** symbol: unknown symbol; rule: spec 7.4 order rule; filter: spec 2.3 filter; funds: balance; capital: the strategy's own funds (capital.ts); incomplete: a skipped check under requireComplete. */
  readonly check: 'symbol' | 'rule' | 'filter' | 'funds' | 'capital' | 'incomplete';
  /** The filterType, rule name, or asset. */
  readonly code: string;
  /** The venue's text where there is one (spec 7.4 / 7.5). */
  readonly message: string;
  readonly detail: string;
}

export type Approved = { readonly ok: true; readonly reserve: Reserve };
export type Denied = { readonly ok: false; readonly violations: readonly PreTradeViolation[] };
export type PreTradeResult = Approved | Denied;

export interface PreTradeContext {
  readonly instrument: Instrument | undefined;
  /** Last price, open-order counts (this order not included), reference averages. */
  readonly market: MarketContext;
  /** Funds of `asset` free and not claimed by pending orders. */
  available(asset: string): Dec;
  /** The strategy's own funds of `asset` when per-strategy capital is on (capital.ts); undefined: the account alone limits it. */
  capital?(asset: string): CapitalLimit | undefined;
  readonly requireComplete?: boolean | undefined;
}

/** What a strategy may still commit of one asset under per-strategy capital. */
export interface CapitalLimit {
  readonly strategy: string;
  readonly available: Dec;
  /** True: its own ledger; false: a strategy without capital of its own, limited to what no ledger holds. */
  readonly own: boolean;
}

export const CAPITAL_MESSAGE = 'Strategy capital is insufficient for requested action.';

/** Intent amounts arrive validated (the runner's intent schema): parse them once, without a second check. */
const opt = (v: string | undefined): Dec | undefined => (v === undefined ? undefined : parsedDecimal(v));

/**
 * A violation as one line for a log or an order update's reason: the venue's sentence (spec 7.4,
 * ending in a period) without its period, then the detail after a colon.
 */
export const violationText = (v: PreTradeViolation): string => `${v.message.replace(/\.$/, '')}: ${v.detail}`;

export function preTradeCheck(symbol: string, order: OrderFields, ctx: PreTradeContext): PreTradeResult {
  const inst = ctx.instrument;
  if (!inst) {
    return { ok: false, violations: [{ check: 'symbol', code: 'unknown-symbol', message: 'Invalid symbol.', detail: `no exchange rules known for ${symbol}` }] };
  }
  const input: OrderCheckInput = {
    symbol,
    side: order.side,
    type: order.type,
    price: opt(order.price),
    quantity: opt(order.quantity),
    quoteOrderQty: opt(order.quoteOrderQty),
    stopPrice: opt(order.stopPrice),
  };
  const result = checkOrder(inst, input, ctx.market);
  const out: PreTradeViolation[] = [];
  for (const r of result.rejections) out.push({ check: 'rule', code: r.rule, message: r.message, detail: r.detail });
  for (const v of result.violations) out.push({ check: 'filter', code: v.filterType, message: v.message, detail: v.detail });
  if (ctx.requireComplete) {
    for (const s of result.skipped) out.push({ check: 'incomplete', code: s.filterType, message: `${s.filterType} not checked`, detail: s.why });
    for (const f of result.unknownFilters) out.push({ check: 'incomplete', code: f, message: `${f} not checked`, detail: 'unknown filter type' });
  }
  const reserve = reserveOf(inst, order, ctx.market.lastPrice);
  const available = ctx.available(reserve.asset);
  if (reserve.amount.gt(available)) {
    const est = reserve.estimated ? ' (estimated at the last price)' : '';
    out.push({
      check: 'funds',
      code: reserve.asset,
      message: ENGINE_MESSAGE.insufficientBalance,
      detail: `needs ${toWire(reserve.amount)} ${reserve.asset}${est}, ${toWire(available)} available`,
    });
  }
  const cap = ctx.capital?.(reserve.asset);
  if (cap !== undefined && reserve.amount.gt(cap.available)) {
    const est = reserve.estimated ? ' (estimated at the last price)' : '';
    const has = cap.own ? 'of its own capital free' : 'free that no strategy with capital of its own holds';
    out.push({
      check: 'capital',
      code: reserve.asset,
      message: CAPITAL_MESSAGE,
      detail: `strategy '${cap.strategy}' needs ${toWire(reserve.amount)} ${reserve.asset}${est}, has ${toWire(cap.available)} ${reserve.asset} ${has}`,
    });
  }
  return out.length === 0 ? { ok: true, reserve } : { ok: false, violations: out };
}
