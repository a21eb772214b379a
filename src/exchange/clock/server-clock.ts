/**
 * The venue's clock as seen from here (spec 5.3): signed requests carry `timestamp`, and the venue
 * rejects them (-1021) unless timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow.
 * So we stamp with our estimate of server time, not local time.
 *
 * Estimate (NTP-style): per sample, t0 = local now, s = server time, t1 = local now; the server
 * read its clock somewhere in [t0, t1], best guess the midpoint, so offset = s - (t0 + (t1 - t0) / 2).
 * The median of N samples discards the ones a one-sided delay (slow request or slow response)
 * skewed. The median round trip is kept for diagnostics and for choosing a recvWindow.
 *
 * [t0, t1] must be the HTTP exchange alone. A fetch that first waits (for room in the weight budget,
 * a 429 pause, a retry's backoff) reads the server at the end of that wait, so timing it from the
 * call would put the midpoint half the wait too early and the estimate half the wait ahead. Such a
 * fetch answers a `ServerTimeReading` with the local times around the request that answered.
 */
import type { Clock } from '../../ports/clock.ts';

/** A server time with the local times (the ServerClock's clock) just before its request left and just after the answer came. */
export interface ServerTimeReading {
  readonly serverTime: number;
  readonly sentAt: number;
  readonly receivedAt: number;
}

export interface ServerClockOptions {
  readonly clock: Clock;
  /**
   * GET /openapi/v1/time (spec 4.1): `serverTime` in ms, or a reading that also says when the request
   * answered left and returned (needed whenever the fetch may wait before sending; see the header).
   */
  readonly fetchServerTime: () => Promise<number | ServerTimeReading>;
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
  private readonly fetchServerTime: () => Promise<number | ServerTimeReading>;
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
      let t0 = this.clock.now();
      let reading: number | ServerTimeReading;
      try {
        reading = await this.fetchServerTime();
      } catch (err) {
        lastError = err;
        continue;
      }
      let t1 = this.clock.now();
      let s: number;
      if (typeof reading === 'number') {
        s = reading;
      } else {
        s = reading.serverTime;
        // The exchange itself, when the fetch says when it happened (inside [t0, t1]).
        if (Number.isFinite(reading.sentAt) && Number.isFinite(reading.receivedAt) && reading.sentAt <= reading.receivedAt) {
          t0 = reading.sentAt;
          t1 = reading.receivedAt;
        }
      }
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
