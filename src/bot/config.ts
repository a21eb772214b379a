/**
 * The bot's configuration, `halyard run --config bot.json` (issue 21 deliverable 3): the
 * strategies with their params and symbols and each one's capital (a sub-ledger the order manager
 * enforces), the venue (`sandbox`: the embedded sandbox started in-process; or its REST and
 * WebSocket URLs), what happens to open orders at stop and when a strategy fails, the journal, the
 * streams' timings. Checked strictly, like src/config/schema.ts: an unknown key is an error (with
 * the known key it was most likely meant to be), every problem is reported at once with its path
 * (ConfigError). API keys are never read from here: only from the environment (keys.ts).
 *
 * A strategy's params are checked by the strategy's own schema once it is loaded (strategies.ts),
 * in the same report as the rest.
 */
import { z } from 'zod';
import { isDecimalText } from '../core/money/decimal.ts';
import { ConfigError, formatIssues } from '../config/errors.ts';
import { exchangeConfigSchema } from '../config/schema.ts';
import { httpUrlSchema, wsUrlSchema } from '../config/urls.ts';
import { readConfigJson } from '../config/read-json-file.ts';
import { treasuryPolicySchema } from '../treasury/policy/schema.ts';

/** A decimal amount as text, >= 0 (money is never a float: project rule). */
const amountText = z
  .string()
  .refine((s) => isDecimalText(s) && !s.trim().startsWith('-') && !/e/i.test(s), { message: 'expected a decimal amount >= 0 as a string, e.g. "1000.5"' });

const assetName = z.string().regex(/^[A-Z0-9]{1,20}$/, 'an asset such as PHP or BTC (A-Z, 0-9)');
const symbolName = z.string().regex(/^[A-Z0-9]{2,30}$/, 'a symbol such as BTCPHP (A-Z, 0-9)');

export const botStrategySchema = z.strictObject({
  strategy: z.string().min(1, 'a strategy name from strategies/ or a path to a file').describe('A name from strategies/ (`sma-crossover`) or a path to a .ts/.js/.mjs file'),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, '1..40 characters of A-Z a-z 0-9 _ -').optional().describe("The instance's name in logs, journal and client order ids; default the strategy's own. Unique in a bot"),
  params: z.record(z.string(), z.unknown()).default({}).describe("The strategy's parameters, checked by its own schema"),
  symbols: z.array(symbolName).min(1).optional().describe('Symbols to trade; stand in for a `symbol` (or `symbols`) parameter; must be the ones the strategy trades'),
  capital: z.record(assetName, amountText).optional().describe("What this strategy may spend, per asset, as decimal strings: a sub-ledger of the account (one strategy cannot spend another's funds)"),
});

const venueUrlsSchema = z.strictObject({ baseUrl: httpUrlSchema, wsUrl: wsUrlSchema });

/** The user stream's timings (src/exchange/ws/stream-timings.ts) and the listen key's keepalive period. */
export const botStreamSchema = z.strictObject({
  pingIntervalMs: z.number().int().positive().optional().describe("The user stream's ping period, ms (default 180000)"),
  pongTimeoutMs: z.number().int().positive().optional().describe('How long a pong may take before the socket is stale and replaced, ms (default 30000)'),
  requestTimeoutMs: z.number().int().positive().optional().describe("A subscribe reply's bound, ms (default 10000)"),
  maxLifetimeMs: z.number().int().positive().optional().describe("Planned reconnect before the venue's 24 h connection limit, ms (default 23 h 50 min)"),
  handshakeTimeoutMs: z.number().int().positive().optional().describe("The WebSocket opening handshake's bound, ms (default 10000)"),
  backoff: z
    .strictObject({ baseMs: z.number().int().positive().optional(), maxMs: z.number().int().positive().optional() })
    .optional()
    .describe('Reconnect back-off with full jitter, ms (default base 1000, max 60000)'),
  keepaliveMs: z.number().int().positive().max(59 * 60_000).optional().describe('Listen-key keepalive (PUT) period, ms (notes 4.1: a key lives 60 minutes; default 30 minutes)'),
  liveTimeoutMs: z.number().int().positive().default(30_000).describe('How long start-up waits for the user stream to be live, wall ms'),
});

export const botConfigSchema = z.strictObject({
  strategies: z.array(botStrategySchema).min(1, 'list at least one strategy').describe('The strategies the bot runs, each an instance with its params, symbols and capital'),
  venue: z
    .union([z.literal('sandbox'), venueUrlsSchema], { error: "expected 'sandbox' or { baseUrl, wsUrl }" })
    .default('sandbox')
    .describe("`sandbox`: the embedded sandbox, started in-process; or the venue's REST and WebSocket URLs"),
  onStop: z.enum(['cancel', 'leave']).default('cancel').describe('Open orders at stop: cancelled, or left on the book'),
  onStrategyFailure: z.enum(['cancel', 'leave']).default('cancel').describe("A failed strategy's open orders: cancelled, or left (the others trade on either way)"),
  journal: z.string().min(1).default('data/halyard-bot.db').describe("The journal file (SQLite): orders, fills, requests, bars, the run's start and stop"),
  stream: botStreamSchema.prefault({}).describe("The user stream's timings (src/exchange/ws/stream-timings.ts) and the listen key's keepalive"),
  exchange: exchangeConfigSchema.prefault({}).describe("The exchange client's settings (recvWindow, timeouts, weight profile and pools, retries); its URLs go in venue"),
  status: z.strictObject({ everyMs: z.number().int().min(100).default(5000).describe('How often, ms') }).prefault({}).describe('Status output: the block on a terminal, a pino line otherwise'),
  log: z.strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') }).prefault({}),
  /** The treasury policy (src/treasury/policy): with it, the bot rebalances on its schedule (internal moves only). */
  treasury: treasuryPolicySchema.optional(),
});

export type BotConfig = z.infer<typeof botConfigSchema>;
export type BotConfigInput = z.input<typeof botConfigSchema>;
export type BotStrategyConfig = BotConfig['strategies'][number];

/** Validate an already-read value; every problem at once (ConfigError), each with its path. */
export function parseBotConfig(value: unknown, source = 'bot config'): BotConfig {
  const r = botConfigSchema.safeParse(value ?? {});
  if (!r.success) throw new ConfigError(source, formatIssues(r.error.issues, botConfigSchema));
  const issues: string[] = [];
  if (r.data.exchange.baseUrl !== undefined || r.data.exchange.wsUrl !== undefined) {
    issues.push('exchange: baseUrl and wsUrl go in venue ({ "baseUrl": ..., "wsUrl": ... }), not in exchange');
  }
  const names = new Map<string, number>();
  r.data.strategies.forEach((s, i) => {
    if (s.name === undefined) return;
    const first = names.get(s.name);
    if (first !== undefined) issues.push(`strategies.${i}.name: '${s.name}' is already the name of strategies.${first}`);
    else names.set(s.name, i);
  });
  if (issues.length > 0) throw new ConfigError(source, issues);
  return r.data;
}

/** Read and validate a bot config file (JSON). */
export function loadBotConfig(file: string): BotConfig {
  const value = readConfigJson(file);
  return parseBotConfig(value, file);
}
