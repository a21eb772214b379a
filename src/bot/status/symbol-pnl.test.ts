import { describe, expect, it } from 'vitest';
import { openTradeOf, tripsOf } from '../../backtest/record/run-trades.ts';
import { D } from '../../core/money/decimal.ts';
import { RoundTripBook } from '../../core/portfolio/round-trips.ts';
import { SymbolPnl, sumText, type PnlFill } from './symbol-pnl.ts';

const ASSETS = { baseAsset: 'BTC', quoteAsset: 'PHP', minQty: '0.00001' };
const f = (side: 'BUY' | 'SELL', qty: string, price: string, commission: string, commissionAsset: string, time: number): PnlFill => ({
  side,
  qty,
  price,
  quoteQty: new D(qty).times(price).toFixed(),
  commission,
  commissionAsset,
  time,
});

/** Two buys (a base fee, a quote fee), a sell of part, a full exit, a new entry left open. */
const FILLS: PnlFill[] = [
  f('BUY', '0.002', '2900000', '0.000002', 'BTC', 1),
  f('BUY', '0.001', '2950000', '2.95', 'PHP', 2),
  f('SELL', '0.0015', '3000000', '4.5', 'PHP', 3),
  f('SELL', '0.001498', '3010000', '4.50898', 'PHP', 4),
  f('BUY', '0.003', '2990000', '8.97', 'PHP', 5),
  f('SELL', '0.001', '3020000', '3.02', 'PHP', 6),
];

describe('SymbolPnl', () => {
  it("counts as the backtest's reports do: closed trips plus the open trip's realised, the open trade valued at the mark", () => {
    const pnl = new SymbolPnl('BTCPHP', ASSETS);
    const book = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D(ASSETS.minQty));
    FILLS.forEach((x, i) => {
      pnl.add(x);
      book.onFill({ ...x, tag: undefined }, i);
    });
    const open = openTradeOf(book, 'BTCPHP', '3050000', FILLS.length);
    const closed = tripsOf(book);
    expect(closed).toHaveLength(1);
    expect(pnl.realisedSince()).toBe(sumText([...closed.map((t) => t.pnl), open!.realizedPnl]));
    expect(pnl.unrealised('3050000')).toBe(open?.unrealizedPnl);
    expect(pnl.averageEntryPrice).toBe(open?.entryPrice);
    expect(pnl.quantity).toBe(open?.qty);
    expect(pnl.quantity).toBe('0.002');
    expect(pnl.last).toEqual({ price: '3020000', time: 6 });
    // Fees in PHP: 0.000002 BTC at 2900000 = 5.8, then 2.95 + 4.5 + 4.50898 + 8.97 + 3.02.
    expect(pnl.fees.toString()).toBe('29.74898');
  });

  it('realised since a checkpoint: what later fills realised; flat means no unrealised', () => {
    const pnl = new SymbolPnl('BTCPHP', ASSETS);
    pnl.add(f('BUY', '0.002', '2900000', '0', 'PHP', 1));
    const before = pnl.checkpoint();
    pnl.add(f('SELL', '0.002', '3000000', '0', 'PHP', 2));
    expect(pnl.realisedSince(before)).toBe('200');
    expect(pnl.quantity).toBe('0');
    expect(pnl.averageEntryPrice).toBeNull();
    expect(pnl.unrealised('3100000')).toBe('0');
    expect(new SymbolPnl('BTCPHP', ASSETS).unrealised(null)).toBe('0');
  });

  it('base sold that no journaled fill bought shows as a negative position, not hidden', () => {
    const pnl = new SymbolPnl('BTCPHP', ASSETS);
    pnl.add(f('SELL', '0.001', '3000000', '3', 'PHP', 1));
    expect(pnl.quantity).toBe('-0.001');
    expect(pnl.averageEntryPrice).toBeNull();
  });
});
