/**
 * The conversion guards (issue 23 deliverable 3; spec 2.10 quote, 4.4 book ticker, 3.2 "Quote:
 * accept-quote after `expiry` seconds -> Quote expired"). Pure: the numbers in, a verdict out.
 *
 * Slippage: a quote's `price` is target per source. The fair price is the order book's mid of the
 * symbol joining the two assets, turned the same way (mid when the source is the symbol's base,
 * 1 / mid when it is the quote). The quote is worse than fair by (fair - price) / fair; above the
 * configured basis points it is refused, and the refusal carries every number that refused it.
 *
 * Staleness: `expiry` is seconds until the quote expires, counted by the venue from when it made
 * the quote, which is after our request left. So the deadline is counted from the server-clock
 * time just before the get-quote request left (never later than the venue's own start), less a
 * margin for the accept to travel: past it the quote is never accepted, a new one is asked for.
 */
import { D, toWire } from '../../core/money/decimal.ts';

export interface BookTop {
  symbol: string;
  bidPrice: string;
  askPrice: string;
}

export interface QuoteCheckInput {
  from: string;
  to: string;
  /** Target per source (spec 2.10 `price`). */
  price: string;
  book: BookTop;
  /** True when `from` is the symbol's base asset (BTC of BTCPHP selling BTC for PHP). */
  sourceIsBase: boolean;
  slippageBps: number;
}

export type QuoteVerdict =
  | { ok: true; fair: string; worseBps: string }
  | { ok: false; fair: string; worseBps: string; reason: string };

/** Checks a quote against the book's mid and the guard; a refusal's reason names the numbers. */
export function checkQuote(q: QuoteCheckInput): QuoteVerdict {
  const bid = new D(q.book.bidPrice);
  const ask = new D(q.book.askPrice);
  if (!bid.gt(0) || !ask.gt(0) || ask.lt(bid)) {
    const reason = `no book to check the quote against: ${q.book.symbol} bid ${q.book.bidPrice}, ask ${q.book.askPrice} (a convert is refused without a two-sided book)`;
    return { ok: false, fair: '0', worseBps: '0', reason };
  }
  const mid = bid.plus(ask).div(2);
  const fair = q.sourceIsBase ? mid : new D(1).div(mid);
  const price = new D(q.price);
  const worse = fair.minus(price).div(fair).times(10_000);
  const worseBps = toWire(worse.toDecimalPlaces(2, D.ROUND_HALF_UP));
  const fairText = toWire(fair.toSignificantDigits(12, D.ROUND_HALF_UP));
  if (worse.gt(q.slippageBps)) {
    const reason =
      `quote price ${q.price} ${q.to} per ${q.from} is ${worseBps} bps worse than the book mid ${fairText} ` +
      `(${q.book.symbol} bid ${q.book.bidPrice}, ask ${q.book.askPrice}); the slippage guard allows ${q.slippageBps} bps`;
    return { ok: false, fair: fairText, worseBps, reason };
  }
  return { ok: true, fair: fairText, worseBps };
}

/** The last server-clock time a quote may be accepted: its expiry counted from before the request left, less the margin. */
export function quoteDeadline(requestedAt: number, expirySeconds: number, marginMs: number): number {
  return requestedAt + expirySeconds * 1000 - marginMs;
}
