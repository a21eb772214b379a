/**
 * The async face of the weight ledger (spec 8.3-8.6, protocol notes 7; design rule 6): every request
 * is charged before it leaves, and a caller that does not fit WAITS on the injected clock instead
 * of overrunning the venue's limit.
 *
 * Fairness: waiters are served in FIFO order per pool, so a big request is not starved by a stream
 * of small ones; a waiter that does not fit blocks later waiters on the same pools (its shared part,
 * or its own reservation). A consumer with a reservation still passes a blocked shared queue when
 * the charge fits inside its reservation: that is what the reservation is for.
 *
 * 429/418 (spec 8.4-8.6): EVERY caller pauses, for as long as `RateLimitPause` says (Retry-After,
 * exponential back-off for a 429 that has none, an escalating ban of at least 2 minutes for a 418
 * that has none). Idle means no timer is pending.
 *
 * Deadlines: a caller may bound its wait (`maxWaitMs`). One that cannot be granted within it is
 * rejected with `BudgetWaitError`, having booked nothing and so sent nothing: at once when a pause
 * already runs past its deadline or its own charge cannot fit before then, else when the deadline
 * passes while it queues.
 */
import type { Clock } from '../../ports/clock.ts';
import { WeightLedger, type ChargeReceipt, type WeightLedgerConfig } from '../../core/risk/weight-ledger.ts';
import type { Pool, WeightCharge } from '../endpoints/types.ts';
import { RateLimitPause, type BackoffOptions, type RateLimitNotice } from './rate-limit-pause.ts';

export type { RateLimitNotice } from './rate-limit-pause.ts';

export interface WeightBudgetOptions extends BackoffOptions {
  readonly clock: Clock;
  readonly config: WeightLedgerConfig;
}
export interface AcquireOptions {
  readonly consumer?: string;
  readonly signal?: AbortSignal;
  /** Longest wait for the grant, in ms on the budget's clock (default: no bound). */
  readonly maxWaitMs?: number | undefined;
}

/** A caller could not be granted within its `maxWaitMs`: nothing was booked, nothing may be sent. */
export class BudgetWaitError extends Error {
  /** `paused`: a 429/418 pause runs past the deadline; `capacity`: the pools had no room in time. */
  readonly reason: 'paused' | 'capacity';
  readonly maxWaitMs: number;
  readonly waitedMs: number;
  /** When the pause ends (reason `paused`), or when the charge could fit at the earliest, if known. */
  readonly until: number | undefined;
  /** The pause is an IP ban (418). */
  readonly banned: boolean;
  constructor(init: { reason: 'paused' | 'capacity'; maxWaitMs: number; waitedMs: number; until: number | undefined; banned: boolean }) {
    const why =
      init.reason === 'paused'
        ? `${init.banned ? 'the IP is banned (418)' : 'sending is paused after a 429'}${init.until === undefined ? '' : ` until ${new Date(init.until).toISOString()}`}`
        : 'the weight budget had no room';
    super(`${why}: not granted within ${init.maxWaitMs} ms; nothing was sent`);
    this.name = 'BudgetWaitError';
    this.reason = init.reason;
    this.maxWaitMs = init.maxWaitMs;
    this.waitedMs = init.waitedMs;
    this.until = init.until;
    this.banned = init.banned;
  }
}
export interface BudgetSnapshot {
  now: number;
  pausedUntil: number;
  /** What set `pausedUntil`: 418 (ban) or 429. */
  pauseCause: 429 | 418 | undefined;
  backoffStep: number;
  queued: number;
  lastRateLimit: (RateLimitNotice & { at: number }) | undefined;
  pools: { pool: Pool; limit: number; windowMs: number; usage: number; capacity: number }[];
}

interface Waiter {
  charges: WeightCharge[];
  consumer: string | undefined;
  /** Queued at, and the latest time it may be granted (Infinity: no bound). */
  since: number;
  deadline: number;
  maxWaitMs: number;
  resolve: (booked: BudgetBooking) => void;
  reject: (reason: unknown) => void;
  cleanup: () => void;
}

/** What `acquire` booked: hand it to `settle` when the request's answer (or failure) came back. */
export interface BudgetBooking {
  readonly receipt: ChargeReceipt;
}

export class WeightBudget {
  private readonly clock: Clock;
  private readonly ledger: WeightLedger;
  private readonly pools: readonly Pool[];
  private readonly pause: RateLimitPause;
  private queue: Waiter[] = [];
  private timer: { at: number; ctrl: AbortController } | undefined;

  constructor(opts: WeightBudgetOptions) {
    this.clock = opts.clock;
    this.ledger = new WeightLedger(opts.config);
    this.pools = opts.config.pools.map((p) => p.name);
    this.pause = new RateLimitPause(opts);
  }

  get pausedUntil(): number {
    return this.pause.pausedUntil;
  }

  /** Resolves once the charges are booked (with the booking for `settle`); rejects at once for a charge that could never pass. */
  acquire(charges: readonly WeightCharge[], opts: AcquireOptions = {}): Promise<BudgetBooking> {
    const { consumer, signal } = opts;
    try {
      this.ledger.validate(charges, consumer);
    } catch (err) {
      return Promise.reject(err);
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.clock.now();
    const maxWaitMs = opts.maxWaitMs === undefined ? Infinity : Math.max(0, opts.maxWaitMs);
    return new Promise<BudgetBooking>((resolve, reject) => {
      const w: Waiter = {
        charges: charges.filter((c) => c.weight > 0),
        consumer,
        since: now,
        deadline: now + maxWaitMs,
        maxWaitMs,
        resolve,
        reject,
        cleanup: () => {},
      };
      if (signal) {
        const onAbort = (): void => {
          this.queue = this.queue.filter((x) => x !== w);
          reject(signal.reason);
          this.drain(); // it may have been blocking others
        };
        signal.addEventListener('abort', onAbort, { once: true });
        w.cleanup = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(w);
      this.drain();
    });
  }

  /**
   * The request booked by `acquire` was answered (or failed) now: its charge counts from now, as
   * the venue counted it on arrival, before this (core/risk/weight-ledger.ts `restamp`). Holds the
   * weight longer, never frees any: no waiter can be granted by it.
   */
  settle(booked: BudgetBooking): void {
    this.ledger.restamp(booked.receipt, this.clock.now());
  }

  /** Call on every 429/418: pauses every caller, queued or future. Returns the new `pausedUntil`. */
  onRateLimited(notice: RateLimitNotice): number {
    const until = this.pause.note(notice, this.clock.now());
    this.drain();
    return until;
  }

  /** What set the current pause: 418 (ban) or 429. */
  get pauseCause(): 429 | 418 | undefined {
    return this.pause.pauseCause;
  }

  snapshot(): BudgetSnapshot {
    const now = this.clock.now();
    const pools = this.pools.map((pool) => {
      const { limit, windowMs } = this.ledger.config(pool);
      return { pool, limit, windowMs, usage: this.ledger.usage(pool, now), capacity: this.ledger.capacity(pool, now) };
    });
    const { pausedUntil, pauseCause, backoffStep, lastNotice: lastRateLimit } = this.pause;
    return { now, pausedUntil, pauseCause, backoffStep, queued: this.queue.length, lastRateLimit, pools };
  }

  /** Grant every waiter that fits, in order; then sleep until the earliest one could. */
  private drain(): void {
    const now = this.clock.now();
    if (this.queue.length === 0) return this.cancelTimer();
    const pausedUntil = this.pause.pausedUntil;
    if (now < pausedUntil) {
      // Nobody is granted before the pause ends: those whose deadline comes first give up now.
      for (const w of [...this.queue]) if (w.deadline < pausedUntil) this.expire(w, now, 'paused', pausedUntil);
      if (this.queue.length === 0) return this.cancelTimer();
      return this.schedule(pausedUntil);
    }
    const blocked = new Set<string>();
    let next = Infinity;
    for (const w of [...this.queue]) {
      const reservedOnly = this.plan(w, blocked);
      if (!reservedOnly) {
        if (now >= w.deadline) this.expire(w, now, 'capacity', undefined);
        continue;
      }
      const r = this.ledger.tryCharge(w.charges, now, w.consumer, { reservedOnly });
      if (r.ok) {
        this.queue = this.queue.filter((x) => x !== w);
        w.cleanup();
        w.resolve({ receipt: r.receipt });
      } else if (now + r.waitMs > w.deadline) {
        // Its own charge cannot fit before its deadline, whatever the others do.
        this.expire(w, now, 'capacity', now + r.waitMs);
      } else {
        for (const c of w.charges) this.keys(c, w.consumer, true).forEach((k) => blocked.add(k));
        next = Math.min(next, r.waitMs);
      }
    }
    if (this.queue.length === 0) return this.cancelTimer();
    const deadline = Math.min(...this.queue.map((w) => w.deadline));
    const at = Math.min(now + next, deadline);
    if (Number.isFinite(at)) this.schedule(at);
  }

  /** Give up on a waiter: it leaves the queue having booked nothing. */
  private expire(w: Waiter, now: number, reason: 'paused' | 'capacity', until: number | undefined): void {
    this.queue = this.queue.filter((x) => x !== w);
    w.cleanup();
    w.reject(new BudgetWaitError({ reason, maxWaitMs: w.maxWaitMs, waitedMs: now - w.since, until, banned: reason === 'paused' && this.pause.pauseCause === 418 }));
  }

  /** undefined when an earlier waiter blocks `w`; else the pools where it may use only its reservation. */
  private plan(w: Waiter, blocked: ReadonlySet<string>): Pool[] | undefined {
    const reservedOnly: Pool[] = [];
    for (const c of w.charges) {
      const [own] = this.keys(c, w.consumer, false);
      if (own === undefined || blocked.has(own)) return undefined;
      if (own.endsWith('|*') || !blocked.has(`${c.pool}|*`)) continue;
      if (c.weight > this.ledger.reservation(c.pool, w.consumer)) return undefined;
      reservedOnly.push(c.pool);
    }
    return reservedOnly;
  }

  /** Queue keys a charge lives in: its reservation or the shared part (and the shared part too when it overflows). */
  private keys(c: WeightCharge, consumer: string | undefined, onFail: boolean): string[] {
    const reserved = this.ledger.reservation(c.pool, consumer);
    if (reserved === 0) return [`${c.pool}|*`];
    const own = `${c.pool}|r:${consumer ?? ''}`;
    return onFail && c.weight > reserved ? [own, `${c.pool}|*`] : [own];
  }

  private schedule(at: number): void {
    if (this.timer && this.timer.at <= at) return; // an earlier wake-up will reschedule
    this.cancelTimer();
    const ctrl = new AbortController();
    this.timer = { at, ctrl };
    this.clock.sleep(at - this.clock.now(), ctrl.signal).then(
      () => {
        if (this.timer?.ctrl !== ctrl) return;
        this.timer = undefined;
        this.drain();
      },
      () => {}, // cancelled
    );
  }

  private cancelTimer(): void {
    this.timer?.ctrl.abort();
    this.timer = undefined;
  }
}
