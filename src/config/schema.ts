/**
 * Halyard's configuration schema: every default in one place (design rule 10). Parsed once,
 * strictly, at the edge: unknown keys are errors, and every problem is reported with its path.
 * Secrets are never read from files, only from the environment (see load.ts).
 */
import { z } from 'zod';
import { sandboxConfigSchema } from '../sandbox/config/schema.ts';
import { httpUrlSchema, wsUrlSchema } from './urls.ts';

const poolSchema = z.strictObject({
  limit: z.number().int().positive().describe('Weight the pool allows per window'),
  windowMs: z.number().int().positive().describe('The sliding window, ms'),
});

export const exchangeConfigSchema = z.strictObject({
  /** REST base URL, http: or https:; the embedded sandbox's when unset (notes 1: REST and WS hosts differ in reality). */
  baseUrl: httpUrlSchema.optional().describe("REST base URL, http: or https: (--base-url, then HALYARD_BASE_URL, override it); the embedded sandbox's when unset"),
  /** WebSocket URL, ws: or wss:. */
  wsUrl: wsUrlSchema.optional().describe('WebSocket URL, ws: or wss: (the real venue serves REST and WebSocket from different hosts)'),
  /** Spec 5.1 header name; configurable for other deployment variants. */
  apiKeyHeader: z.string().min(1).default('X-SERVICE-APIKEY').describe("The API key's header (spec 5.1)"),
  /** Spec 5.3: default 5000, maximum 60000. */
  recvWindow: z.number().int().min(1).max(60_000).default(5000).describe('How long a signed request stays valid after its timestamp, ms (spec 5.3)'),
  timeoutMs: z.number().int().positive().default(10_000).describe('A request\'s timeout, ms; a write that times out is an unknown outcome, never resent'),
  /**
   * Longest a call waits before its request leaves: for room in the weight budget, for a 429/418
   * pause to end, or before an automatic retry after a 429. Past it the call fails without sending.
   * Writes wait at most their timeoutMs (per call: `maxQueueMs`).
   */
  maxWaitMs: z.number().int().nonnegative().default(60_000).describe('Longest a read waits before it leaves (for the weight budget, a 429 pause, a retry), ms; writes wait at most timeoutMs. Past it the call fails without sending'),
  /** `spec`: weights and pools of the spec; `real`: the protocol notes' values (IP 120/min, UID 180/min). */
  weightProfile: z.enum(['spec', 'real']).default('spec').describe("Request weights and pool sizes: the spec's, or the protocol notes' real ones (IP 120/min, UID 180/min)"),
  /** Pool sizes; defaults follow weightProfile. */
  pools: z
    .strictObject({ IP: poolSchema.optional(), UID: poolSchema.optional(), ORDERS: poolSchema.optional() })
    .default({})
    .describe("The weight pools' sizes; each left out follows weightProfile"),
  /** Named shares of a pool kept for one consumer, e.g. `{ "orders": { "IP": 200 } }`. */
  reservations: z.record(z.string(), z.strictObject({ IP: z.number().int().nonnegative().optional(), UID: z.number().int().nonnegative().optional(), ORDERS: z.number().int().nonnegative().optional() })).default({}).describe('Named shares of a pool kept for one consumer, e.g. { "orders": { "IP": 200 } }'),
  retry: z
    .strictObject({
      maxAttempts: z.number().int().min(1).max(10).default(3),
      baseDelayMs: z.number().int().nonnegative().default(250),
      maxDelayMs: z.number().int().nonnegative().default(5000),
    })
    .default({ maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 5000 })
    .describe('Retries of idempotent requests (network errors, 5xx, unreadable answers, 429 once its pause is over) with exponential back-off; a request whose outcome is unknown is never resent'),
  merchant: z
    .strictObject({
      timestampUnit: z.enum(['ms', 'seconds']).default('ms'),
      bodyEncoding: z.enum(['json', 'form']).default('json'),
    })
    .default({ timestampUnit: 'ms', bodyEncoding: 'json' })
    .describe("The merchant API's signing variant: its timestamp's unit and its body's encoding"),
  /** Clock sync: samples per estimate. */
  clockSamples: z.number().int().min(1).max(50).default(5).describe("/time samples per clock-offset estimate (their median is used)"),
  /**
   * Start of the client ids the client generates for writes sent without one (newClientOrderId,
   * withdrawOrderId, client_transfer_id, clientTranId; src/exchange/client/client-ids.ts).
   */
  clientIdPrefix: z.string().regex(/^[A-Za-z0-9_-]{0,10}$/, '0 to 10 of A-Z a-z 0-9 _ -').default('hc')
    .describe('Start of the client ids the client generates for writes sent without one'),
});

export const configSchema = z.strictObject({
  exchange: exchangeConfigSchema.default(() => exchangeConfigSchema.parse({})).describe('The exchange client'),
  /** The SQLite journal (market data, runs, intents, orders, fills); `--journal` and HALYARD_JOURNAL override. */
  journal: z
    .strictObject({ path: z.string().min(1).default('data/halyard.db').describe('The journal file; --journal and HALYARD_JOURNAL override it') })
    .default({ path: 'data/halyard.db' })
    .describe('The SQLite journal: market data, runs, intents, orders, fills'),
  /** The embedded sandbox exchange (symbols, assets, fees, accounts, limits, variants, admin). */
  sandbox: sandboxConfigSchema.default(() => sandboxConfigSchema.parse({})).describe('The embedded sandbox exchange (`halyard sandbox`, `halyard demo`): symbols, assets, accounts, limits, market agents; defaults in src/sandbox/config/'),
  log: z
    .strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('What the exchange client logs to stderr; --log-level overrides it') })
    .default({ level: 'info' }),
});

export type HalyardConfig = z.infer<typeof configSchema>;
export type ExchangeConfig = z.infer<typeof exchangeConfigSchema>;
