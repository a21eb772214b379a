/**
 * Halyard's configuration schema: every default in one place (design rule 10). Parsed once,
 * strictly, at the edge: unknown keys are errors, and every problem is reported with its path.
 * Secrets are never read from files, only from the environment (see load.ts).
 */
import { z } from 'zod';
import { sandboxConfigSchema } from '../sandbox/config/schema.ts';
import { httpUrlSchema, wsUrlSchema } from './urls.ts';

const poolSchema = z.strictObject({
  limit: z.number().int().positive(),
  windowMs: z.number().int().positive(),
});

export const exchangeConfigSchema = z.strictObject({
  /** REST base URL, http: or https:; the embedded sandbox's when unset (notes 1: REST and WS hosts differ in reality). */
  baseUrl: httpUrlSchema.optional(),
  /** WebSocket URL, ws: or wss:. */
  wsUrl: wsUrlSchema.optional(),
  /** Spec 5.1 header name; configurable for other deployment variants. */
  apiKeyHeader: z.string().min(1).default('X-SERVICE-APIKEY'),
  /** Spec 5.3: default 5000, maximum 60000. */
  recvWindow: z.number().int().min(1).max(60_000).default(5000),
  timeoutMs: z.number().int().positive().default(10_000),
  /**
   * Longest a call waits before its request leaves: for room in the weight budget, for a 429/418
   * pause to end, or before an automatic retry after a 429. Past it the call fails without sending.
   * Writes wait at most their timeoutMs (per call: `maxQueueMs`).
   */
  maxWaitMs: z.number().int().nonnegative().default(60_000),
  /** `spec`: weights and pools of the spec; `real`: the protocol notes' values (IP 120/min, UID 180/min). */
  weightProfile: z.enum(['spec', 'real']).default('spec'),
  /** Pool sizes; defaults follow weightProfile. */
  pools: z
    .strictObject({ IP: poolSchema.optional(), UID: poolSchema.optional(), ORDERS: poolSchema.optional() })
    .default({}),
  /** Named shares of a pool kept for one consumer, e.g. `{ "orders": { "IP": 200 } }`. */
  reservations: z.record(z.string(), z.strictObject({ IP: z.number().int().nonnegative().optional(), UID: z.number().int().nonnegative().optional(), ORDERS: z.number().int().nonnegative().optional() })).default({}),
  retry: z
    .strictObject({
      maxAttempts: z.number().int().min(1).max(10).default(3),
      baseDelayMs: z.number().int().nonnegative().default(250),
      maxDelayMs: z.number().int().nonnegative().default(5000),
    })
    .default({ maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 5000 }),
  merchant: z
    .strictObject({
      timestampUnit: z.enum(['ms', 'seconds']).default('ms'),
      bodyEncoding: z.enum(['json', 'form']).default('json'),
    })
    .default({ timestampUnit: 'ms', bodyEncoding: 'json' }),
  /** Clock sync: samples per estimate. */
  clockSamples: z.number().int().min(1).max(50).default(5),
  /**
   * Start of the client ids the client generates for writes sent without one (newClientOrderId,
   * withdrawOrderId, client_transfer_id, clientTranId; src/exchange/client/client-ids.ts).
   */
  clientIdPrefix: z.string().regex(/^[A-Za-z0-9_-]{0,10}$/, '0 to 10 of A-Z a-z 0-9 _ -').default('hc'),
});

export const configSchema = z.strictObject({
  exchange: exchangeConfigSchema.default(() => exchangeConfigSchema.parse({})),
  /** The SQLite journal (market data, runs, intents, orders, fills); `--journal` and HALYARD_JOURNAL override. */
  journal: z.strictObject({ path: z.string().min(1).default('data/halyard.db') }).default({ path: 'data/halyard.db' }),
  /** The embedded sandbox exchange (symbols, assets, fees, accounts, limits, variants, admin). */
  sandbox: sandboxConfigSchema.default(() => sandboxConfigSchema.parse({})),
  log: z.strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') }).default({ level: 'info' }),
});

export type HalyardConfig = z.infer<typeof configSchema>;
export type ExchangeConfig = z.infer<typeof exchangeConfigSchema>;
