/**
 * How long to stop sending after a 429 or 418 (spec 7.1, 8.4-8.6, protocol notes 7).
 *
 * - 429 with `Retry-After`: pause that long, but at least `minRetryAfterMs` (default 1 s): a
 *   `Retry-After: 0` must not turn into back-to-back requests, which is what earns a ban (8.5).
 * - 429 without it (the order-rate 429 of spec 8.4, or any other): back off 1 s, 2 s, 4 s ...
 *   capped at 60 s. The step count resets once a full quiet window has passed after the last
 *   back-off ended.
 * - 418 (IP banned, 8.5: "from 2 minutes to 3 days", growing for repeat offenders): with a
 *   `Retry-After` of at least 1 s, pause that long. Without one (or with 0), pause the spec's
 *   minimum ban, 2 minutes, doubling for each further such ban (4, 8 ... minutes, capped at 3 days);
 *   that step count resets after a quiet day. Continued requests lengthen a ban, so nothing is sent
 *   until it is over.
 *
 * A notice that arrives while a pause of the same kind is running came from a request sent before it
 * began: the same episode, so it does not escalate. A shorter pause never shortens a longer one.
 */

export interface RateLimitNotice {
  readonly status: 429 | 418;
  readonly retryAfterMs?: number | undefined;
  /** An order-rate 429 (spec 8.4, -1015): informational, it backs off like any 429 without Retry-After. */
  readonly orderRate?: boolean | undefined;
}

export interface BackoffOptions {
  /** First back-off step (default 1 s), doubled per repeat up to `maxBackoffMs` (default 60 s). */
  readonly baseBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Quiet time after a back-off that resets the steps (default 60 s, one venue window). */
  readonly backoffResetMs?: number;
  /** Floor under a 429's Retry-After (default 1 s). */
  readonly minRetryAfterMs?: number;
  /** A 418 without a usable Retry-After: first pause (default 2 min, spec 8.5), doubling up to `maxBanMs` (3 days). */
  readonly minBanMs?: number;
  readonly maxBanMs?: number;
  /** Quiet time after a ban that resets its doubling (default 24 h). */
  readonly banResetMs?: number;
}

export const MIN_BAN_MS = 2 * 60_000;
export const MAX_BAN_MS = 3 * 24 * 60 * 60_000;

/**
 * A pause that doubles from `first` up to `cap` each time it is taken again, back to `first` once
 * `resetAfter` has passed quietly after the last one ended. Asked while a pause of its own is still
 * running, it gives none (the same episode: no escalation). The 429 back-off and the 418 ban each
 * keep one.
 */
class DoublingPause {
  /** Pauses taken since the last reset. */
  step = 0;
  private end = -Infinity;

  constructor(
    private readonly first: number,
    private readonly cap: number,
    private readonly resetAfter: number,
  ) {}

  /** The next pause at `now`, or undefined while the last one runs. */
  next(now: number): number | undefined {
    if (now < this.end) return undefined;
    if (now >= this.end + this.resetAfter) this.step = 0;
    const wait = Math.min(this.cap, this.first * 2 ** this.step);
    this.step++;
    this.end = now + wait;
    return wait;
  }
}

export class RateLimitPause {
  private readonly minRetryAfter: number;
  private readonly backoff: DoublingPause;
  private readonly bans: DoublingPause;
  private until = 0;
  private cause: 429 | 418 | undefined;
  private last: (RateLimitNotice & { at: number }) | undefined;

  constructor(opts: BackoffOptions = {}) {
    this.minRetryAfter = opts.minRetryAfterMs ?? 1_000;
    this.backoff = new DoublingPause(opts.baseBackoffMs ?? 1_000, opts.maxBackoffMs ?? 60_000, opts.backoffResetMs ?? 60_000);
    this.bans = new DoublingPause(opts.minBanMs ?? MIN_BAN_MS, opts.maxBanMs ?? MAX_BAN_MS, opts.banResetMs ?? 24 * 60 * 60_000);
  }

  /** Nobody may send before this time. */
  get pausedUntil(): number {
    return this.until;
  }

  /** What set the current `pausedUntil`: a 418 ban or a 429 (undefined before any notice). */
  get pauseCause(): 429 | 418 | undefined {
    return this.cause;
  }

  get backoffStep(): number {
    return this.backoff.step;
  }

  /** How many escalating bans (418 without Retry-After) this episode has seen. */
  get banStep(): number {
    return this.bans.step;
  }

  get lastNotice(): (RateLimitNotice & { at: number }) | undefined {
    return this.last;
  }

  /** Record a notice received at `now`; returns the new `pausedUntil`. */
  note(notice: RateLimitNotice, now: number): number {
    this.last = { ...notice, at: now };
    const wait = notice.status === 418 ? this.banWait(notice, now) : this.rateWait(notice, now);
    if (wait === undefined) return this.until;
    if (now + wait > this.until) {
      this.until = now + wait;
      this.cause = notice.status;
    }
    return this.until;
  }

  private rateWait(notice: RateLimitNotice, now: number): number | undefined {
    if (notice.retryAfterMs !== undefined && notice.retryAfterMs >= 0) return Math.max(this.minRetryAfter, notice.retryAfterMs);
    return this.backoff.next(now);
  }

  private banWait(notice: RateLimitNotice, now: number): number | undefined {
    if (notice.retryAfterMs !== undefined && notice.retryAfterMs >= this.minRetryAfter) return notice.retryAfterMs;
    return this.bans.next(now);
  }
}
