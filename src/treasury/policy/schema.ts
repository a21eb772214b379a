/**
 * The treasury policy (issue 23 deliverable 1): what every account should hold, who feeds whom,
 * how big a move may be, how much worse than the book a conversion may be, and where money may
 * leave to. Strict like the rest of the config (an unknown key is an error naming the key it was
 * meant to be); every problem at once, each with its path (ConfigError, via parse.ts).
 *
 * It sits under `treasury` in the bot config (src/bot/config.ts) and may be a file of its own for
 * `halyard treasury plan --config FILE` (parse.ts reads either).
 *
 * Bands are per account and asset (spec 2.7 balances, 2.12 sub-account balances): a weight of the
 * account's equity valued in `valuation` (`target` +/- `band`, percent), and/or amounts: `min`
 * (kept free: "keep at least 20000 PHP free"), `max` (more is swept to the feeding account).
 * Bands that cannot hold together whatever the balances (targets over 100 %, min above max) are
 * refused here; those that depend on the balances (a min above what the weight band allows at
 * this equity) are refused by the planner before anything is sent (plan/conflicts.ts).
 *
 * Destinations (spec 4.2 withdraw apply, 4.8 cash-out): a withdrawal's address is checked against
 * the coin and network's `addressRegex` with the venue's coin configuration (venue-checks.ts).
 */
import { z } from 'zod';
import { isDecimalText } from '../../core/money/decimal.ts';
import { MASTER } from '../moves.ts';

/** A positive decimal amount as text (money is never a float): zero and negative named as such. */
export const positiveAmount = z.string().superRefine((s, ctx) => {
  if (!isDecimalText(s) || /e/i.test(s)) ctx.addIssue({ code: 'custom', message: `expected a decimal amount as a string, e.g. "1000.5" (got ${JSON.stringify(s)})` });
  else if (s.trim().startsWith('-') && Number(s) !== 0) ctx.addIssue({ code: 'custom', message: `an amount must be greater than 0 (got ${s}: negative)` });
  else if (Number(s) === 0) ctx.addIssue({ code: 'custom', message: `an amount must be greater than 0 (got ${s})` });
});

export const assetName = z.string().regex(/^[A-Z0-9]{1,20}$/, 'an asset such as PHP or BTC (A-Z, 0-9)');

/** `master` or a sub-account's email (spec 4.9 `<sub_account_email>`). */
export const accountName = z.string().refine((s) => s === MASTER || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), { message: "'master' or a sub-account's email" });

/** Percent of an account's equity, 0..100 (a number: not money). */
const percent = z.number().finite().min(0, 'a percent from 0 to 100').max(100, 'a percent from 0 to 100');

export const assetBandSchema = z
  .strictObject({
    /** Target weight, percent of the account's equity in `valuation`. */
    target: percent.optional(),
    /** Allowed distance from the target, in percentage points: BTC 30 +/- 5 holds from 25 % to 35 %. */
    band: percent.optional(),
    /** Keep at least this much free (strategies spend from it); below it, the account is fed. */
    min: positiveAmount.optional(),
    /** Hold at most this much; above it, the rest goes to the account this one feeds. */
    max: positiveAmount.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.target === undefined && b.min === undefined && b.max === undefined) ctx.addIssue({ code: 'custom', message: 'give a target (with band), a min, or a max' });
    if (b.target !== undefined && b.band === undefined) ctx.addIssue({ code: 'custom', path: ['band'], message: `a target needs its band (e.g. "band": 5 for ${b.target} +/- 5 %)` });
    if (b.band !== undefined && b.target === undefined) ctx.addIssue({ code: 'custom', path: ['target'], message: 'a band needs its target' });
    if (b.min !== undefined && b.max !== undefined && isDecimalText(b.min) && isDecimalText(b.max) && Number(b.min) > Number(b.max)) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: `min ${b.min} is above max ${b.max}: both cannot hold` });
    }
  });

export const accountPolicySchema = z.strictObject({
  /** Per asset: its band in this account. Assets not listed are left as they are (except `cash`). */
  assets: z.record(z.string(), assetBandSchema),
  /** The asset conversions are settled in (what is sold to buy an underweight asset); default `valuation`. */
  cash: assetName.optional(),
  /** Every free balance goes to the master (a sub-account only): the planner may use fund collection (spec 4.9). */
  sweep: z.boolean().default(false),
});

const withdrawDestination = z.strictObject({
  kind: z.literal('withdraw'),
  coin: assetName,
  network: z.string().min(1, 'a network from the coin configuration (wallet config getall)'),
  address: z.string().min(1, 'the address (it must also be on the venue\'s withdrawal whitelist)'),
  addressTag: z.string().min(1).optional(),
});

const cashOutDestination = z.strictObject({
  kind: z.literal('cash-out'),
  /** Spec 4.8: PHP only. */
  currency: z.literal('PHP', { error: 'fiat cash-out is PHP only (spec 4.8)' }),
  channelName: z.enum(['INSTAPAY', 'SWIFTPAY_PESONET'], { error: "channelName: 'INSTAPAY' or 'SWIFTPAY_PESONET' (spec 4.8)" }),
  channelSubject: z.string().min(1, 'the channel code (spec 4.8 channelSubject)'),
  recipientName: z.string().min(1).optional(),
  recipientAccountNumber: z.string().min(1).optional(),
  recipientAddress: z.string().min(1).optional(),
  remarks: z.string().min(1).optional(),
});

export const destinationSchema = z.discriminatedUnion('kind', [withdrawDestination, cashOutDestination], { error: "a destination's kind is 'withdraw' or 'cash-out'" });

/** Money that leaves: when `account` holds more than `above` of `asset`, the rest goes to `destination` (only with approval). */
const payoutSchema = z.strictObject({
  account: accountName.default(MASTER),
  asset: assetName,
  above: positiveAmount,
  destination: z.string().min(1),
});

const feedSchema = z.strictObject({ from: accountName, to: accountName });

export const treasuryPolicySchema = z
  .strictObject({
    /** The asset equity and weights are counted in (prices: book-ticker mids into it). */
    valuation: assetName.default('PHP'),
    accounts: z.record(z.string(), accountPolicySchema).default({}),
    /**
     * Which accounts feed which: on an edge money may move from `from` to `to` (`from` covers `to`'s
     * shortfalls; `from`'s surplus goes to `to`). Default: the master feeds every listed sub-account
     * and each feeds the master. The master is on every edge: conversions happen there.
     */
    feeds: z.array(feedSchema).optional(),
    limits: z
      .strictObject({
        /** Largest single move per asset (amount of the asset moved; a convert counts its source). Larger moves are split. */
        maxPerMove: z.record(z.string(), positiveAmount).default({}),
        /** Most moved per asset per UTC day (counting what moved earlier that day). */
        maxPerDay: z.record(z.string(), positiveAmount).default({}),
        /** Moves worth less than this (in `valuation`) are not proposed: dust. */
        minMoveValue: positiveAmount.optional(),
      })
      .prefault({}),
    convert: z
      .strictObject({
        /** How much worse than the book mid a quote may be, basis points (spec 4.6 quote vs 4.4 book ticker). */
        slippageBps: z.number().int().min(0).max(10_000).default(50),
        /** New quotes fetched after an expired one before the move fails. */
        quoteRefreshes: z.number().int().min(0).max(20).default(3),
      })
      .prefault({}),
    destinations: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a name of 1..40 characters A-Z a-z 0-9 _ -'), destinationSchema).default({}),
    payouts: z.array(payoutSchema).default([]),
    /** The bot's rebalancer (`halyard run`): internal moves only, every `everyMs`. */
    schedule: z
      .strictObject({
        enabled: z.boolean().default(true),
        everyMs: z.number().int().min(1000, 'at least 1000 ms').default(300_000),
        /** First run this long after the bot is trading. */
        firstAfterMs: z.number().int().min(0).default(60_000),
      })
      .prefault({}),
  })
  .superRefine((p, ctx) => {
    // Record keys are checked here, so the message says what a key should be (zod's says only "Invalid key").
    const key = (schema: z.ZodType, k: string, path: (string | number)[]) => {
      const r = schema.safeParse(k);
      if (!r.success) ctx.addIssue({ code: 'custom', path, message: `'${k}': ${r.error.issues[0]?.message ?? 'not allowed here'}` });
    };
    for (const [account, a] of Object.entries(p.accounts)) {
      key(accountName, account, ['accounts', account]);
      for (const asset of Object.keys(a.assets)) key(assetName, asset, ['accounts', account, 'assets', asset]);
      const targets = Object.values(a.assets).reduce((s, b) => s + (b.target ?? 0), 0);
      if (targets > 100 + 1e-9) ctx.addIssue({ code: 'custom', path: ['accounts', account, 'assets'], message: `target weights sum to ${round(targets)} %, over 100 %: they cannot all hold at once` });
      if (a.sweep && account === MASTER) ctx.addIssue({ code: 'custom', path: ['accounts', account, 'sweep'], message: 'sweep is for sub-accounts (their free balances go to the master)' });
    }
    const known = new Set([MASTER, ...Object.keys(p.accounts)]);
    (p.feeds ?? []).forEach((f, i) => {
      for (const side of ['from', 'to'] as const) {
        if (!known.has(f[side])) ctx.addIssue({ code: 'custom', path: ['feeds', i, side], message: `unknown account '${f[side]}': not under accounts` });
      }
      if (f.from === f.to) ctx.addIssue({ code: 'custom', path: ['feeds', i], message: 'an account cannot feed itself' });
      else if (f.from !== MASTER && f.to !== MASTER) ctx.addIssue({ code: 'custom', path: ['feeds', i], message: 'one side of a feed is the master: conversions happen there, so money between sub-accounts goes through it' });
    });
    for (const k of Object.keys(p.limits.maxPerMove)) key(assetName, k, ['limits', 'maxPerMove', k]);
    for (const k of Object.keys(p.limits.maxPerDay)) key(assetName, k, ['limits', 'maxPerDay', k]);
    for (const asset of [...Object.keys(p.limits.maxPerMove), ...Object.keys(p.limits.maxPerDay)]) {
      const move = p.limits.maxPerMove[asset];
      const day = p.limits.maxPerDay[asset];
      if (move !== undefined && day !== undefined && Number(move) > Number(day)) ctx.addIssue({ code: 'custom', path: ['limits', 'maxPerMove', asset], message: `${move} per move is above ${day} per day` });
    }
    p.payouts.forEach((o, i) => {
      const d = p.destinations[o.destination];
      if (d === undefined) {
        ctx.addIssue({ code: 'custom', path: ['payouts', i, 'destination'], message: `unknown destination '${o.destination}' (destinations: ${Object.keys(p.destinations).join(', ') || 'none'})` });
        return;
      }
      const asset = d.kind === 'withdraw' ? d.coin : d.currency;
      if (asset !== o.asset) ctx.addIssue({ code: 'custom', path: ['payouts', i, 'asset'], message: `destination '${o.destination}' takes ${asset}, not ${o.asset}` });
      if (o.account !== MASTER) ctx.addIssue({ code: 'custom', path: ['payouts', i, 'account'], message: 'money leaves from the master account (its key withdraws and cashes out)' });
      const band = p.accounts[o.account]?.assets[o.asset];
      if (band?.min !== undefined && Number(o.above) < Number(band.min)) {
        ctx.addIssue({ code: 'custom', path: ['payouts', i, 'above'], message: `${o.above} is below the band's min ${band.min} of ${o.asset}: the payout would empty what the band keeps` });
      }
    });
  });

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export type TreasuryPolicy = z.infer<typeof treasuryPolicySchema>;
export type TreasuryPolicyInput = z.input<typeof treasuryPolicySchema>;
export type AccountPolicy = TreasuryPolicy['accounts'][string];
export type AssetBand = AccountPolicy['assets'][string];
export type Destination = z.infer<typeof destinationSchema>;
export type WithdrawDestination = Extract<Destination, { kind: 'withdraw' }>;
export type CashOutDestination = Extract<Destination, { kind: 'cash-out' }>;

/** The feed edges in force (the default when none are listed). */
export function feedsOf(p: TreasuryPolicy): { from: string; to: string }[] {
  if (p.feeds !== undefined) return p.feeds;
  const subs = Object.keys(p.accounts).filter((a) => a !== MASTER).sort();
  return subs.flatMap((s) => [
    { from: MASTER, to: s },
    { from: s, to: MASTER },
  ]);
}
