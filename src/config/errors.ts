/** The one error type of configuration problems: every issue, each with its path. */
import type { z } from 'zod';

export class ConfigError extends Error {
  readonly issues: string[];
  constructor(source: string, issues: string[]) {
    super(`invalid configuration in ${source}:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.length ? issue.path.map(String).join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') return `${path}: unknown key(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    return `${path}: ${issue.message}`;
  });
}
