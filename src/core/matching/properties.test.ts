/**
 * Properties over random order sequences (several accounts, every type, side, time in force and
 * stpFlag, cancels, external prints and external prices), checked after every operation:
 * per-asset conservation (fee account included; external fills move exactly their trade in or
 * out), no negative balance, an uncrossed book, price-time priority of the makers filled, FOK all
 * or nothing, LIMIT_MAKER never taking, executed <= original quantity, and locked balances equal
 * to what the open orders need.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../money/decimal.ts';
import type { Dec } from '../money/decimal.ts';
import { harness } from './test-support.ts';
import { ACCOUNTS, cancelAllOp, placeFields, printOp, px, request } from './test-random-ops.ts';
import type { EngineEvent, OrderSnapshot } from './types.ts';

const placeOp = fc.record(placeFields);
const cancelOp = fc.record({ op: fc.constant('cancel' as const), acct: fc.integer({ min: 0, max: 2 }), pick: fc.nat() });
const ops = fc.array(fc.oneof({ arbitrary: placeOp, weight: 12 }, { arbitrary: cancelOp, weight: 2 }, cancelAllOp, printOp), { minLength: 20, maxLength: 60 });

const d = (s: string): Dec => new D(s);

/** What an open order must hold locked, from its snapshot alone. */
function need(o: OrderSnapshot): { asset: 'PHP' | 'BTC'; amount: Dec } {
  const remaining = d(o.origQty).minus(o.executedQty);
  if (o.side === 'SELL') return { asset: 'BTC', amount: d(o.origQuoteOrderQty).gt(0) ? new D(0) : remaining };
  if (d(o.price).gt(0)) return { asset: 'PHP', amount: d(o.price).times(remaining) };
  return { asset: 'PHP', amount: d(o.origQuoteOrderQty).minus(o.cummulativeQuoteQty) };
}

describe('matching engine properties', () => {
  it('hold after every operation of any random sequence', () => {
    fc.assert(
      fc.property(ops, (sequence) => {
        // c is short of funds, so insufficient-balance paths run too.
        const fund = { a: { BTC: '20', PHP: '2000' }, b: { BTC: '20', PHP: '2000' }, c: { BTC: '1', PHP: '150' } };
        const h = harness({ fund, fee: { maker: '0.001', taker: '0.002' } });
        const expected = { BTC: new D(41), PHP: new D(4150) };
        let now = 1000;
        // Book arrival order: a normal order arrives with its NEW event, a stop with its trigger.
        const arrival = new Map<string, number>();
        let seen = 0;
        for (const step of sequence) {
          now++;
          let events: EngineEvent[] = [];
          if (step.op === 'place') {
            const req = request(step);
            const ext = step.ext === undefined ? undefined : { externalPrice: px(step.ext) };
            const r = h.engine.placeOrder(ACCOUNTS[step.acct] as string, req, now, ext);
            if (r.ok) {
              events = r.events;
              const { order } = r;
              if (req.type === 'LIMIT' && req.timeInForce === 'FOK') {
                expect(['FILLED', 'EXPIRED']).toContain(order.status);
                if (order.status === 'EXPIRED') expect(order.executedQty).toBe('0');
              }
              if (req.type === 'LIMIT_MAKER') {
                expect(r.fills).toEqual([]);
                expect(order.status).toBe('NEW');
              }
            }
          } else if (step.op === 'cancel') {
            const open = h.engine.openOrders(ACCOUNTS[step.acct] as string);
            const target = open[step.pick % Math.max(1, open.length)];
            if (target) {
              const r = h.engine.cancelOrder(target.accountId, 'BTCPHP', { orderId: target.orderId }, now);
              expect(r.ok).toBe(true);
              if (r.ok) events = r.events;
            }
          } else if (step.op === 'cancelAll') {
            events = h.engine.cancelAll(ACCOUNTS[step.acct] as string, 'BTCPHP', now).events;
          } else {
            const maxQty = step.maxQty === undefined ? undefined : String(step.maxQty / 10);
            events = h.engine.applyPrint('BTCPHP', { price: px(step.price), time: now, maxQty, mode: step.touch ? 'touch' : 'through' }).events;
          }
          // External fills move their trade into or out of the engine's accounts.
          for (const e of events) {
            if (e.kind !== 'trade' || !e.external) continue;
            const sign = e.buyerAccountId !== null ? 1 : -1;
            expect.soft(e.buyerAccountId === null || e.sellerAccountId === null).toBe(true);
            expect.soft(e.buyerAccountId === null && e.sellerAccountId === null).toBe(false);
            expected.BTC = expected.BTC.plus(d(e.qty).times(sign));
            expected.PHP = expected.PHP.minus(d(e.quoteQty).times(sign));
          }
          const firstOfOp = seen;
          for (const e of events) {
            seen++;
            if (e.kind === 'order' && e.executionType === 'NEW' && (e.cause === 'TRIGGER' || e.stopPrice === '0')) arrival.set(e.orderId, seen);
          }
          checkInvariants(h, expected, events, arrival, firstOfOp);
        }
      }),
      { numRuns: 150 },
    );
  });
});

function checkInvariants(h: ReturnType<typeof harness>, expected: { BTC: Dec; PHP: Dec }, events: EngineEvent[], arrival: Map<string, number>, firstOfOp: number): void {
  expect(h.balances.total('BTC')).toBe(expected.BTC.toFixed());
  expect(h.balances.total('PHP')).toBe(expected.PHP.toFixed());
  for (const acct of [...ACCOUNTS, 'fees']) {
    for (const b of h.balances.all(acct)) {
      expect(d(b.free).gte(0) && d(b.locked).gte(0)).toBe(true);
    }
  }
  const bid = h.engine.bestBid('BTCPHP');
  const ask = h.engine.bestAsk('BTCPHP');
  if (bid && ask) expect(d(bid.price).lt(ask.price)).toBe(true);

  const open: OrderSnapshot[] = [];
  for (const acct of ACCOUNTS) {
    const held = { PHP: new D(0), BTC: new D(0) };
    for (const o of h.engine.openOrders(acct)) {
      open.push(o);
      const n = need(o);
      held[n.asset] = held[n.asset].plus(n.amount);
    }
    expect(h.balances.get(acct, 'PHP').locked).toBe(held.PHP.toFixed());
    expect(h.balances.get(acct, 'BTC').locked).toBe(held.BTC.toFixed());
    for (const o of h.engine.allOrders(acct)) {
      expect(d(o.executedQty).lte(o.origQty)).toBe(true);
      if (o.status === 'NEW') expect(o.executedQty).toBe('0');
      if (o.status === 'FILLED' && d(o.origQuoteOrderQty).isZero()) expect(o.executedQty).toBe(o.origQty);
    }
  }

  // Price-time priority: when a maker traded, no order resting on its side at that moment may
  // still be open with a better price, or at the same price having arrived before it.
  events.forEach((e, i) => {
    if (e.kind !== 'trade' || e.external) return;
    const at = firstOfOp + i + 1;
    const makerId = e.buyerIsMaker ? e.buyerOrderId : e.sellerOrderId;
    const makerSide = e.buyerIsMaker ? 'BUY' : 'SELL';
    const makerArrival = arrival.get(makerId) ?? Infinity;
    for (const o of open) {
      const came = arrival.get(o.orderId);
      if (o.side !== makerSide || o.orderId === makerId || came === undefined || came > at || !o.isWorking) continue;
      const better = makerSide === 'BUY' ? d(o.price).gt(e.price) : d(o.price).lt(e.price);
      const earlierSame = d(o.price).eq(e.price) && came < makerArrival;
      expect(better || earlierSame, `order ${o.orderId} at ${o.price} skipped for maker ${makerId} at ${e.price}`).toBe(false);
    }
  });
}
