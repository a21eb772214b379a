/**
 * Validation of what handlers return (design rule 3: intents are data, checked at the boundary).
 * Every intent is checked with zod and normalised: money becomes a plain decimal string (toFixed
 * form, never exponent notation), the fields each order type needs are present and the ones it
 * does not use are absent (spec 4.5 "Mandatory parameters by order type"), the symbol is one the
 * strategy declared. A failure names the field: `intents[1].price: expected a decimal string or
 * Decimal, got number 101.5 ...`. Grid and filter conformance (tick, step, notional) is left to
 * the engine's pre-trade checks, which deny with an order update rather than stop the strategy.
 */
import { z } from 'zod';
import { D, isDecimalText, toWire } from '../../core/money/decimal.ts';
import { ORDER_TYPES } from '../../core/market/types.ts';
import { describeValue, joinPath } from '../describe-value.ts';
import { fastPlace, ORDER_NEEDS, TAG_PATTERN } from './intent-fast-path.ts';
import type { Intent } from './intents.ts';
import { TIME_IN_FORCE } from '../types.ts';

export { TAG_PATTERN } from './intent-fast-path.ts';
/** A runaway loop should stop the strategy, not flood the order manager. */
export const MAX_INTENTS_PER_CALL = 1000;

/** What toWire prints for a finite Decimal: plain notation, optionally negative. */
const PLAIN = /^-?\d+(?:\.\d+)?$/;

const amount = z.unknown().transform((value, ctx) => {
  let text: string | undefined;
  if (typeof value === 'string' && isDecimalText(value)) text = toWire(value);
  else if (D.isDecimal(value) && (value as InstanceType<typeof D>).isFinite()) {
    // What a Decimal prints is checked too: a subclass can print exponent notation, or not a number at all.
    const printed = toWire(value as InstanceType<typeof D>);
    if (PLAIN.test(printed)) text = printed;
  }
  if (text === undefined) {
    const hint = typeof value === 'number' ? ' (floats are not money: round it with ctx.instrument(symbol).roundPrice() / roundQty())' : '';
    ctx.addIssue({ code: 'custom', message: `expected a decimal string or Decimal, got ${describeValue(value)}${hint}` });
    return z.NEVER;
  }
  if (!new D(text).gt(0)) {
    ctx.addIssue({ code: 'custom', message: `must be > 0, got "${text}"` });
    return z.NEVER;
  }
  return text;
});

const tag = z.string().regex(TAG_PATTERN, { message: 'must be 1..20 characters of A-Z a-z 0-9 _ -' });
const symbol = z.string().min(1, { message: 'must not be empty' });
const clientOrderId = z.string().min(1).max(64);


const orderFields = z
  .strictObject({
    side: z.enum(['BUY', 'SELL']),
    type: z.enum(ORDER_TYPES),
    quantity: amount.optional(),
    quoteOrderQty: amount.optional(),
    price: amount.optional(),
    stopPrice: amount.optional(),
    timeInForce: z.enum(TIME_IN_FORCE).optional(),
    tag: tag.optional(),
  })
  .superRefine((o, ctx) => {
    const rule = ORDER_NEEDS[o.type];
    const has = (k: string) => (o as Record<string, unknown>)[k] !== undefined;
    for (const k of rule.required) if (!has(k)) ctx.addIssue({ code: 'custom', path: [k], message: `${o.type} orders need ${k}` });
    for (const k of rule.forbidden) if (has(k)) ctx.addIssue({ code: 'custom', path: [k], message: `${o.type} orders do not take ${k}` });
    if (rule.oneOf) {
      const [a, b] = rule.oneOf;
      if (has(a) && has(b)) ctx.addIssue({ code: 'custom', path: [b], message: `${o.type} orders take ${a} or ${b}, not both` });
      if (!has(a) && !has(b)) ctx.addIssue({ code: 'custom', path: [a], message: `${o.type} orders need ${a} or ${b}` });
    }
  });

const oneTarget = (o: { tag?: string | undefined; clientOrderId?: string | undefined }, ctx: z.RefinementCtx) => {
  if ((o.tag === undefined) === (o.clientOrderId === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['tag'], message: 'name the order by tag or by clientOrderId (exactly one)' });
  }
};

const placeSchema = orderFields.safeExtend({ kind: z.literal('place'), symbol });
const cancelSchema = z.strictObject({ kind: z.literal('cancel'), symbol, tag: tag.optional(), clientOrderId: clientOrderId.optional() }).superRefine(oneTarget);
const cancelReplaceSchema = z
  .strictObject({ kind: z.literal('cancelReplace'), symbol, tag: tag.optional(), clientOrderId: clientOrderId.optional(), order: orderFields })
  .superRefine(oneTarget);

const SCHEMAS = { place: placeSchema, cancel: cancelSchema, cancelReplace: cancelReplaceSchema } as const;

export type IntentCheck = { ok: true; intents: readonly Intent[] } | { ok: false; field: string; message: string; kind: 'bad-intent' | 'bad-return' };

function strip<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

/** Validate and normalise a handler's return value against the strategy's declared symbols. */
export function checkIntents(value: unknown, symbols: readonly string[]): IntentCheck {
  if (value === undefined || value === null) return { ok: true, intents: [] };
  if (!Array.isArray(value)) {
    return { ok: false, kind: 'bad-return', field: 'intents', message: `intents: a handler returns an array of intents or nothing, got ${describeValue(value)}` };
  }
  if (value.length > MAX_INTENTS_PER_CALL) {
    return { ok: false, kind: 'bad-return', field: 'intents', message: `intents: ${value.length} intents in one call (max ${MAX_INTENTS_PER_CALL})` };
  }
  const out: Intent[] = [];
  for (let i = 0; i < value.length; i++) {
    const base = `intents[${i}]`;
    const item: unknown = value[i];
    const kind = typeof item === 'object' && item !== null ? (item as { kind?: unknown }).kind : undefined;
    if (kind !== 'place' && kind !== 'cancel' && kind !== 'cancelReplace') {
      // An object without a kind is an order written by hand: the helpers set it (and check the rest).
      const what = typeof item !== 'object' || item === null ? describeValue(item) : kind === undefined ? 'an object without one' : `kind ${describeValue(kind)}`;
      const hint = typeof item === 'object' && item !== null && kind === undefined ? ' (make intents with place(), cancel() or cancelReplace())' : '';
      return { ok: false, kind: 'bad-intent', field: `${base}.kind`, message: `${base}.kind: expected 'place', 'cancel' or 'cancelReplace', got ${what}${hint}` };
    }
    // The common case (a place() result in normal form) skips zod; anything else, bad intents included, goes through it.
    const quick = kind === 'place' ? fastPlace(item as object) : undefined;
    if (quick !== undefined) {
      if (!symbols.includes(quick.symbol)) {
        return { ok: false, kind: 'bad-intent', field: `${base}.symbol`, message: `${base}.symbol: '${quick.symbol}' is not one of the strategy's symbols (${symbols.join(', ')})` };
      }
      out.push(quick);
      continue;
    }
    const parsed = SCHEMAS[kind].safeParse(item);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => {
        const path = joinPath(base, issue.path);
        if (issue.code === 'unrecognized_keys') return { path, text: `${path}: unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}` };
        return { path, text: `${path}: ${issue.message}` };
      });
      return { ok: false, kind: 'bad-intent', field: issues[0]?.path ?? base, message: issues.map((x) => x.text).join('; ') };
    }
    const intent = parsed.data;
    if (!symbols.includes(intent.symbol)) {
      return { ok: false, kind: 'bad-intent', field: `${base}.symbol`, message: `${base}.symbol: '${intent.symbol}' is not one of the strategy's symbols (${symbols.join(', ')})` };
    }
    if (intent.kind === 'cancelReplace') {
      const order = strip({ ...intent.order, tag: intent.order.tag ?? intent.tag });
      out.push(Object.freeze(strip({ ...intent, order: Object.freeze(order) })) as Intent);
    } else {
      out.push(Object.freeze(strip({ ...intent })) as Intent);
    }
  }
  return { ok: true, intents: Object.freeze(out) };
}
