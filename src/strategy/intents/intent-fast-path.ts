/**
 * The fast path of the intent check (intent-schema.ts): a place intent that is a plain object
 * already in normal form (what the `place()` helper returns with canonical decimal strings or
 * Decimals) is checked structurally, without zod, and normalised to exactly what the zod schema
 * would output (same fields, same key order, frozen). Anything it is not sure about (a bad or
 * unusual value, an unknown key, a non-plain object) answers `undefined` and goes through zod,
 * so every error message still comes from the schema. Spec 4.5 "Mandatory parameters by order
 * type" is the `ORDER_NEEDS` table, shared with the schema.
 */
import { D, toWire } from '../../core/money/decimal.ts';
import type { OrderType } from '../../core/market/types.ts';
import type { PlaceIntent } from './intents.ts';
import { TIME_IN_FORCE } from '../types.ts';

/** Tags become part of client order ids: short and safe. */
export const TAG_PATTERN = /^[A-Za-z0-9_-]{1,20}$/;

export const ORDER_NEEDS: Record<OrderType, { required: readonly string[]; oneOf?: readonly [string, string]; forbidden: readonly string[] }> = {
  LIMIT: { required: ['quantity', 'price'], forbidden: ['quoteOrderQty', 'stopPrice'] },
  LIMIT_MAKER: { required: ['quantity', 'price'], forbidden: ['quoteOrderQty', 'stopPrice', 'timeInForce'] },
  MARKET: { required: [], oneOf: ['quantity', 'quoteOrderQty'], forbidden: ['price', 'stopPrice', 'timeInForce'] },
  STOP_LOSS: { required: ['stopPrice'], oneOf: ['quantity', 'quoteOrderQty'], forbidden: ['price', 'timeInForce'] },
  TAKE_PROFIT: { required: ['stopPrice'], oneOf: ['quantity', 'quoteOrderQty'], forbidden: ['price', 'timeInForce'] },
  STOP_LOSS_LIMIT: { required: ['quantity', 'price', 'stopPrice'], forbidden: ['quoteOrderQty'] },
  TAKE_PROFIT_LIMIT: { required: ['quantity', 'price', 'stopPrice'], forbidden: ['quoteOrderQty'] },
};

/** The fields of a place intent in the schema's output order (its shape: order fields, then kind and symbol). */
const PLACE_KEYS = ['side', 'type', 'quantity', 'quoteOrderQty', 'price', 'stopPrice', 'timeInForce', 'tag', 'kind', 'symbol'] as const;
const KNOWN = new Set<string>(PLACE_KEYS);
/** A decimal string already in toWire form (no sign, no exponent, no leading or trailing zeros): toWire returns it unchanged. */
const CANONICAL = /^(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/** The toWire text of a positive amount, or undefined when zod must look at it. */
function amountText(value: unknown): string | undefined {
  if (typeof value === 'string') return value !== '0' && CANONICAL.test(value) ? value : undefined;
  if (!D.isDecimal(value)) return undefined;
  const d = value as InstanceType<typeof D>;
  if (!d.isFinite()) return undefined;
  const text = toWire(d);
  // The text checked too: a Decimal subclass can print anything (exponent notation, not a number at all).
  return text === '0' || !CANONICAL.test(text) ? undefined : text;
}

/** Bits of the fields an order carries, for the ORDER_NEEDS rules as masks (checked per order without arrays or closures). */
const BIT = { quantity: 1, quoteOrderQty: 2, price: 4, stopPrice: 8, timeInForce: 16 } as const;
const maskOf = (keys: readonly string[]) => keys.reduce((m, k) => m | (BIT[k as keyof typeof BIT] ?? 0), 0);
const RULES = new Map(
  Object.entries(ORDER_NEEDS).map(([type, r]) => [type, { required: maskOf(r.required), forbidden: maskOf(r.forbidden), oneOf: r.oneOf ? ([maskOf([r.oneOf[0]]), maskOf([r.oneOf[1]])] as const) : undefined }] as const),
);

/** `item` (kind 'place') normalised as the schema would, or undefined to fall back to the schema. */
export function fastPlace(item: object): PlaceIntent | undefined {
  if (Object.getPrototypeOf(item) !== Object.prototype) return undefined;
  // Own enumerable keys (for..in on a plain object: Object.prototype has none), without an array per intent.
  for (const k in item) if (!KNOWN.has(k)) return undefined;
  const o = item as Record<string, unknown>;
  const { side, type, symbol, tag, timeInForce } = o;
  if (side !== 'BUY' && side !== 'SELL') return undefined;
  const rule = typeof type === 'string' ? RULES.get(type) : undefined;
  if (rule === undefined) return undefined;
  if (typeof symbol !== 'string' || symbol.length === 0) return undefined;
  if (tag !== undefined && (typeof tag !== 'string' || !TAG_PATTERN.test(tag))) return undefined;
  if (timeInForce !== undefined && !(TIME_IN_FORCE as readonly unknown[]).includes(timeInForce)) return undefined;
  let has = timeInForce === undefined ? 0 : BIT.timeInForce;
  let quantity: string | undefined;
  let quoteOrderQty: string | undefined;
  let price: string | undefined;
  let stopPrice: string | undefined;
  if (o.quantity !== undefined) {
    if ((quantity = amountText(o.quantity)) === undefined) return undefined;
    has |= BIT.quantity;
  }
  if (o.quoteOrderQty !== undefined) {
    if ((quoteOrderQty = amountText(o.quoteOrderQty)) === undefined) return undefined;
    has |= BIT.quoteOrderQty;
  }
  if (o.price !== undefined) {
    if ((price = amountText(o.price)) === undefined) return undefined;
    has |= BIT.price;
  }
  if (o.stopPrice !== undefined) {
    if ((stopPrice = amountText(o.stopPrice)) === undefined) return undefined;
    has |= BIT.stopPrice;
  }
  if ((has & rule.required) !== rule.required || (has & rule.forbidden) !== 0) return undefined;
  if (rule.oneOf && (has & rule.oneOf[0]) !== 0 === ((has & rule.oneOf[1]) !== 0)) return undefined;
  // The schema's output: its key order (PLACE_KEYS), present fields only.
  const out: Record<string, unknown> = { side, type };
  if (quantity !== undefined) out.quantity = quantity;
  if (quoteOrderQty !== undefined) out.quoteOrderQty = quoteOrderQty;
  if (price !== undefined) out.price = price;
  if (stopPrice !== undefined) out.stopPrice = stopPrice;
  if (timeInForce !== undefined) out.timeInForce = timeInForce;
  if (tag !== undefined) out.tag = tag;
  out.kind = 'place';
  out.symbol = symbol;
  return Object.freeze(out) as unknown as PlaceIntent;
}
