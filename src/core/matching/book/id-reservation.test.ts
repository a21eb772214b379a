/**
 * Id reservation (id-sequence.ts `reserveWith`, SpotEngine `reserveIds` / `continueIds`): an
 * owner that persists asks for blocks of ids before they are issued, and after a restart that
 * lost unsaved orders continues above its last mark, so no id ever names two orders or trades.
 */
import { describe, expect, it } from 'vitest';
import { IdSequence } from './id-sequence.ts';
import { harness } from '../test-support.ts';

const BLOCK = 10n;

/** A reserver that records its marks, as the sandbox's state file does. */
function recorder() {
  const marks: bigint[] = [];
  return {
    marks,
    reserve: (wanted: bigint) => {
      const mark = wanted + BLOCK;
      marks.push(mark);
      return mark;
    },
  };
}

describe('IdSequence reservation', () => {
  it('reserves before the first id and again only past the reserved block', () => {
    const s = new IdSequence(1000n);
    const r = recorder();
    s.reserveWith(r.reserve);
    expect(s.take(0)).toBe(0);
    expect(r.marks).toEqual([1011n]);
    for (let p = 1; p <= 10; p++) s.take(p);
    expect(r.marks).toEqual([1011n]);
    s.take(11);
    expect(r.marks).toEqual([1011n, 1022n]);
  });

  it('ahead keeps the low water mark reserved, and issues nothing when the reserver throws', () => {
    const s = new IdSequence(0n);
    const r = recorder();
    s.reserveWith(r.reserve, 5);
    s.ahead(0);
    expect(r.marks).toEqual([16n]);
    s.ahead(10);
    expect(r.marks).toEqual([16n]);
    s.ahead(11);
    expect(r.marks).toEqual([16n, 27n]);
    const failing = new IdSequence(0n);
    failing.reserveWith(() => {
      throw new Error('disk full');
    });
    expect(() => failing.take(0)).toThrow('disk full');
    expect(() => failing.take(0)).toThrow('disk full');
  });

  it('without a reserver, nothing is asked (a backtest)', () => {
    const s = new IdSequence(1n);
    expect(s.take(1e9)).toBe(1e9);
    s.ahead(1e12);
  });

  it('refuses a reservation that answers less than asked', () => {
    const s = new IdSequence(0n);
    s.reserveWith((wanted) => wanted - 1n);
    expect(() => s.take(0)).toThrow(RangeError);
  });
});

describe('SpotEngine id reservation', () => {
  it('asks before placing, and a restarted engine continues above the mark though its state was lost', () => {
    const first = harness();
    const orders = recorder();
    const trades = recorder();
    first.engine.reserveIds('order', orders.reserve);
    first.engine.reserveIds('trade', trades.reserve);
    const placed = [first.place('alice', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100' }), first.place('bob', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100' })];
    const ids = placed.map((p) => p.order.orderId);
    const tradeId = placed[1]!.fills[0]!.tradeId;
    expect(orders.marks.at(-1)! > BigInt(ids[1]!)).toBe(true);
    expect(trades.marks.at(-1)! > BigInt(tradeId)).toBe(true);

    // The process dies before its state is saved: a fresh engine, same first ids, only the marks.
    const second = harness();
    second.engine.continueIds('order', orders.marks.at(-1)!);
    second.engine.continueIds('trade', trades.marks.at(-1)!);
    const again = [second.place('alice', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100' }), second.place('bob', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100' })];
    for (const p of again) expect(ids).not.toContain(p.order.orderId);
    expect(BigInt(again[0]!.order.orderId)).toBe(orders.marks.at(-1));
    expect(BigInt(again[1]!.fills[0]!.tradeId)).toBe(trades.marks.at(-1));
    // Found by their ids, canceled by them.
    expect(second.engine.cancelOrder('bob', 'BTCPHP', { orderId: ids[1] }, 1000).ok).toBe(false);
    expect(second.engine.order('alice', 'BTCPHP', { orderId: again[0]!.order.orderId })[0]?.status).toBe('FILLED');
  });

  it('a mark below the first id changes nothing', () => {
    const h = harness();
    h.engine.continueIds('order', 5n);
    expect(BigInt(h.place('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100' }).order.orderId)).toBe(2n ** 60n + 1n);
  });

  it('a failing reservation refuses the operation before anything changed', () => {
    const h = harness();
    h.engine.reserveIds('order', () => {
      throw new Error('disk full');
    });
    const before = h.balances.all('alice');
    expect(() => h.place('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100' })).toThrow('disk full');
    expect(h.balances.all('alice')).toEqual(before);
    expect(h.engine.openOrders('alice')).toEqual([]);
  });
});
