/**
 * Runs a resync's queries (live/resync/plan-resync.ts) through the one exchange client, so every
 * call is charged to the same weight budget and waits out the same 429/418 pause as the orders
 * (spec 8.4-8.6, exchange/rate/rate-limit-pause.ts), one after the other with an optional pause
 * between them (`paceMs`): a restart with many symbols spreads its reads instead of bursting them
 * (issue 20 deliverable 6; NautilusTrader #780: a bot's own start-up queries earned a ban).
 *
 *   planResync -> run each query -> answers -> planResync again ... until it asks nothing more.
 */
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import { QueueTimeoutError, RateLimitedError, VenueRejectedError } from '../../exchange/errors/errors.ts';
import type { LedgerSnapshot } from '../events/seen-ledger.ts';
import { planResync } from '../resync/plan-resync.ts';
import type { ResyncPlanOptions } from '../resync/plan-resync.ts';
import type { ResyncAnswer, ResyncQuery } from '../resync/resync-queries.ts';

export interface ResyncRunOptions extends ResyncPlanOptions {
  /** Wait between two queries (ms, on `sleep`); default 0: the weight budget alone paces them. */
  readonly paceMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** A bound on the rounds of planResync (paging included); a runaway plan is a bug, not a loop. */
  readonly maxRounds?: number;
}

export interface ResyncRun {
  readonly answers: ResyncAnswer[];
  /** How many REST calls were made. */
  readonly calls: number;
}

/** Every answer planResync asks for, over REST. Throws what the client throws (the caller retries later). */
export async function runResyncQueries(client: ExchangeClient, ledger: LedgerSnapshot, symbols: readonly string[], opts: ResyncRunOptions = {}): Promise<ResyncRun> {
  const answers: ResyncAnswer[] = [];
  let calls = 0;
  const maxRounds = opts.maxRounds ?? 1000;
  for (let round = 0; ; round++) {
    const queries = planResync(ledger, symbols, answers, opts);
    if (queries.length === 0) return { answers, calls };
    if (round >= maxRounds) throw new Error(`resync: still planning queries after ${maxRounds} rounds (${queries.map((q) => q.kind).join(', ')})`);
    for (const q of queries) {
      if (calls > 0 && (opts.paceMs ?? 0) > 0) await (opts.sleep ?? defaultSleep)(opts.paceMs as number);
      answers.push(await patiently(client, q, opts));
      calls += 1;
    }
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Tries of one query refused by a 429 pause before the resync gives up (and is retried later as a whole). */
const RATE_LIMIT_TRIES = 5;

/**
 * One query; refused by a 429 (or by the client's own pause: QueueTimeoutError, nothing sent),
 * it waits until the pause ends and asks again, so a restart's reads do not fail on the first
 * 429. A 418 ban is not waited out here: it lasts minutes to days, and the caller reports it.
 */
async function patiently(client: ExchangeClient, q: ResyncQuery, opts: ResyncRunOptions): Promise<ResyncAnswer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runQuery(client, q);
    } catch (e) {
      const until = e instanceof RateLimitedError && !e.banned ? e.pausedUntil : e instanceof QueueTimeoutError && !e.banned ? e.until : undefined;
      if (attempt >= RATE_LIMIT_TRIES || (!(e instanceof RateLimitedError) && !(e instanceof QueueTimeoutError)) || (e instanceof RateLimitedError && e.banned) || (e instanceof QueueTimeoutError && e.banned)) throw e;
      const wait = Math.max(until === undefined ? 1000 : until - client.rest.clock.now(), 0) + 10;
      await (opts.sleep ?? defaultSleep)(wait);
    }
  }
}

/** One query, its answer as plain data. A queryOrder the venue does not know (-2013) is an answer too. */
export async function runQuery(client: ExchangeClient, q: ResyncQuery): Promise<ResyncAnswer> {
  switch (q.kind) {
    case 'openOrders':
      return { kind: 'openOrders', query: q, orders: await client.spot.openOrders(q.symbol === undefined ? {} : { symbol: q.symbol }) };
    case 'account': {
      const a = await client.account.account();
      return { kind: 'account', query: q, account: { balances: a.balances, updateTime: a.updateTime } };
    }
    case 'myTrades': {
      const params: Record<string, string | number> = { symbol: q.symbol, limit: q.limit };
      if (q.fromId !== undefined) params['fromId'] = q.fromId;
      if (q.orderId !== undefined) params['orderId'] = q.orderId;
      return { kind: 'myTrades', query: q, trades: await client.spot.myTrades(params as Parameters<ExchangeClient['spot']['myTrades']>[0]) };
    }
    case 'queryOrder':
      try {
        const found = await client.spot.queryOrder(q.orderId !== undefined ? { orderId: q.orderId } : { origClientOrderId: q.clientOrderId });
        const orders = Array.isArray(found) ? found : [found];
        if (orders.length === 0) return { kind: 'orderNotFound', query: q, code: -2013, message: 'no order with this client order id' };
        return { kind: 'queryOrder', query: q, orders };
      } catch (e) {
        if (e instanceof VenueRejectedError && e.category === 'not-found') return { kind: 'orderNotFound', query: q, code: e.venueCode ?? -2013, message: e.message };
        throw e;
      }
  }
}
