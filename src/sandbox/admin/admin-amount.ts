/**
 * An amount in an admin request body (credits, debits, simulated deposits, limits, payments):
 * non-negative decimal text within the request amount bound the stored records share
 * (persistence/bounds.ts), so no admin call can make the state file refuse to load, and an
 * amount the balances cannot take (more than 18 decimals) is a 400 naming the field, not a 500.
 */
import { D, isDecimalText } from '../../core/money/decimal.ts';
import { zDecimalText } from '../config/filters.ts';
import { requestAmountProblem } from '../persistence/bounds.ts';

export const zAdminAmount = zDecimalText.superRefine((s, ctx) => {
  // zod runs every refinement: text zDecimalText refused is not read again.
  const problem = isDecimalText(s) ? requestAmountProblem(s) : undefined;
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/** As zAdminAmount, and above 0. */
export const zPositiveAdminAmount = zAdminAmount.refine((s) => !isDecimalText(s) || new D(s.trim()).gt(0), 'must be > 0');
