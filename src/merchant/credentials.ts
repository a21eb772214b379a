/**
 * The merchant credentials (spec 5.4): from the environment only, like the bot's API keys
 * (bot/keys.ts; never from the config file): HALYARD_MERCHANT_KEY and HALYARD_MERCHANT_SECRET,
 * the names config/load.ts reads for the client. The receiver needs both: the key is what an
 * authentic callback carries (spec 6.1 `Authorization: Token <key>`), the pair signs get-invoices.
 */
import { ConfigError } from '../config/errors.ts';
import { secretsFromEnv } from '../config/load.ts';

export const MERCHANT_KEY_ENV = 'HALYARD_MERCHANT_KEY';
export const MERCHANT_SECRET_ENV = 'HALYARD_MERCHANT_SECRET';

export interface MerchantKeys {
  readonly merchantKey: string;
  readonly merchantSecret: string;
}

/** The pair, or a ConfigError naming each variable that is missing and what it is for. */
export function merchantKeysFromEnv(env: NodeJS.ProcessEnv): MerchantKeys {
  const s = secretsFromEnv(env);
  if (s.merchantKey !== undefined && s.merchantSecret !== undefined) return { merchantKey: s.merchantKey, merchantSecret: s.merchantSecret };
  const missing: string[] = [];
  if (s.merchantKey === undefined) missing.push(`${MERCHANT_KEY_ENV} is not set: the merchant key, which signs merchant requests and which authentic callbacks carry`);
  if (s.merchantSecret === undefined) missing.push(`${MERCHANT_SECRET_ENV} is not set: the merchant secret, which signs merchant requests (spec 5.4)`);
  throw new ConfigError('the environment', missing);
}
