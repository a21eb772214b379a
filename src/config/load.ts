/**
 * Loads configuration: a JSON file (optional) merged over the schema's defaults, then secrets from
 * the environment. All problems come back together, each with its path, in one ConfigError.
 */
import { sandboxCrossChecks } from '../sandbox/config/load.ts';
import { ConfigError, formatIssues } from './errors.ts';
import { configSchema, type HalyardConfig } from './schema.ts';
import { readConfigJson } from './read-json-file.ts';

export { ConfigError, formatIssues };

export interface Secrets {
  apiKey?: string | undefined;
  apiSecret?: string | undefined;
  merchantKey?: string | undefined;
  merchantSecret?: string | undefined;
}

/** Validate an already-read value (tests and embedded use). */
export function parseConfig(value: unknown, source = 'config'): HalyardConfig {
  const result = configSchema.safeParse(value ?? {});
  if (!result.success) throw new ConfigError(source, formatIssues(result.error.issues, configSchema));
  const sandboxIssues = sandboxCrossChecks(result.data.sandbox).map((issue) => `sandbox.${issue}`);
  if (sandboxIssues.length > 0) throw new ConfigError(source, sandboxIssues);
  return result.data;
}

/** Read and validate a JSON config file; no file means all defaults. */
export function loadConfig(file?: string): HalyardConfig {
  if (!file) return parseConfig({}, 'defaults');
  const value = readConfigJson(file);
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
