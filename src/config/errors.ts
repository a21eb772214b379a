/** The one error type of configuration problems: every issue, each with its path. */
import type { z } from 'zod';
import { nearestByEdits } from '../core/text/nearest-name.ts';

export class ConfigError extends Error {
  readonly issues: string[];
  constructor(source: string, issues: string[]) {
    super(`invalid configuration in ${source}:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/**
 * Each issue as `path: what is wrong`. Given the schema, an unknown key names the known key it was
 * most likely meant to be (`'journl' (did you mean 'journal'?)`), as the CLI does for options.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[], schema?: z.ZodType): string[] {
  return issues.map((issue) => {
    const path = issue.path.length ? issue.path.map(String).join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') {
      const known = schema === undefined ? undefined : objectKeysAt(schema, issue.path);
      const named = issue.keys.map((k) => {
        const near = known === undefined ? undefined : nearestByEdits(k, known);
        return near === undefined ? `'${k}'` : `'${k}' (did you mean '${near}'?)`;
      });
      return `${path}: unknown key(s) ${named.join(', ')}`;
    }
    return `${path}: ${issue.message}`;
  });
}

/** A wrapper's inner schema (optional, default, nullable, a pipe's input), else the schema itself. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema as z.ZodType & { def?: { innerType?: z.ZodType; in?: z.ZodType } };
  for (let n = 0; n < 10; n++) {
    const inner = s.def?.innerType ?? s.def?.in;
    if (inner === undefined) break;
    s = inner as typeof s;
  }
  return s;
}

/** The keys of the object schema at `path` (array elements and records passed through), if it is one. */
function objectKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let s: z.ZodType | undefined = unwrapped(schema);
  for (const seg of path) {
    const def = (s as { def?: { type?: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; valueType?: z.ZodType } }).def;
    if (def?.type === 'object') s = def.shape?.[String(seg)];
    else if (def?.type === 'array') s = def.element;
    else if (def?.type === 'record') s = def.valueType;
    else return undefined;
    if (s === undefined) return undefined;
    s = unwrapped(s);
  }
  const def = (s as { def?: { type?: string; shape?: Record<string, z.ZodType> } }).def;
  return def?.type === 'object' && def.shape !== undefined ? Object.keys(def.shape) : undefined;
}
