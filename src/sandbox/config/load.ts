/**
 * Parses the sandbox configuration strictly: every problem comes back at once, each with its path
 * (design rule 10), as the same ConfigError the main config uses. Cross-field checks that zod's
 * shape cannot express (a symbol's assets exist, e-mails are unique, masters exist) are here too.
 */
import { ConfigError, formatIssues } from '../../config/errors.ts';
import { sandboxConfigSchema, type SandboxConfig } from './schema.ts';

export { ConfigError };

export function parseSandboxConfig(value: unknown, source = 'sandbox config'): SandboxConfig {
  const result = sandboxConfigSchema.safeParse(value ?? {});
  if (!result.success) throw new ConfigError(source, formatIssues(result.error.issues, sandboxConfigSchema));
  const issues = sandboxCrossChecks(result.data);
  if (issues.length > 0) throw new ConfigError(source, issues);
  return result.data;
}

/** Checks across fields that the schema's shape cannot express; each issue starts with its path. */
export function sandboxCrossChecks(config: SandboxConfig): string[] {
  const issues: string[] = [];
  const coins = new Set(config.assets.map((a) => a.coin));
  duplicates(config.symbols.map((s) => s.symbol)).forEach((s) => issues.push(`symbols: '${s}' appears more than once`));
  duplicates(config.assets.map((a) => a.coin)).forEach((c) => issues.push(`assets: '${c}' appears more than once`));
  config.symbols.forEach((s, i) => {
    for (const field of ['baseAsset', 'quoteAsset'] as const) {
      if (!coins.has(s[field])) issues.push(`symbols.${i}.${field}: asset '${s[field]}' is not in assets`);
    }
  });
  const emails = config.accounts.map((a) => a.email.toLowerCase());
  duplicates(emails).forEach((e) => issues.push(`accounts: e-mail '${e}' appears more than once`));
  duplicates(config.accounts.flatMap((a) => (a.uid ? [a.uid] : []))).forEach((u) => issues.push(`accounts: uid '${u}' appears more than once`));
  const keys = config.accounts.flatMap((a) => a.keys.flatMap((k) => (k.apiKey ? [k.apiKey] : [])));
  duplicates(keys).forEach((k) => issues.push(`accounts: apiKey '${k.slice(0, 6)}...' appears more than once`));
  config.accounts.forEach((a, i) => {
    Object.keys(a.balances).forEach((coin) => {
      if (!coins.has(coin)) issues.push(`accounts.${i}.balances.${coin}: asset '${coin}' is not in assets`);
    });
    if (a.masterEmail === undefined) return;
    const master = config.accounts.find((m) => m.email.toLowerCase() === a.masterEmail?.toLowerCase());
    if (!master) issues.push(`accounts.${i}.masterEmail: no account has e-mail '${a.masterEmail}'`);
    else if (master.masterEmail !== undefined) issues.push(`accounts.${i}.masterEmail: '${a.masterEmail}' is itself a sub-account`);
  });
  if (config.auth.recvWindowDefault > config.auth.recvWindowMax) issues.push('auth.recvWindowDefault: must not exceed auth.recvWindowMax');
  return issues;
}

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}
