/**
 * The sandbox exchange's configuration (issue "Sandbox exchange"): strict (unknown keys are
 * errors), every default here or in `defaults.ts`, problems reported with their paths by `load.ts`.
 *
 * Variants (protocol notes) default to the spec's behaviour; the real service's behaviour is a
 * switch. The account secrets below are sandbox-only fakes, so unlike Halyard's own config they
 * may sit in a file.
 */
import { z } from 'zod';
import { marketAgentsConfigSchema } from '../agents/config.ts';
import { LimbAmount, parseAmount } from '../../core/portfolio/index.ts';
import { httpUrlSchema } from '../../config/urls.ts';
import { MAX_TIME_MS, MIN_TIME_MS } from '../persistence/bounds.ts';
import { filterSchema, zDecimalText } from './filters.ts';
import { ALL_ORDER_TYPES, DEFAULT_ACCOUNTS, DEFAULT_ASSETS, DEFAULT_BAN_SCHEDULE_MS, DEFAULT_SYMBOLS } from './defaults.ts';

const symbolSchema = z.strictObject({
  symbol: z.string().regex(/^[A-Z0-9]{2,20}$/, 'upper-case letters and digits'),
  status: z.enum(['TRADING', 'BREAK', 'CANCEL_ONLY']).default('TRADING'),
  baseAsset: z.string().min(1),
  baseAssetPrecision: z.number().int().min(0).max(18),
  quoteAsset: z.string().min(1),
  quoteAssetPrecision: z.number().int().min(0).max(18),
  orderTypes: z.array(z.enum(ALL_ORDER_TYPES)).default([...ALL_ORDER_TYPES]),
  filters: z.array(filterSchema),
  fees: z.strictObject({ maker: zDecimalText, taker: zDecimalText }).default({ maker: '0.001', taker: '0.001' }).describe('Commission rates as fractions ("0.001" = 0.1 %)'),
});

const networkSchema = z.strictObject({
  network: z.string().min(1),
  name: z.string(),
  depositEnable: z.boolean().default(true),
  withdrawEnable: z.boolean().default(true),
  withdrawFee: zDecimalText,
  withdrawMin: zDecimalText,
  withdrawMax: zDecimalText,
  withdrawIntegerMultiple: zDecimalText.default('0.00000001'),
  minConfirm: z.number().int().nonnegative().default(1),
  unLockConfirm: z.number().int().nonnegative().default(1),
  addressRegex: z.string().default(''),
  memoRegex: z.string().default(''),
  withdrawDesc: z.string().default(''),
  sameAddress: z.boolean().default(false),
});

const assetSchema = z.strictObject({
  coin: z.string().regex(/^[A-Z0-9]{2,12}$/, 'upper-case letters and digits'),
  name: z.string(),
  legalMoney: z.boolean().default(false),
  networks: z.array(networkSchema).default([]),
});

export const roleSchema = z.union([z.literal(0), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)]);

export const keySchema = z.strictObject({
  apiKey: z.string().min(8).optional(),
  secret: z.string().min(8).optional(),
  name: z.string().default('key'),
  roles: z.array(roleSchema).default([]).describe('Empty: every permission (spec 5.1.3). Role codes of spec 5.1.4'),
  ipList: z.array(z.string().min(1)).default([]),
  ipRestrict: z.boolean().default(false),
  requiresWhitelist: z.boolean().default(false),
  merchant: z.boolean().default(false),
  enabled: z.boolean().default(true),
});

/** A starting balance: a decimal that a balance can hold exactly (at most 2^53 - 1 whole units, 18 decimals). */
const zBalanceText = zDecimalText.refine(
  (v) => {
    try {
      new LimbAmount().units = parseAmount(v);
      return true;
    } catch {
      return false;
    }
  },
  { message: `must be a non-negative amount of at most ${Number.MAX_SAFE_INTEGER} whole units and 18 decimals` },
);

const accountSchema = z.strictObject({
  uid: z.string().regex(/^\d{1,19}$/, 'digits').optional(),
  email: z.email(),
  masterEmail: z.email().optional().describe('Makes this a virtual sub-account of the account with that e-mail (spec 4.9)'),
  balances: z.record(z.string(), zBalanceText).default({}),
  keys: z.array(keySchema).default([]),
});

const poolSchema = z.strictObject({ limit: z.number().int().positive(), windowMs: z.number().int().positive() });

export const sandboxConfigSchema = z.strictObject({
  listen: z
    .strictObject({ host: z.string().default('127.0.0.1'), port: z.number().int().min(0).max(65535).default(0).describe('0: any free port') })
    .prefault({})
    .describe('Where the server listens (`halyard sandbox --port` overrides the port)'),
  // http(s) only: the merchant signature signs this URL's scheme and host (notes 2.3).
  publicUrl: httpUrlSchema.optional().describe('Base URL callers use, when not the listen address (merchant signatures sign the host, notes 2.3)'),
  timezone: z.string().default('UTC').describe('The exchange time zone exchangeInfo reports'),
  symbols: z.array(symbolSchema).prefault(DEFAULT_SYMBOLS).describe('The symbols listed, with their filters and fees (default BTCPHP, ETHPHP, BTCUSDT, ETHUSDT, USDTPHP: src/sandbox/config/defaults.ts)'),
  assets: z.array(assetSchema).prefault(DEFAULT_ASSETS).describe('The assets and their networks (wallet, deposits, withdrawals)'),
  accounts: z.array(accountSchema).prefault(DEFAULT_ACCOUNTS).describe('The accounts, their keys and starting balances (sandbox-only fakes)'),
  maxSubAccounts: z.number().int().nonnegative().default(30).describe('Sub-accounts a master account may create'),
  rateLimits: z
    .strictObject({
      weightProfile: z.enum(['spec', 'real']).default('spec').describe('`spec`: IP 1200/min, UID 1800/min; `real`: IP 120/min, UID 180/min (notes 7)'),
      pools: z.strictObject({ IP: poolSchema.optional(), UID: poolSchema.optional(), ORDERS: poolSchema.optional() }).default({}).describe("Overrides of the profile's pool sizes; ORDERS is the order-rate limit (spec 8.4)"),
      strikesBeforeBan: z.number().int().min(1).default(3).describe('Requests sent while told to back off (after a 429) before the IP is banned (spec 8.5)'),
      strikeGraceMs: z
        .number()
        .int()
        .min(0)
        .default(1000)
        .describe('Requests arriving this long after a 429 are answered 429 but are no strike: they were on their way before the caller could read it'),
      banScheduleMs: z.array(z.number().int().positive()).min(1).default(DEFAULT_BAN_SCHEDULE_MS).describe('Ban length per repeat offence; the last entry repeats (spec 8.5: 2 minutes to 3 days)'),
      offenceMemoryMs: z.number().int().positive().default(7 * 24 * 3_600_000).describe('Offences are forgotten after this long without a ban'),
    })
    .prefault({})
    .describe('Rate limits and bans: the weight pools, strikes before an IP ban, the ban schedule (spec 8)'),
  auth: z
    .strictObject({
      recvWindowDefault: z.number().int().positive().default(5000),
      recvWindowMax: z.number().int().positive().default(60_000),
      futureToleranceMs: z.number().int().nonnegative().default(1000).describe('Spec 5.3: a timestamp up to this far ahead of server time is accepted'),
      merchantToleranceMs: z.number().int().positive().default(300_000).describe('Merchant X-Timestamp accepted within this distance of server time (unknown, notes 10)'),
    })
    .prefault({})
    .describe('Signed-request checks: recvWindow default and maximum, clock tolerances (spec 5.3)'),
  variants: z
    .strictObject({
      apiKeyHeader: z.string().min(1).default('X-SERVICE-APIKEY'),
      numbersAsStrings: z.boolean().default(false).describe('Notes 5.2: the real service writes many numbers as strings'),
      priceChangePercentAsFraction: z.boolean().default(true).describe('Notes 5.3: priceChangePercent is a fraction ("0.0144" = 1.44 %)'),
      publicTradeQuoteQtyIsBase: z.boolean().default(false).describe('Notes 5.4: public trade quoteQty carries the base quantity'),
      fiatTimestampOptional: z.boolean().default(false).describe('Notes 2.2: JSON-body (fiat) calls may omit `timestamp`'),
      recvWindowOptional: z
        .boolean()
        .default(false)
        .describe('Notes 2.5: accept a missing recvWindow where spec 4.3 requires it (crypto-accounts, the transfer query): 5000 applies'),
      legacyInvalidSymbolCode: z
        .boolean()
        .default(false)
        .describe('Notes 9: an unknown symbol answers the old-only -1121 "Invalid symbol." that older clients still map, instead of spec 7.3\'s -1025'),
      merchantTimestampUnits: z.array(z.enum(['ms', 'seconds'])).min(1).default(['ms', 'seconds']).describe('Notes 2.3: merchant X-Timestamp units accepted'),
    })
    .prefault({})
    .describe("The protocol notes' variants: the spec's behaviour by default, the real service's (or older clients') as a switch"),
  listenKeys: z
    .strictObject({
      ttlMs: z.number().int().positive().default(3_600_000),
      createsPerHour: z.number().int().positive().default(60).describe('New keys an account may create per hour of sandbox time (-1026 beyond; unpublished by the venue)'),
    })
    .prefault({})
    .describe('User-stream listen keys: lifetime and creations per hour (-1026 beyond)'),
  systemStatus: z.strictObject({ SPOT: z.enum(['on', 'off']).default('on'), CONVERT: z.enum(['on', 'off']).default('on') }).prefault({}).describe('Notes 6 check-sys-status answers'),
  admin: z.strictObject({ enabled: z.boolean().default(false), prefix: z.string().regex(/^\/[\w\-/]*[\w-]$/).default('/sandbox-admin/v1') }).prefault({}).describe('The admin API (accounts, balances, deposits, clock, fault injection); `halyard sandbox --admin` enables it'),
  // Invoice callbacks are HTTP POSTs (spec 6.1): a mailto: or ftp: URL could never be called.
  merchant: z.strictObject({ callbackUrl: httpUrlSchema.optional() }).prefault({}).describe('Where merchant invoice callbacks are POSTed'),
  // The start time stamps records the state file keeps: within its time bound (persistence/bounds.ts).
  clock: z.strictObject({ speed: z.number().nonnegative().default(1), startTime: z.number().int().min(MIN_TIME_MS).max(MAX_TIME_MS).optional() }).prefault({}).describe('The sandbox clock: speed (1 is real time) and start time (ms)'),
  // Off unless enabled, so an embedded sandbox is quiet and deterministic for tests.
  market: marketAgentsConfigSchema
    .prefault({ enabled: false })
    .describe('The living market (src/sandbox/agents): synthetic or replayed prices traded by liquidity and taker agents; off unless enabled (`halyard sandbox` and `npm start` turn it on)'),
  http: z
    .strictObject({
      bodyLimitBytes: z.number().int().positive().default(1_048_576),
      // A client that stalls mid-request is cut (408) after these, not held for minutes (issue 24).
      headersTimeoutMs: z.number().int().positive().default(5000),
      requestTimeoutMs: z.number().int().positive().default(10_000),
    })
    .prefault({})
    .describe('HTTP limits: body size (413 beyond) and how long a stalled request is held (408 after)'),
});

export type SandboxConfigInput = z.input<typeof sandboxConfigSchema>;
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
export type SandboxSymbolConfig = SandboxConfig['symbols'][number];
export type SandboxAssetConfig = SandboxConfig['assets'][number];
export type SandboxAccountConfig = SandboxConfig['accounts'][number];
export type SandboxKeyConfig = z.infer<typeof keySchema>;
