/**
 * Shared zod codecs for response fields (spec 2, notes 5).
 *
 * Bodies are parsed losslessly first (`transport/lossless-json.ts`): integers beyond 2^53 arrive
 * here as strings, safe ones as numbers. The real service also sends many numeric fields as strings
 * (notes 5.2), so every codec accepts both and normalises: ids to decimal strings, money to decimal
 * strings (never exponent form), times and counts to numbers.
 */
import { z } from 'zod';
import { isDecimalText, toWire } from '../../core/money/decimal.ts';

/** An integer id (order, trade): kept as its exact decimal string. */
export const zId = z
  .union([z.string().regex(/^-?\d+$/, 'expected an integer id'), z.number().int()])
  .transform((v) => String(v));

/** An opaque id that may be numeric or not (`d_769800519366885376`). */
export const zIdText = z.union([z.string(), z.number()]).transform((v) => String(v));

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A decimal amount, price or quantity: a plain decimal string. Plain text is kept exactly as sent
 * (trailing zeros included); a number, or text in another form (`1e-8`, `1E-8`, `+1`, `.5`), is
 * rewritten by `toWire` to plain form (`0.00000001`), so no exponent form ever reaches a caller.
 */
export const zDec = z
  .union([z.string().refine((s) => isDecimalText(s), 'expected a decimal number'), z.number().refine((n) => Number.isFinite(n), 'expected a finite number')])
  .transform((v) => (typeof v === 'string' && PLAIN_DECIMAL.test(v) ? v : toWire(v)));

/** A ms timestamp or count: a number (accepts numeric strings, notes 5.2). */
export const zNum = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a number')])
  .transform((v) => Number(v));

/** A boolean (some variants send "true"/"false"). */
export const zBool = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

/** An object that keeps members the spec does not list (the real service adds fields). */
export const obj = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);

/** `{}` answers (ping, order test, keepalive). */
export const zEmpty = z.looseObject({});

/**
 * A codec picked by looking at the body (which keys it has) instead of trying shapes in turn. With
 * `z.union` of loose objects a body that breaks the specific shape in one field silently passes as
 * a looser one, keeping the bad part raw; here the chosen shape's own issues are reported, with
 * their paths (`fills[1].commissionAsset`).
 */
export function zSelect<T>(choose: (body: unknown) => z.ZodType<T>): z.ZodType<T> {
  return z.unknown().transform((body, ctx): T => {
    const r = choose(body).safeParse(body);
    if (r.success) return r.data;
    for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }) as unknown as z.ZodType<T>;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
