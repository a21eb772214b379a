/**
 * Server-side rate limits (spec 8.1-8.6, protocol notes 7), metered with the same WeightLedger and
 * endpoint weights (`chargesFor`) the client uses, so both sides agree on every call's cost.
 *
 * - Request weight: one sliding-window pool per IP (spec 8.2: limits are per IP) and one per UID
 *   for "Weight(UID)" endpoints (an unauthenticated UID charge falls back to the IP pool).
 *   Over the limit: 429, `Retry-After` = seconds until the charge would fit, code -1003.
 * - Back-off: while a 429's Retry-After has not passed, each further request from that IP is a
 *   strike answered 429 again, except in the first `strikeGraceMs` after the 429 (requests
 *   already in flight when it was sent: a well-behaved client with several requests out would
 *   otherwise be banned for one 429); `strikesBeforeBan` strikes ban the IP: 418 with Retry-After until
 *   the ban ends. Ban lengths follow `banScheduleMs` per repeat offence (2 minutes .. 3 days);
 *   offences are forgotten after `offenceMemoryMs` without a ban. During a ban every request
 *   gets 418 at once.
 * - Order rate (spec 8.4): counted per IP and per UID; over it: 429 WITHOUT Retry-After, -1015,
 *   and no back-off state (the caller is expected to back off exponentially, notes 7).
 * Time is the BASE clock (wall time, or a VirtualClock in tests): Retry-After is real seconds.
 */
import { WeightLedger, type PoolName } from '../../core/risk/weight-ledger.ts';
import type { WeightCharge } from '../../exchange/endpoints/types.ts';
import type { PoolLimit } from '../../exchange/rate/pool-config.ts';

export interface RateLimitSettings {
  pools: Record<PoolName, PoolLimit>;
  strikesBeforeBan: number;
  /** After a 429, how long further requests are answered 429 without counting as strikes. */
  strikeGraceMs: number;
  banScheduleMs: readonly number[];
  offenceMemoryMs: number;
}

export type RateVerdict =
  | { ok: true }
  | { ok: false; status: 429 | 418; code: number; msg: string; retryAfterSeconds?: number | undefined };

interface IpState {
  backoffUntil: number;
  /** When the 429 that started the back-off was answered. */
  backoffSince: number;
  strikes: number;
  bannedUntil: number;
  offences: number;
  lastBanAt: number;
}

export class SandboxRateLimiter {
  private readonly ipLedgers = new Map<string, WeightLedger>();
  private readonly uidLedgers = new Map<string, WeightLedger>();
  private readonly ips = new Map<string, IpState>();

  constructor(readonly settings: RateLimitSettings) {}

  admit(ip: string, uid: string | undefined, charges: readonly WeightCharge[], now: number): RateVerdict {
    const state = this.state(ip);
    if (now < state.bannedUntil) return this.banned(state, now);
    if (now < state.backoffUntil) {
      if (now - state.backoffSince >= this.settings.strikeGraceMs) state.strikes++;
      if (state.strikes >= this.settings.strikesBeforeBan) return this.ban(state, now);
      return this.tooMany('IP', state.backoffUntil - now);
    }
    state.strikes = 0;

    const weights = merge(charges.filter((c) => c.pool !== 'ORDERS').map((c) => (c.pool === 'UID' && uid === undefined ? { ...c, pool: 'IP' as const } : c)));
    const ipWeights = weights.filter((c) => c.pool === 'IP');
    const uidWeights = weights.filter((c) => c.pool === 'UID');
    const ipLedger = this.ledger(this.ipLedgers, ip, 'IP');
    const uidLedger = uid === undefined ? undefined : this.ledger(this.uidLedgers, uid, 'UID');
    const refusals = [fits(ipLedger, ipWeights, now), uidLedger ? fits(uidLedger, uidWeights, now) : undefined].filter(
      (r): r is { pool: PoolName; waitMs: number } => r !== undefined,
    );
    if (refusals.length > 0) {
      const worst = refusals.reduce((a, b) => (b.waitMs > a.waitMs ? b : a));
      state.backoffUntil = now + worst.waitMs;
      state.backoffSince = now;
      return this.tooMany(worst.pool, worst.waitMs);
    }
    ipLedger.tryCharge(ipWeights, now);
    if (uidLedger) uidLedger.tryCharge(uidWeights, now);

    const orders = charges.find((c) => c.pool === 'ORDERS');
    if (orders) {
      const ledgers = uidLedger ? [ipLedger, uidLedger] : [ipLedger];
      if (ledgers.some((l) => fits(l, [orders], now) !== undefined)) return this.tooManyOrders();
      for (const l of ledgers) l.tryCharge([orders], now);
    }
    return { ok: true };
  }

  /** Forget usage, back-off and bans (of one IP, or all). */
  reset(ip?: string): void {
    if (ip === undefined) {
      this.ipLedgers.clear();
      this.uidLedgers.clear();
      this.ips.clear();
      return;
    }
    this.ipLedgers.delete(ip);
    this.ips.delete(ip);
  }

  private ban(state: IpState, now: number): RateVerdict {
    if (now - state.lastBanAt > this.settings.offenceMemoryMs) state.offences = 0;
    const schedule = this.settings.banScheduleMs;
    const length = schedule[Math.min(state.offences, schedule.length - 1)] ?? 120_000;
    state.offences++;
    state.lastBanAt = now;
    state.bannedUntil = now + length;
    state.strikes = 0;
    state.backoffUntil = 0;
    return this.banned(state, now);
  }

  private banned(state: IpState, now: number): RateVerdict {
    return {
      ok: false,
      status: 418,
      code: -1003,
      msg: `Way too many requests; IP banned until ${state.bannedUntil}. Please use the rate limits and back off on 429.`,
      retryAfterSeconds: seconds(state.bannedUntil - now),
    };
  }

  private tooMany(pool: PoolName, waitMs: number): RateVerdict {
    const p = this.settings.pools[pool];
    const who = pool === 'UID' ? 'UID ' : '';
    return {
      ok: false,
      status: 429,
      code: -1003,
      msg: `Too many requests; current ${who}limit is ${p.limit} requests per ${windowText(p.windowMs)}.`,
      retryAfterSeconds: seconds(waitMs),
    };
  }

  private tooManyOrders(): RateVerdict {
    const p = this.settings.pools.ORDERS;
    return { ok: false, status: 429, code: -1015, msg: `Too many new orders; current limit is ${p.limit} orders per ${windowText(p.windowMs)}.` };
  }

  private state(ip: string): IpState {
    let s = this.ips.get(ip);
    if (!s) this.ips.set(ip, (s = { backoffUntil: 0, backoffSince: 0, strikes: 0, bannedUntil: 0, offences: 0, lastBanAt: -Infinity }));
    return s;
  }

  private ledger(map: Map<string, WeightLedger>, id: string, pool: 'IP' | 'UID'): WeightLedger {
    let l = map.get(id);
    if (!l) {
      const { IP, UID, ORDERS } = this.settings.pools;
      const weight = pool === 'IP' ? IP : UID;
      l = new WeightLedger({ pools: [{ name: pool, ...weight }, { name: 'ORDERS', ...ORDERS }] });
      map.set(id, l);
    }
    return l;
  }
}

/** Undefined when the charges fit now; a charge larger than the whole pool waits a full window. */
function fits(ledger: WeightLedger, charges: readonly WeightCharge[], now: number): { pool: PoolName; waitMs: number } | undefined {
  for (const c of charges) {
    if (c.weight <= ledger.capacity(c.pool, now)) continue;
    const { limit, windowMs } = ledger.config(c.pool);
    if (c.weight > limit) return { pool: c.pool, waitMs: windowMs };
    // Capacity says it cannot fit, so tryCharge refuses (commits nothing) and tells the wait.
    const r = ledger.tryCharge([c], now);
    return { pool: c.pool, waitMs: r.ok ? 0 : Number.isFinite(r.waitMs) ? r.waitMs : windowMs };
  }
  return undefined;
}

/** One charge per pool. */
function merge(charges: readonly WeightCharge[]): WeightCharge[] {
  const by = new Map<WeightCharge['pool'], number>();
  for (const c of charges) by.set(c.pool, (by.get(c.pool) ?? 0) + c.weight);
  return [...by].map(([pool, weight]) => ({ pool, weight }));
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export function windowText(ms: number): string {
  if (ms === 60_000) return 'minute';
  if (ms === 1000) return 'second';
  if (ms === 3_600_000) return 'hour';
  return ms % 1000 === 0 ? `${ms / 1000} seconds` : `${ms} ms`;
}
