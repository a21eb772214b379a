import { describe, expect, it } from 'vitest';
import { D } from '../money/decimal.ts';
import type { BookFill } from './round-trips.ts';
import { RoundTripBook } from './round-trips.ts';

/** A fill of `qty` at `price`, its commission in `feeAsset`. */
const f = (side: 'BUY' | 'SELL', price: string, qty: string, commission: string, feeAsset: 'BTC' | 'PHP', time: number, tag?: string): BookFill => ({
  side,
  price,
  qty,
  quoteQty: new D(price).times(qty).toFixed(),
  commission,
  commissionAsset: feeAsset,
  time,
  tag,
});

/** A book whose minimum quantity is 0.5 BTC: what is left under it is dust, and the position flat. */
const book = () => new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.5'));
const pnls = (b: RoundTripBook) => b.records.map((r) => r.pnl.toString());

describe('RoundTripBook: records', () => {
  it('carries the dust a trip leaves into the next trip, at what it cost: each sell is charged what it sold', () => {
    const b = book();
    b.onFill(f('BUY', '100', '1', '0.2', 'BTC', 1), 1); // 0.8 BTC for 100: 125 a BTC
    b.onFill(f('SELL', '150', '0.4', '0', 'PHP', 2), 2); // 0.4 left, under 0.5: flat
    expect(b.records.map((r) => [r.pnl.toString(), r.fees.toString(), r.buyQty.toString(), r.sellQty.toString()])).toEqual([['10', '20', '1', '0.4']]); // 60 - 0.4 * 125
    b.onFill(f('BUY', '100', '1', '0', 'PHP', 3), 3);
    b.onFill(f('SELL', '100', '1.4', '0', 'PHP', 4), 4); // the dust (50) and the new lot (100) for 140
    expect(pnls(b)).toEqual(['10', '-10']); // keeping the dust's cost with the first trip would say -40 and +40
    expect(b.open).toBeUndefined();
  });

  it('books a sell while flat (the dust alone) as a trip without buys', () => {
    const b = book();
    b.onFill(f('BUY', '100', '1', '0.2', 'BTC', 1), 1);
    b.onFill(f('SELL', '150', '0.4', '0', 'PHP', 2), 2);
    b.onFill(f('SELL', '150', '0.4', '0', 'PHP', 3), 3);
    expect(b.records.map((r) => [r.entryTime, r.buyQty.toString(), r.pnl.toString()])).toEqual([
      [1, '1', '10'],
      [3, '0', '10'],
    ]);
  });

  it('counts base held at the start as a lot at the given price; under the minimum it is dust, no trip', () => {
    const held = book();
    held.seed(new D(2), new D(100), 7);
    expect(held.open).toMatchObject({ entryTime: 7, entryTag: undefined });
    expect(held.open?.cost.toString()).toBe('200');
    const dust = book();
    dust.seed(new D('0.4'), new D(100), 7);
    expect(dust.open).toBeUndefined();
    dust.onFill(f('BUY', '110', '1', '0', 'PHP', 8), 8);
    dust.onFill(f('SELL', '120', '1.4', '0', 'PHP', 9), 9);
    expect(dust.records.map((r) => [r.entryTime, r.pnl.toString()])).toEqual([[8, '18']]); // 168 - 40 - 110
  });

  it('keeps the tags of the fills that opened and closed a trip', () => {
    const b = book();
    b.onFill(f('BUY', '100', '1', '0', 'PHP', 1, 'entry'), 1);
    b.onFill(f('SELL', '90', '1', '0', 'PHP', 2, 'sl'), 2);
    expect(b.records.map((r) => [r.entryTag, r.exitTag, r.barsHeld])).toEqual([['entry', 'sl', 1]]);
  });
});

describe('RoundTripBook: takeClosed, for a reader following the fills', () => {
  it('hands over each trip once, when its closing fill arrives, and keeps none of them', () => {
    const b = book();
    b.onFill(f('BUY', '100', '1', '0', 'PHP', 1), 1);
    expect(b.takeClosed()).toEqual([]);
    b.onFill(f('SELL', '110', '1', '0', 'PHP', 2), 2);
    const first = b.takeClosed();
    expect(first.map((r) => [r.exitTime, r.pnl.toString()])).toEqual([[2, '10']]);
    expect(b.takeClosed()).toEqual([]);
    expect(b.records).toEqual([]);
    b.onFill(f('BUY', '100', '1', '0', 'PHP', 3), 3);
    b.onFill(f('SELL', '95', '1', '0', 'PHP', 4), 4);
    b.onFill(f('BUY', '100', '1', '0', 'PHP', 5), 5);
    b.onFill(f('SELL', '101', '1', '0', 'PHP', 6), 6);
    expect(b.takeClosed().map((r) => r.pnl.toString())).toEqual(['-5', '1']);
  });
});
