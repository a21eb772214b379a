/**
 * Closed bars of one series over REST (spec 4.4 `GET /openapi/quote/v1/klines`: weight 1, `limit`
 * at most 1000, `startTime`/`endTime` inclusive on open time, oldest first). Used to fill a gap
 * after a reconnect or a jump, to poll while the stream is not LIVE, and to top up a warm-up.
 *
 * Only CLOSED bars are returned (close time before now on the venue-aligned clock): REST also
 * answers the period in progress, which must never reach a strategy. Each request first takes its
 * weight from the pipeline's share (weight-pacer.ts), then the client's own budget. A failed
 * request is retried with back-off for as long as the pipeline runs: a bar is never skipped, the
 * series simply waits (and says so in the log).
 */
import type { SchedulerLike } from 'rxjs';
import type { Candle } from '../../core/indicators/candle.ts';
import { VenueRejectedError } from '../../exchange/errors/errors.ts';
import { marketEndpoints } from '../../exchange/endpoints/areas/market.ts';
import { chargesFor } from '../../exchange/rate/weights.ts';
import type { Interval } from '../../strategy/types.ts';
import { candleOfRest } from './candles.ts';
import { schedulerDelay } from './scheduler-delay.ts';
import type { MarketDataClient, MarketDataLog } from './types.ts';
import type { WeightPacer } from './weight-pacer.ts';

/** Spec 4.4: kline `limit` max. */
export const KLINE_PAGE = 1000;
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 30_000;

export interface RestBarsDeps {
  readonly client: MarketDataClient;
  readonly pacer: WeightPacer;
  readonly scheduler: SchedulerLike;
  readonly consumer: string;
  readonly log: MarketDataLog;
  readonly signal: AbortSignal;
  now(): number;
}

/** Closed bars opening in [from, to), oldest first. Rejects only when the pipeline closes. */
export async function fetchClosedBars(deps: RestBarsDeps, symbol: string, interval: Interval, from: number, to: number): Promise<Candle[]> {
  const out: Candle[] = [];
  let start = from;
  while (start < to) {
    const params = { symbol, interval, startTime: start, endTime: to - 1, limit: KLINE_PAGE };
    const rows = await withRetry(deps, `klines ${symbol} ${interval} from ${new Date(start).toISOString()}`, async () => {
      await pace(deps, params);
      return deps.client.market.klines(params, { consumer: deps.consumer, signal: deps.signal });
    });
    const now = deps.now();
    for (const r of rows) if (r.openTime >= start && r.openTime < to && r.closeTime < now) out.push(candleOfRest(r));
    if (rows.length < KLINE_PAGE) break;
    start = rows[rows.length - 1]!.openTime + 1;
  }
  return out;
}

/** Wait until the pipeline's share has room for the request's weight, then book it. */
async function pace(deps: RestBarsDeps, params: Record<string, unknown>): Promise<void> {
  const charges = chargesFor(marketEndpoints.klines, params, 'spec');
  await deps.pacer.acquire(charges, deps.now, (ms) => schedulerDelay(deps.scheduler, ms, deps.signal));
}

async function withRetry<T>(deps: RestBarsDeps, what: string, call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (deps.signal.aborted) throw err;
      const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempt, 10));
      // A refusal (unknown symbol, bad parameter) will not heal by itself: the operator must see it
      // as an error; a transport failure or a wait for the budget is a warning.
      deps.log({ level: err instanceof VenueRejectedError ? 'error' : 'warn', topic: 'rest', time: deps.now(), message: `${what} failed (${describe(err)}); bars wait, retrying in ${wait} ms`, detail: err });
      await schedulerDelay(deps.scheduler, wait, deps.signal);
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
