/**
 * A plan read from a file (`halyard treasury plan --out plan.json`, or its `--json` output holding
 * `plan`) for `halyard treasury apply --plan FILE`. The file is the user's input: every field is
 * checked (moves.ts shapes, money as decimal text above zero, client ids present and unique)
 * and every problem named with its path before anything is journaled or sent (ConfigError).
 */
import { z } from 'zod';
import { isDecimalText } from '../../core/money/decimal.ts';
import { ConfigError, formatIssues } from '../../config/errors.ts';
import { readConfigJson } from '../../config/read-json-file.ts';
import type { Plan } from '../moves.ts';

const amount = z.string().superRefine((s, ctx) => {
  if (!isDecimalText(s) || /e/i.test(s)) ctx.addIssue({ code: 'custom', message: `expected a decimal amount as a string (got ${JSON.stringify(s)})` });
  else if (!(Number(s) > 0)) ctx.addIssue({ code: 'custom', message: `an amount must be greater than 0 (got ${s})` });
});
const name = z.string().min(1);
const base = { clientId: name, reason: z.string() };

const moveSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('convert'), ...base, account: name, from: name, to: name, sourceAmount: amount }),
    z.strictObject({ kind: z.literal('transfer'), ...base, from: name, to: name, asset: name, amount }),
    z.strictObject({ kind: z.literal('collect'), ...base }),
    z.strictObject({ kind: z.literal('withdraw'), ...base, coin: name, network: name, address: name, addressTag: name.optional(), amount, destination: name }),
    z.strictObject({
      kind: z.literal('cash-out'),
      ...base,
      currency: name,
      amount,
      channelName: name,
      channelSubject: name,
      extendInfo: z.record(z.string(), z.string()).optional(),
      destination: name,
    }),
  ],
  { error: "a move's kind is convert, transfer, collect, withdraw or cash-out" },
);

export const planSchema = z.strictObject({
  asOf: z.number().int().nonnegative(),
  id: name,
  moves: z.array(moveSchema),
  unresolved: z.array(z.strictObject({ account: z.string(), asset: z.string(), reason: z.string() })).default([]),
});

/** Client ids used by two moves: checked on the raw value, so they are named beside every other problem. */
function duplicateIds(value: unknown): string[] {
  const moves = value !== null && typeof value === 'object' ? (value as { moves?: unknown }).moves : undefined;
  if (!Array.isArray(moves)) return [];
  const seen = new Map<string, number>();
  const issues: string[] = [];
  moves.forEach((m: unknown, i) => {
    const id = m !== null && typeof m === 'object' ? (m as { clientId?: unknown }).clientId : undefined;
    if (typeof id !== 'string') return;
    const first = seen.get(id);
    if (first !== undefined) issues.push(`moves.${i}.clientId: ${id} is also moves.${first}'s: a client id is used by one move only`);
    else seen.set(id, i);
  });
  return issues;
}

/** A plan from a value: the Plan itself, or an object holding it under `plan` (treasury plan --json). */
export function parsePlan(value: unknown, source: string): Plan {
  const inner = value !== null && typeof value === 'object' && !Array.isArray(value) && 'plan' in value && !('moves' in value) ? (value as { plan: unknown }).plan : value;
  const prefix = inner === value ? '' : 'plan.';
  const r = planSchema.safeParse(inner);
  const issues = [...(r.success ? [] : formatIssues(r.error.issues, planSchema)), ...duplicateIds(inner)];
  if (!r.success || issues.length > 0) throw new ConfigError(source, issues.map((i) => prefix + i));
  return r.data as Plan;
}

export function readPlanFile(file: string): Plan {
  return parsePlan(readConfigJson(file), file);
}
