/**
 * The venue's clock as seen from here (spec 5.3): signed requests carry `timestamp`, and the venue
 * rejects them (-1021) unless timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow.
 * So we stamp with our estimate of server time, not local time.
 *
 * Estimate (NTP-style): per sample, t0 = local now, s = server time, t1 = local now; the server
 * read its clock somewhere in [t0, t1], best guess the midpoint, so offset = s - (t0 + (t1 - t0) / 2).
 * The median of N samples discards the ones a one-sided delay (slow request or slow response)
 * skewed. The median round trip is kept for diagnostics and for choosing a recvWindow.
 */
import type { Clock } from '../../ports/clock.ts';

export interface ServerClockOptions {
  readonly clock: Clock;
  /** GET /openapi/v1/time (spec 4.1), returning `serverTime` in ms. */
  readonly fetchServerTime: () => Promise<number>;
  readonly samples?: number;
  /** Re-sync in `ensureSynced` when the estimate is older than this. */
  readonly maxAgeMs?: number;
}

export interface ClockEstimate {
  /** Server time minus local time, ms (rounded). */
  readonly offsetMs: number;
  /** Median round trip of the samples, ms. */
  readonly roundTripMs: number;
  /** Local time when the estimate was taken. */
  readonly syncedAt: number;
  /** Samples that succeeded (the others failed and were skipped). */
  readonly samples: number;
}

export class ServerClock {
  private readonly clock: Clock;
  private readonly fetchServerTime: () => Promise<number>;
  private readonly samples: number;
  private readonly maxAgeMs: number | undefined;
  private current: ClockEstimate | undefined;
  private inFlight: Promise<ClockEstimate> | undefined;

  constructor(opts: ServerClockOptions) {
    this.clock = opts.clock;
    this.fetchServerTime = opts.fetchServerTime;
    this.samples = Math.max(1, Math.floor(opts.samples ?? 5));
    this.maxAgeMs = opts.maxAgeMs;
  }

  /** The latest estimate, or undefined before the first sync. */
  get estimate(): ClockEstimate | undefined {
    return this.current;
  }

  get offsetMs(): number {
    return this.current?.offsetMs ?? 0;
  }

  /** Median round trip of the last sync; undefined before the first. */
  get roundTripMs(): number | undefined {
    return this.current?.roundTripMs;
  }

  /** Estimated server time: the timestamp to stamp a signed request with at send time. */
  now(): number {
    return Math.round(this.clock.now() + this.offsetMs);
  }

  /** Sync once, lazily; concurrent callers share one sync. Re-syncs when older than `maxAgeMs`. */
  async ensureSynced(): Promise<ClockEstimate> {
    if (this.inFlight) return this.inFlight;
    if (this.current && !this.stale(this.current)) return this.current;
    return this.sync();
  }

  /** Force a new estimate (after -1021). Joins a sync already under way: that one is fresh. */
  resync(): Promise<ClockEstimate> {
    return this.sync();
  }

  /** Take the samples one after another and replace the estimate. Keeps the old one on failure. */
  sync(): Promise<ClockEstimate> {
    this.inFlight ??= this.measure().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private stale(e: ClockEstimate): boolean {
    return this.maxAgeMs !== undefined && this.clock.now() - e.syncedAt >= this.maxAgeMs;
  }

  private async measure(): Promise<ClockEstimate> {
    const offsets: number[] = [];
    const trips: number[] = [];
    let lastError: unknown;
    for (let i = 0; i < this.samples; i++) {
      const t0 = this.clock.now();
      let s: number;
      try {
        s = await this.fetchServerTime();
      } catch (err) {
        lastError = err;
        continue;
      }
      const t1 = this.clock.now();
      if (!Number.isFinite(s)) {
        lastError = new RangeError(`server time is not a number: ${s}`);
        continue;
      }
      offsets.push(s - (t0 + (t1 - t0) / 2));
      trips.push(t1 - t0);
    }
    if (offsets.length === 0) throw lastError;
    this.current = {
      offsetMs: Math.round(median(offsets)),
      roundTripMs: median(trips),
      syncedAt: this.clock.now(),
      samples: offsets.length,
    };
    return this.current;
  }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  if (s.length % 2 === 1) return s[mid] ?? NaN;
  return ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}
