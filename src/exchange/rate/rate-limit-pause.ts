/**
 * How long to stop sending after a 429 or 418 (spec 8.4-8.6, protocol notes 7).
 *
 * With `Retry-After` the venue says how long: pause until then (a ban, 418, can last from 2 minutes
 * to 3 days). An order-rate 429 carries none (spec 8.4): back off 1 s, 2 s, 4 s ... capped at 60 s.
 * The step count resets once a full quiet window has passed after the last back-off ended. A 429
 * that arrives while a back-off is still running came from a request sent before it began: the
 * same episode, so it does not escalate. A shorter pause never shortens a longer one.
 */

export interface RateLimitNotice {
  readonly status: 429 | 418;
  readonly retryAfterMs?: number | undefined;
  readonly orderRate?: boolean | undefined;
}

export interface BackoffOptions {
  /** First back-off step (default 1 s), doubled per repeat up to `maxBackoffMs` (default 60 s). */
  readonly baseBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Quiet time after a back-off that resets the steps (default 60 s, one venue window). */
  readonly backoffResetMs?: number;
}

export class RateLimitPause {
  private readonly base: number;
  private readonly max: number;
  private readonly resetAfter: number;
  private until = 0;
  private step = 0;
  private backoffEnd = -Infinity;
  private last: (RateLimitNotice & { at: number }) | undefined;

  constructor(opts: BackoffOptions = {}) {
    this.base = opts.baseBackoffMs ?? 1_000;
    this.max = opts.maxBackoffMs ?? 60_000;
    this.resetAfter = opts.backoffResetMs ?? 60_000;
  }

  /** Nobody may send before this time. */
  get pausedUntil(): number {
    return this.until;
  }

  get backoffStep(): number {
    return this.step;
  }

  get lastNotice(): (RateLimitNotice & { at: number }) | undefined {
    return this.last;
  }

  /** Record a notice received at `now`; returns the new `pausedUntil`. */
  note(notice: RateLimitNotice, now: number): number {
    this.last = { ...notice, at: now };
    let wait: number;
    if (notice.retryAfterMs !== undefined && notice.retryAfterMs >= 0) {
      wait = notice.retryAfterMs;
    } else if (now < this.backoffEnd) {
      return this.until;
    } else {
      if (now >= this.backoffEnd + this.resetAfter) this.step = 0;
      wait = Math.min(this.max, this.base * 2 ** this.step);
      this.step++;
      this.backoffEnd = now + wait;
    }
    this.until = Math.max(this.until, now + wait);
    return this.until;
  }
}
