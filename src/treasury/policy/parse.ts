/**
 * Reading the treasury policy (schema.ts): from a value (the bot config's `treasury` key is parsed
 * with the bot config, src/bot/config.ts) or a file of its own for `halyard treasury plan --config
 * FILE`. The file is either the policy itself (its keys at the top), `{ "treasury": {...} }`, or a
 * whole bot config (it has `strategies`): then its `treasury` section, checked with the rest of it.
 * Every problem at once, each with its path (ConfigError: exit 2 in the CLI).
 */
import { parseBotConfig, type BotConfig } from '../../bot/config.ts';
import { ConfigError, formatIssues } from '../../config/errors.ts';
import { readConfigJson } from '../../config/read-json-file.ts';
import { treasuryPolicySchema, type TreasuryPolicy } from './schema.ts';

export function parseTreasuryPolicy(value: unknown, source = 'treasury policy', pathPrefix = ''): TreasuryPolicy {
  const r = treasuryPolicySchema.safeParse(value ?? {});
  if (!r.success) throw new ConfigError(source, formatIssues(r.error.issues, treasuryPolicySchema).map((i) => pathPrefix + i));
  return r.data;
}

export interface TreasuryFile {
  policy: TreasuryPolicy;
  /** Set when the file was a bot config: its venue, exchange settings, journal. */
  bot?: BotConfig;
}

export function loadTreasuryFile(file: string): TreasuryFile {
  const value = readConfigJson(file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(file, ['(root): expected a JSON object: the treasury policy, or a bot config with a "treasury" section']);
  const o = value as Record<string, unknown>;
  if ('strategies' in o) {
    const bot = parseBotConfig(value, file);
    if (bot.treasury === undefined) throw new ConfigError(file, ['treasury: this bot config has no treasury section']);
    return { policy: bot.treasury, bot };
  }
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === 'treasury') return { policy: parseTreasuryPolicy(o['treasury'], file, 'treasury.') };
  return { policy: parseTreasuryPolicy(value, file) };
}
