import { describe, expect, it } from 'vitest';
import { checkQuote, quoteDeadline } from './quote-guard.ts';

const book = { symbol: 'BTCPHP', bidPrice: '2990000', askPrice: '3010000' };

describe('checkQuote (slippage guard against the book mid)', () => {
  it('selling the base: the quote price against the mid, in basis points', () => {
    expect(checkQuote({ from: 'BTC', to: 'PHP', price: '2994000', book, sourceIsBase: true, slippageBps: 50 })).toEqual({ ok: true, fair: '3000000', worseBps: '20' });
    const refused = checkQuote({ from: 'BTC', to: 'PHP', price: '2994000', book, sourceIsBase: true, slippageBps: 19 });
    expect(refused).toMatchObject({ ok: false, worseBps: '20' });
    if (!refused.ok) expect(refused.reason).toBe('quote price 2994000 PHP per BTC is 20 bps worse than the book mid 3000000 (BTCPHP bid 2990000, ask 3010000); the slippage guard allows 19 bps');
  });

  it('buying the base: the fair price is 1 / mid; a quote better than the mid passes any guard', () => {
    // 1 / 3,000,000 = 3.333...e-7 BTC per PHP; 0.998 of it is 20 bps worse.
    expect(checkQuote({ from: 'PHP', to: 'BTC', price: '0.0000003326666667', book, sourceIsBase: false, slippageBps: 25 })).toMatchObject({ ok: true, worseBps: '20' });
    expect(checkQuote({ from: 'PHP', to: 'BTC', price: '0.0000003326666667', book, sourceIsBase: false, slippageBps: 10 })).toMatchObject({ ok: false });
    expect(checkQuote({ from: 'BTC', to: 'PHP', price: '3005000', book, sourceIsBase: true, slippageBps: 0 })).toMatchObject({ ok: true, worseBps: '-16.67' });
  });

  it('refuses without a two-sided book, naming it', () => {
    const r = checkQuote({ from: 'BTC', to: 'PHP', price: '2994000', book: { symbol: 'BTCPHP', bidPrice: '0', askPrice: '3010000' }, sourceIsBase: true, slippageBps: 50 });
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.reason).toMatch(/no book to check the quote against: BTCPHP bid 0, ask 3010000/);
  });

  it('a quote may be accepted until its expiry, counted from before the request left, less the margin', () => {
    expect(quoteDeadline(1_000_000, 10, 2000)).toBe(1_008_000);
  });
});
