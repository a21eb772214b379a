/**
 * Loads configuration: a JSON file (optional) merged over the schema's defaults, then secrets from
 * the environment. All problems come back together, each with its path, in one ConfigError.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { configSchema, type HalyardConfig } from './schema.ts';

export class ConfigError extends Error {
  readonly issues: string[];
  constructor(source: string, issues: string[]) {
    super(`invalid configuration in ${source}:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

export interface Secrets {
  apiKey?: string | undefined;
  apiSecret?: string | undefined;
  merchantKey?: string | undefined;
  merchantSecret?: string | undefined;
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.length ? issue.path.map(String).join('.') : '(root)';
    if (issue.code === 'unrecognized_keys') return `${path}: unknown key(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    return `${path}: ${issue.message}`;
  });
}

/** Validate an already-read value (tests and embedded use). */
export function parseConfig(value: unknown, source = 'config'): HalyardConfig {
  const result = configSchema.safeParse(value ?? {});
  if (!result.success) throw new ConfigError(source, formatIssues(result.error.issues));
  return result.data;
}

/** Read and validate a JSON config file; no file means all defaults. */
export function loadConfig(file?: string): HalyardConfig {
  if (!file) return parseConfig({}, 'defaults');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(file, [`cannot read the file: ${(e as Error).message}`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(file, [`not valid JSON: ${(e as Error).message}`]);
  }
  return parseConfig(value, file);
}

/** Secrets come only from the environment, never from files (design rule 10). */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): Secrets {
  return {
    apiKey: env['HALYARD_API_KEY'] || undefined,
    apiSecret: env['HALYARD_API_SECRET'] || undefined,
    merchantKey: env['HALYARD_MERCHANT_KEY'] || undefined,
    merchantSecret: env['HALYARD_MERCHANT_SECRET'] || undefined,
  };
}
