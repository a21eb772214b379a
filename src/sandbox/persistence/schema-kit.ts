/**
 * Zod pieces shared by the persistent parts' schemas (persistent-parts.ts): money is a decimal
 * string (spec 1.4), never a JSON number; times are integer ms. Both within the bounds of
 * bounds.ts, which the request checks share (what a request may create, the loader accepts).
 */
import { z } from 'zod';
import { isDecimalText } from '../../core/money/decimal.ts';
import { MAX_TIME_MS, MIN_TIME_MS, storedAmountProblem } from './bounds.ts';

function withinStoredBounds(s: string, ctx: z.RefinementCtx): void {
  const problem = isDecimalText(s) ? storedAmountProblem(s) : undefined;
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
}

/** A non-negative decimal string ("0.01"). */
export const zAmount = z
  .string()
  .refine((s) => isDecimalText(s) && !s.trim().startsWith('-'), 'expected a non-negative decimal string such as "0.01"')
  .superRefine(withinStoredBounds);

/** A signed decimal string ("-0.5"): ledger deltas, limit charges and refunds. */
export const zSignedAmount = z
  .string()
  .refine((s) => isDecimalText(s), 'expected a decimal string such as "-0.5"')
  .superRefine(withinStoredBounds);

/** Sandbox ms. */
export const zTime = z.number().int().min(MIN_TIME_MS).max(MAX_TIME_MS);

/** A list of records, each checked by `item`. */
export const zRecords = <T extends z.ZodType>(item: T) => z.array(item);

/** A string of a closed vocabulary the schema does not spell out (business subjects, subjects): checked as non-empty text. */
export const zName = <T extends string>() => z.custom<T>((v) => typeof v === 'string' && v.length > 0, 'expected a non-empty string');

/** An optional field written as `undefined` comes back absent from JSON. */
export const zMaybe = <T extends z.ZodType>(item: T) => item.optional();
