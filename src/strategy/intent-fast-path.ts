/**
 * The fast path of the intent check (intent-schema.ts): a place intent that is a plain object
 * already in normal form (what the `place()` helper returns with canonical decimal strings or
 * Decimals) is checked structurally, without zod, and normalised to exactly what the zod schema
 * would output (same fields, same key order, frozen). Anything it is not sure about (a bad or
 * unusual value, an unknown key, a non-plain object) answers `undefined` and goes through zod,
 * so every error message still comes from the schema. Spec 4.5 "Mandatory parameters by order
 * type" is the `ORDER_NEEDS` table, shared with the schema.
 */
import { D, toWire } from '../core/money/decimal.ts';
import type { OrderType } from '../core/market/types.ts';
import type { PlaceIntent } from './intents.ts';
import { TIME_IN_FORCE } from './types.ts';

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
const AMOUNTS = ['quantity', 'quoteOrderQty', 'price', 'stopPrice'] as const;
/** A decimal string already in toWire form (no sign, no exponent, no leading or trailing zeros): toWire returns it unchanged. */
const CANONICAL = /^(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/** The toWire text of a positive amount, or undefined when zod must look at it. */
function amountText(value: unknown): string | undefined {
  if (typeof value === 'string') return value !== '0' && CANONICAL.test(value) ? value : undefined;
  if (!D.isDecimal(value)) return undefined;
  const d = value as InstanceType<typeof D>;
  if (!d.isFinite()) return undefined;
  const text = toWire(d);
  return text === '0' || text.charCodeAt(0) === 45 /* '-' */ ? undefined : text;
}

/** `item` (kind 'place') normalised as the schema would, or undefined to fall back to the schema. */
/** Whether the intent carries field `k` (an amount as checked text, or a time in force). Not a closure: fastPlace runs for every order. */
function has(texts: Record<string, string>, timeInForce: unknown, k: string): boolean {
  return k === 'timeInForce' ? timeInForce !== undefined : texts[k] !== undefined;
}

export function fastPlace(item: object): PlaceIntent | undefined {
  if (Object.getPrototypeOf(item) !== Object.prototype) return undefined;
  for (const k of Object.keys(item)) if (!KNOWN.has(k)) return undefined;
  const o = item as Record<string, unknown>;
  const { side, type, symbol, tag, timeInForce } = o;
  if (side !== 'BUY' && side !== 'SELL') return undefined;
  if (typeof type !== 'string' || !Object.hasOwn(ORDER_NEEDS, type)) return undefined;
  if (typeof symbol !== 'string' || symbol.length === 0) return undefined;
  if (tag !== undefined && (typeof tag !== 'string' || !TAG_PATTERN.test(tag))) return undefined;
  if (timeInForce !== undefined && !(TIME_IN_FORCE as readonly unknown[]).includes(timeInForce)) return undefined;
  const out: Record<string, unknown> = {};
  const texts: Record<string, string> = {};
  for (const k of AMOUNTS) {
    const v = o[k];
    if (v === undefined) continue;
    const text = amountText(v);
    if (text === undefined) return undefined;
    texts[k] = text;
  }
  const rule = ORDER_NEEDS[type as OrderType];
  for (const k of rule.required) if (!has(texts, timeInForce, k)) return undefined;
  for (const k of rule.forbidden) if (has(texts, timeInForce, k)) return undefined;
  if (rule.oneOf && has(texts, timeInForce, rule.oneOf[0]) === has(texts, timeInForce, rule.oneOf[1])) return undefined;
  for (const k of PLACE_KEYS) {
    const v = k in texts ? texts[k] : o[k];
    if (v !== undefined) out[k] = v;
  }
  return Object.freeze(out) as unknown as PlaceIntent;
}
