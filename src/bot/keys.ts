/**
 * The bot's API key and secret: from the environment only (design rule 10; the names are
 * config/load.ts's, HALYARD_API_KEY and HALYARD_API_SECRET), never from the config file. Against
 * a venue given by URL both must be set, and a missing one is a ConfigError naming it. Against the
 * embedded sandbox, the environment's pair is used when set, else the sandbox's own demo key (the
 * sandbox made it; it is no secret of the user's).
 */
import { ConfigError } from '../config/errors.ts';
import { secretsFromEnv } from '../config/load.ts';

export const API_KEY_ENV = 'HALYARD_API_KEY';
export const API_SECRET_ENV = 'HALYARD_API_SECRET';

export interface BotKeys {
  readonly apiKey: string;
  readonly apiSecret: string;
}

/** The pair from `env`; undefined when neither is set and `optional`; a ConfigError naming what is missing otherwise. */
export function keysFromEnv(env: NodeJS.ProcessEnv, optional: boolean): BotKeys | undefined {
  const s = secretsFromEnv(env);
  if (s.apiKey !== undefined && s.apiSecret !== undefined) return { apiKey: s.apiKey, apiSecret: s.apiSecret };
  if (optional && s.apiKey === undefined && s.apiSecret === undefined) return undefined;
  const missing = [s.apiKey === undefined ? API_KEY_ENV : undefined, s.apiSecret === undefined ? API_SECRET_ENV : undefined].filter((x) => x !== undefined);
  throw new ConfigError(
    'the environment',
    missing.map((name) => `${name} is not set: the bot reads its API ${name === API_KEY_ENV ? 'key' : 'secret'} from the environment only (never from the config file)`),
  );
}
