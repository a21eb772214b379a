/**
 * Weight ledger: local metering of the venue's rate-limit pools (spec 8.1-8.4, protocol notes 7).
 *
 * The venue reports no usage (notes 7), so we count for ourselves. We meter a SLIDING window: the
 * weight charged in ANY interval of `windowMs` never exceeds `limit`. That is stricter than the
 * venue's fixed minute on purpose: it holds whatever the venue's window alignment is.
 * Proof sketch: the last charge inside any window saw every earlier charge of that window in its
 * own look-back, and was only admitted if the total stayed within the limit.
 *
 * Reservations guarantee a consumer part of a pool: everyone else shares `limit - sum(reservations)`;
 * a reserving consumer draws from its reservation first, then from the shared part. Each entry
 * records which part it used, so both parts are sliding windows in their own right.
 *
 * Pure: time comes in as numbers; memory is bounded by pruning entries older than the window.
 *
 * A client books a request before it leaves, the venue counts it when it arrives: later by the
 * request's own delays (a clock sync before it, the network), which differ from request to request.
 * A charge that left the client's window could then still be in the venue's, and a request sent in
 * its place is refused 429 (seen against the sandbox: test/live-startup-pacing.test.ts). So the
 * client moves each charge to the time its answer came back (`restamp`, with the receipt
 * `tryCharge` gave): the venue counted it before that, so it stays in the client's window at least
 * as long as in the venue's.
 */

export type PoolName = 'IP' | 'UID' | 'ORDERS';
export interface LedgerCharge {
  readonly pool: PoolName;
  readonly weight: number;
}
export interface PoolConfig {
  readonly name: PoolName;
  readonly limit: number;
  readonly windowMs: number;
}
export interface WeightLedgerConfig {
  readonly pools: readonly PoolConfig[];
  /** consumer -> pool -> weight per window guaranteed to that consumer. */
  readonly reservations?: Readonly<Record<string, Partial<Record<PoolName, number>>>>;
}
export type ChargeResult = { ok: true; receipt: ChargeReceipt } | { ok: false; waitMs: number; pool: PoolName };

/** What one charge booked, so `restamp` can move it (opaque to callers). */
export interface ChargeReceipt {
  readonly parts: readonly { readonly pool: PoolName; readonly entry: object }[];
}
export interface ChargeOptions {
  /** Pools where the consumer may use only its reservation (the budget's FIFO uses this). */
  readonly reservedOnly?: readonly PoolName[];
}

/** A charge that could never pass, however long the caller waited. */
export class ChargeExceedsLimitError extends Error {
  readonly code = 'CHARGE_EXCEEDS_LIMIT';
  readonly pool: PoolName;
  readonly weight: number;
  readonly max: number;
  constructor(pool: PoolName, weight: number, max: number, consumer: string | undefined) {
    super(`weight ${weight} on pool ${pool} can never pass: at most ${max} per window is available to ${consumer ?? 'shared callers'}`);
    this.name = 'ChargeExceedsLimitError';
    this.pool = pool;
    this.weight = weight;
    this.max = max;
  }
}

interface Entry {
  t: number;
  /** Set only when the consumer holds a reservation in this pool. */
  consumer: string | undefined;
  reserved: number;
  shared: number;
  /** Pruned: its weight has left the window. */
  gone: boolean;
}
interface PoolState {
  cfg: PoolConfig;
  sharedCap: number;
  reservations: Map<string, number>;
  /** Charges in time order; those before `head` have left the window (compacted lazily). */
  entries: Entry[];
  head: number;
  sharedUsed: number;
  reservedUsed: Map<string, number>;
}

export class WeightLedger {
  private readonly pools = new Map<PoolName, PoolState>();
  private lastNow = -Infinity;

  constructor(config: WeightLedgerConfig) {
    for (const cfg of config.pools) {
      if (!(cfg.limit >= 0) || !(cfg.windowMs > 0)) throw new RangeError(`pool ${cfg.name}: bad limit or window`);
      const reservations = new Map<string, number>();
      for (const [consumer, byPool] of Object.entries(config.reservations ?? {})) {
        const r = byPool[cfg.name] ?? 0;
        if (!(r >= 0)) throw new RangeError(`reservation ${consumer}/${cfg.name} must be >= 0`);
        if (r > 0) reservations.set(consumer, r);
      }
      const sharedCap = cfg.limit - [...reservations.values()].reduce((a, b) => a + b, 0);
      if (sharedCap < 0) throw new RangeError(`pool ${cfg.name}: reservations exceed the limit ${cfg.limit}`);
      this.pools.set(cfg.name, { cfg, sharedCap, reservations, entries: [], head: 0, sharedUsed: 0, reservedUsed: new Map() });
    }
  }

  /** Throws ChargeExceedsLimitError (or RangeError) for a charge that could never pass. */
  validate(charges: readonly LedgerCharge[], consumer?: string): void {
    for (const [pool, weight] of merge(charges)) {
      const s = this.state(pool);
      if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`pool ${pool}: bad weight ${weight}`);
      const max = reservationOf(s, consumer) + s.sharedCap;
      if (weight > max) throw new ChargeExceedsLimitError(pool, weight, max, consumer);
    }
  }

  /** All or nothing across pools. On refusal, `waitMs` is when every pool would fit (Infinity only under `reservedOnly`). */
  tryCharge(charges: readonly LedgerCharge[], now: number, consumer?: string, opts: ChargeOptions = {}): ChargeResult {
    this.validate(charges, consumer);
    now = this.tick(now);
    const merged = merge(charges);
    let worst: { waitMs: number; pool: PoolName } | undefined;
    for (const [pool, weight] of merged) {
      const waitMs = this.waitFor(this.state(pool), weight, now, consumer, opts.reservedOnly?.includes(pool) ?? false);
      if (waitMs > 0 && (!worst || waitMs > worst.waitMs)) worst = { waitMs, pool };
    }
    if (worst) return { ok: false, ...worst };
    const parts: { pool: PoolName; entry: Entry }[] = [];
    for (const [pool, weight] of merged) if (weight > 0) parts.push({ pool, entry: this.commit(this.state(pool), weight, now, consumer) });
    return { ok: true, receipt: { parts } };
  }

  /**
   * Count a booked charge from `now` instead of from when it was booked (its answer came back:
   * see the header). Usage never drops: the weight moves to a later entry, or comes back into the
   * window if it had left it already.
   */
  restamp(receipt: ChargeReceipt, now: number): void {
    now = this.tick(now);
    for (const part of receipt.parts) {
      const s = this.state(part.pool);
      const e = part.entry as Entry;
      const moved: Entry = { t: now, consumer: e.consumer, reserved: e.reserved, shared: e.shared, gone: false };
      if (moved.t <= e.t || moved.reserved + moved.shared === 0) continue;
      if (!e.gone) {
        s.sharedUsed -= e.shared;
        if (e.consumer !== undefined) s.reservedUsed.set(e.consumer, (s.reservedUsed.get(e.consumer) ?? 0) - e.reserved);
      }
      e.shared = 0;
      e.reserved = 0;
      s.sharedUsed += moved.shared;
      if (moved.consumer !== undefined) s.reservedUsed.set(moved.consumer, (s.reservedUsed.get(moved.consumer) ?? 0) + moved.reserved);
      s.entries.push(moved);
    }
  }

  /** Total weight charged within the window ending at `now`. */
  usage(pool: PoolName, now: number): number {
    const s = this.state(pool);
    this.tick(now);
    let used = s.sharedUsed;
    for (const r of s.reservedUsed.values()) used += r;
    return used;
  }

  /** Weight `consumer` (or a shared caller) could charge right now. */
  capacity(pool: PoolName, now: number, consumer?: string): number {
    const s = this.state(pool);
    this.tick(now);
    return reservationOf(s, consumer) - (s.reservedUsed.get(consumer ?? '') ?? 0) + s.sharedCap - s.sharedUsed;
  }

  reservation(pool: PoolName, consumer?: string): number {
    return reservationOf(this.state(pool), consumer);
  }

  config(pool: PoolName): PoolConfig {
    return this.state(pool).cfg;
  }

  private state(pool: PoolName): PoolState {
    const s = this.pools.get(pool);
    if (!s) throw new RangeError(`pool ${pool} is not configured`);
    return s;
  }

  /** Time never runs backwards for the ledger; prune everything that left its window. */
  private tick(now: number): number {
    this.lastNow = Math.max(this.lastNow, now);
    for (const s of this.pools.values()) {
      // Advance a head index instead of shifting the array on every call: O(1) amortised.
      while (s.head < s.entries.length) {
        const e = s.entries[s.head]!;
        if (e.t + s.cfg.windowMs > this.lastNow) break;
        s.sharedUsed -= e.shared;
        if (e.consumer !== undefined) s.reservedUsed.set(e.consumer, (s.reservedUsed.get(e.consumer) ?? 0) - e.reserved);
        e.gone = true;
        s.head++;
      }
      if (s.head > 1024 && s.head * 2 > s.entries.length) {
        s.entries.splice(0, s.head);
        s.head = 0;
      }
    }
    return this.lastNow;
  }

  /** 0 when it fits now, else the ms until enough old entries have left the window. */
  private waitFor(s: PoolState, weight: number, now: number, consumer: string | undefined, reservedOnly: boolean): number {
    const key = s.reservations.has(consumer ?? '') ? consumer : undefined;
    let free = reservationOf(s, key) - (key === undefined ? 0 : (s.reservedUsed.get(key) ?? 0));
    if (!reservedOnly) free += s.sharedCap - s.sharedUsed;
    if (weight <= free) return 0;
    for (let i = s.head; i < s.entries.length; i++) {
      const e = s.entries[i]!;
      free += (key !== undefined && e.consumer === key ? e.reserved : 0) + (reservedOnly ? 0 : e.shared);
      if (weight <= free) return Math.max(1, e.t + s.cfg.windowMs - now);
    }
    return Infinity;
  }

  private commit(s: PoolState, weight: number, now: number, consumer: string | undefined): Entry {
    const key = s.reservations.has(consumer ?? '') ? consumer : undefined;
    const used = key === undefined ? 0 : (s.reservedUsed.get(key) ?? 0);
    const reserved = Math.min(weight, reservationOf(s, key) - used);
    if (key !== undefined) s.reservedUsed.set(key, used + reserved);
    s.sharedUsed += weight - reserved;
    const entry: Entry = { t: now, consumer: key, reserved, shared: weight - reserved, gone: false };
    s.entries.push(entry);
    return entry;
  }
}

function reservationOf(s: PoolState, consumer: string | undefined): number {
  return consumer === undefined ? 0 : (s.reservations.get(consumer) ?? 0);
}

function merge(charges: readonly LedgerCharge[]): Map<PoolName, number> {
  const out = new Map<PoolName, number>();
  for (const c of charges) out.set(c.pool, (out.get(c.pool) ?? 0) + c.weight);
  return out;
}
