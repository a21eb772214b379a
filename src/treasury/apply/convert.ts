/**
 * A conversion (issue 23 deliverable 3; spec 2.10, 3.2, 4.6, 7.6; notes 6): get a quote, check it
 * against the order book's mid (book ticker of the symbol joining the two assets) and the
 * configured slippage guard, accept it before it expires or get a new one, never accept a stale
 * one (quote-guard.ts measures expiry on the client's server clock, with a margin).
 *
 * The convert envelope's statuses (spec 7.6, status 10000003 with a message):
 * - "Quote expired", "The price has changed and the updated rate must be confirmed": nothing was
 *   converted; a new quote is asked for (and checked again), up to `quoteRefreshes` more;
 * - "Failed to fetch liquidity, try again later": the same, after a pause;
 * - "Insufficient balance", "Failed to fetch account verification information", "Unable to fetch
 *   account information": the move fails with the venue's words.
 * Accepted: SUCCESS is done; PROCESSING is followed through query-order-history until SUCCESS or
 * FAILED. An unknown outcome of accept-quote (5xx, timeout) is looked up in the order history by
 * the quote id, never accepted again. New quotes at most every 1000 ms (notes 6).
 *
 * The quote id is the move's handle at the venue (convert has no client id): it is journaled with
 * the row as sent before the accept leaves.
 */
import { MASTER, type ConvertMove } from '../moves.ts';
import type { MoveRow } from '../journal/move-store.ts';
import { errorOfJournaled, journaledRequest, type ApplyContext } from './context.ts';
import { classifyFailure } from './failures.ts';
import { findConvert, type Found } from './lookups.ts';
import { checkQuote, quoteDeadline, type BookTop } from './quote-guard.ts';
import { resolveAccept } from './resolve.ts';
import type { MoveEnd } from './types.ts';

/** Convert refusals after which a new quote may be asked for (spec 7.6). */
const REQUOTE = [/quote expired/i, /price has changed/i];
const LIQUIDITY = /failed to fetch liquidity/i;
/** Notes 6: refresh quotes at most every 1000 ms. */
const QUOTE_SPACING_MS = 1000;
/** The convert history is searched from this long before the accept's request left. */
const HISTORY_SLACK_MS = 60_000;

interface QuoteSeen {
  quoteId: string;
  price: string;
  sourceAmount: string;
  targetAmount: string;
  expiry: number;
  requestedAt: number;
  deadline: number;
  outcome?: string;
}

export async function applyConvert(ctx: ApplyContext, move: ConvertMove, row: MoveRow): Promise<MoveEnd> {
  const resumed = await resume(ctx, move, row);
  if (resumed !== undefined) return resumed;
  if (move.account !== MASTER) return { state: 'refused', detail: `convert in ${move.account}: conversions are made in the master account (its key); nothing was sent` };

  const market = await symbolJoining(ctx, move.from, move.to);
  if (market === undefined) return { state: 'refused', detail: `no symbol joins ${move.from} and ${move.to}: no order book to check a quote against; nothing was sent` };

  const quotes: QuoteSeen[] = [];
  const tries = 1 + ctx.policy.convert.quoteRefreshes;
  let lastReason = '';
  let lastRequest = Number.NEGATIVE_INFINITY;
  for (let attempt = 0; attempt < tries; attempt++) {
    const gap = lastRequest + QUOTE_SPACING_MS - ctx.serverNow();
    if (gap > 0) await ctx.clock.sleep(gap);
    await ctx.client.rest.serverClock.ensureSynced();
    const requestedAt = ctx.serverNow();
    lastRequest = requestedAt;
    let quote;
    try {
      quote = (await ctx.client.convert.getQuote({ sourceCurrency: move.from, targetCurrency: move.to, sourceAmount: move.sourceAmount })).data;
    } catch (e) {
      const f = classifyFailure(e);
      if (f.kind === 'rejected' && LIQUIDITY.test(f.error.venueMessage ?? '')) {
        lastReason = f.text;
        continue;
      }
      return { state: f.kind === 'not-sent' ? 'refused' : 'failed', detail: `no quote: ${f.text}`, data: { quotes } };
    }
    const seen: QuoteSeen = {
      quoteId: quote.quoteId,
      price: quote.price,
      sourceAmount: quote.sourceAmount,
      targetAmount: quote.targetAmount,
      expiry: quote.expiry,
      requestedAt,
      deadline: quoteDeadline(requestedAt, quote.expiry, ctx.quoteMarginMs),
    };
    quotes.push(seen);
    ctx.store.update(move.clientId, ctx.now(), { state: 'planned', detail: { quotes } });
    await ctx.emit({ kind: 'quote', clientId: move.clientId, quoteId: seen.quoteId, price: seen.price, expirySeconds: seen.expiry, deadline: seen.deadline });

    const book = await bookTop(ctx, market.symbol);
    const verdict = checkQuote({ from: move.from, to: move.to, price: quote.price, book, sourceIsBase: market.sourceIsBase, slippageBps: ctx.policy.convert.slippageBps });
    const guard = { symbol: book.symbol, bid: book.bidPrice, ask: book.askPrice, fair: verdict.fair, price: quote.price, worseBps: verdict.worseBps, slippageBps: ctx.policy.convert.slippageBps };
    if (!verdict.ok) {
      seen.outcome = 'refused by the slippage guard';
      return { state: 'refused', detail: `${verdict.reason}; quote ${quote.quoteId} not accepted`, data: { quotes, guard } };
    }
    const now = ctx.serverNow();
    if (now >= seen.deadline) {
      seen.outcome = 'stale';
      lastReason = `quote ${quote.quoteId} expires ${quote.expiry} s after ${new Date(requestedAt).toISOString()}; by ${new Date(now).toISOString()} less than the ${ctx.quoteMarginMs} ms margin was left`;
      ctx.log('info', 'convert quote too close to its expiry: asking for a new one, not accepting it', { clientId: move.clientId, quoteId: quote.quoteId, deadline: seen.deadline, now });
      continue;
    }

    await ctx.beforeSend(move, 'convert.acceptQuote', 'POST', '/openapi/convert/v1/accept-quote', { quoteId: quote.quoteId }, { quoteId: quote.quoteId, quotes, guard });
    let accepted;
    try {
      accepted = (await ctx.client.convert.acceptQuote({ quoteId: quote.quoteId })).data;
    } catch (e) {
      const f = classifyFailure(e);
      if (f.kind === 'not-sent') return { state: 'refused', detail: `accept not sent: ${f.text}`, data: { quotes, guard } };
      if (f.kind === 'rejected') {
        const words = f.error.venueMessage ?? '';
        if (REQUOTE.some((r) => r.test(words)) || LIQUIDITY.test(words)) {
          seen.outcome = `refused: ${f.text}`;
          lastReason = f.text;
          // Nothing was converted: the row goes back to planned until the next quote's accept.
          ctx.store.update(move.clientId, ctx.now(), { state: 'planned', detail: { quotes }, error: f.text });
          continue;
        }
        return { state: 'failed', detail: `refused by the venue: ${f.text}`, data: { quotes, guard } };
      }
      await ctx.set(move, 'unknown', { error: f.text });
      ctx.log('warn', 'accept-quote outcome unknown: looking the quote up in the convert history, not accepting again', { clientId: move.clientId, quoteId: quote.quoteId });
      const r = await resolveAccept(ctx, quote.quoteId, requestedAt - HISTORY_SLACK_MS, f.error);
      if (r.found === undefined) {
        return { state: 'failed', resolution: r.resolution, detail: `accept-quote outcome was unknown; the convert history has no order of quote ${quote.quoteId}: nothing was converted, and it is not accepted again`, data: { quotes } };
      }
      const end = await followConvert(ctx, move, quote.quoteId, requestedAt - HISTORY_SLACK_MS, r.found);
      return { ...end, resolution: r.resolution };
    }
    seen.outcome = `accepted ${accepted.status}`;
    if (accepted.status === 'SUCCESS') {
      return { state: 'succeeded', venueId: accepted.orderId, received: quote.targetAmount, data: { quotes, guard }, detail: `${quote.sourceAmount} ${move.from} -> ${quote.targetAmount} ${move.to} at ${quote.price} (${verdict.worseBps} bps from the mid)` };
    }
    const processing: Found = { by: 'convert.acceptQuote', record: accepted, state: 'pending', venueId: accepted.orderId };
    return followConvert(ctx, move, quote.quoteId, requestedAt - HISTORY_SLACK_MS, processing);
  }
  return { state: 'failed', detail: `no quote could be accepted in ${tries} tries (quoteRefreshes ${ctx.policy.convert.quoteRefreshes}): ${lastReason}`, data: { quotes } };
}

/** A conversion an earlier apply sent: found by its quote id, never accepted again. */
async function resume(ctx: ApplyContext, move: ConvertMove, row: MoveRow): Promise<MoveEnd | undefined> {
  if (row.state !== 'sent' && row.state !== 'unknown' && row.state !== 'pending') return undefined;
  const quoteId = typeof row.detail?.['quoteId'] === 'string' ? row.detail['quoteId'] : undefined;
  const request = journaledRequest(row);
  if (quoteId === undefined || request === undefined) return { state: 'failed', detail: `journaled as ${row.state} without its quote id: cannot be looked up; not accepted again` };
  const since = request.serverTime - HISTORY_SLACK_MS;
  const r = await resolveAccept(ctx, quoteId, since, errorOfJournaled(request, undefined));
  if (r.found === undefined) return { state: 'failed', resolution: r.resolution, detail: `the convert history has no order of quote ${quoteId}: nothing was converted; not accepted again` };
  const end = await followConvert(ctx, move, quoteId, since, r.found);
  return { ...end, resolution: r.resolution };
}

/** Spec 3.2 convert order TODO / PROCESSING, followed through query-order-history to SUCCESS or FAILED. */
async function followConvert(ctx: ApplyContext, move: ConvertMove, quoteId: string, since: number, first: Found): Promise<MoveEnd> {
  let found = first;
  const started = ctx.now();
  if (found.state === 'pending') {
    await ctx.set(move, 'pending', { venueId: found.venueId, detail: { record: found.record } });
    while (found.state === 'pending' && ctx.now() - started < ctx.maxWaitMs) {
      await ctx.clock.sleep(ctx.pollMs);
      found = (await findConvert(ctx.client, quoteId, since)) ?? found;
    }
  }
  const record = found.record;
  const received = found.state === 'succeeded' && typeof record['targetAmount'] === 'string' ? record['targetAmount'] : undefined;
  if (found.state === 'succeeded') return { state: 'succeeded', venueId: found.venueId, received, data: { record } };
  if (found.state === 'failed') return { state: 'failed', venueId: found.venueId, data: { record }, detail: `the convert order failed${found.note ? `: ${found.note}` : ''}` };
  return { state: 'pending', venueId: found.venueId, data: { record }, detail: `convert order still ${String(record['status'])} after ${Math.round((ctx.now() - started) / 1000)} s; the next apply follows it on` };
}

/** The symbol whose book prices the pair, and which side the source is. */
async function symbolJoining(ctx: ApplyContext, from: string, to: string): Promise<{ symbol: string; sourceIsBase: boolean } | undefined> {
  const info = await ctx.client.general.exchangeInfo();
  for (const s of info.symbols) {
    if (s.baseAsset === from && s.quoteAsset === to) return { symbol: s.symbol, sourceIsBase: true };
    if (s.baseAsset === to && s.quoteAsset === from) return { symbol: s.symbol, sourceIsBase: false };
  }
  return undefined;
}

async function bookTop(ctx: ApplyContext, symbol: string): Promise<BookTop> {
  const t = await ctx.client.market.bookTicker({ symbol });
  const one = Array.isArray(t) ? t.find((x) => x.symbol === symbol) : t;
  return { symbol, bidPrice: one?.bidPrice ?? '0', askPrice: one?.askPrice ?? '0' };
}
