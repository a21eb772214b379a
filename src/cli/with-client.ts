/** Shared set-up of the commands that talk to an exchange: config, secrets, base URL, client. */
import { loadConfig, secretsFromEnv } from '../config/load.ts';
import { httpUrlProblem } from '../config/urls.ts';
import type { HalyardConfig } from '../config/schema.ts';
import { createClient, type ClientHandle } from '../app/create-client.ts';
import { humanLines } from '../log/human-lines.ts';
import { createLogger } from '../log/logger.ts';
import { UsageError } from './errors.ts';
import type { CliIo } from './io.ts';

export interface GlobalArgs {
  config?: string;
  baseUrl?: string;
  logLevel?: string;
  [key: string]: unknown;
}

/**
 * The exchange's REST base URL: --base-url, else HALYARD_BASE_URL, else the config's
 * exchange.baseUrl; http: or https:, or a UsageError naming where it came from. Commands that
 * create files first (record) call it before, so a bad address changes nothing.
 */
export function exchangeBaseUrl(io: CliIo, args: GlobalArgs, config: HalyardConfig): string {
  const baseUrl = args.baseUrl ?? io.env['HALYARD_BASE_URL'] ?? config.exchange.baseUrl;
  if (!baseUrl) {
    throw new UsageError('no exchange address: pass --base-url, set HALYARD_BASE_URL, or set exchange.baseUrl in the config file');
  }
  // The config file's exchange.baseUrl was checked when it was loaded.
  const problem = httpUrlProblem(baseUrl);
  if (problem !== undefined) throw new UsageError(`${args.baseUrl !== undefined ? '--base-url' : 'HALYARD_BASE_URL'}: ${problem}`);
  return baseUrl;
}

export async function withClient(
  io: CliIo,
  args: GlobalArgs,
  run: (ctx: ClientHandle & { config: HalyardConfig }) => Promise<void>,
): Promise<void> {
  const config = loadConfig(args.config);
  const baseUrl = exchangeBaseUrl(io, args, config);
  // On a terminal the client's warnings (retries, clock sync) read as lines, not JSON.
  const logger = createLogger({ level: args.logLevel ?? config.log.level }, process.stderr.isTTY === true ? humanLines(process.stderr) : undefined);
  const handle = createClient({ baseUrl, exchange: config.exchange, secrets: secretsFromEnv(io.env), logger });
  try {
    await run({ ...handle, config });
  } finally {
    await handle.close();
  }
}
