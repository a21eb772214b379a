/**
 * The error texts of a strategy helper's config that failed its zod schema (exits(),
 * protections()): an unknown option with the options known where it stands, else the field, what
 * it must be (the helper's own words, or zod's) and what it got.
 */
import type { z } from 'zod';
import { describeValue, joinPath } from '../describe-value.ts';

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key as string] : undefined;
  return v;
}

/**
 * One text per issue, each once. `want` is keyed by field path, an item of a list by its list's
 * entry (`stoplossGuard.exitTags[]`); `known` by the path of each object ('' for the top).
 */
export function configIssueTexts(
  config: unknown,
  issues: readonly z.core.$ZodIssue[],
  want: Readonly<Record<string, string>>,
  known: Readonly<Record<string, readonly string[]>>,
): string[] {
  const texts = issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const at = known[joinPath('', issue.path)] ?? [];
      return issue.keys.map((k) => `unknown option '${joinPath('', [...issue.path, k])}' (known: ${at.join(', ')})`);
    }
    const field = joinPath('', issue.path.map((k) => (typeof k === 'number' ? '[]' : k))).replaceAll('.[]', '[]');
    return [`'${joinPath('', issue.path)}' must be ${want[field] ?? issue.message}, got ${describeValue(valueAt(config, issue.path))}`];
  });
  return [...new Set(texts)];
}
