/**
 * Property (fill-funds.ts): however a venue's fills and balance events of an operation reach the
 * order manager, its free / locked of every asset equal the venue's once the operation's events
 * are in, and already between a fill and its balance event where the fill alone tells them (a
 * MARKET order filled whole at placement, a resting LIMIT order's maker fill). Delivery orders:
 * - batch: the operation's order, fill and balance events in one batch (the backtest);
 * - fill first: the newOrder FULL answer (acknowledgement and fills), then the stream's
 *   executionReports (the same trades again) and outboundAccountPosition;
 * - stream first: executionReports, outboundAccountPosition, then the REST answer's fills again;
 * - late fill: a balance event of a later venue time comes before the fill it includes.
 * A small model venue locks a LIMIT order's funds, fills MARKET orders at the market price
 * (taker) and resting orders at their price (maker), charges 0.1% of what is received, cancels.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dec } from '../money/decimal.ts';
import { D } from '../money/decimal.ts';
import { OrderManager } from './order-manager.ts';
import { instrument } from './test-support.ts';
import type { OrderSide } from './types.ts';
import type { VenueEvent, VenueFillEvent, VenueOrderStatus } from './venue-messages.ts';

const FEE = new D('0.001');
const ZERO = new D(0);
const ASSETS = ['BTC', 'PHP'] as const;
type Asset = (typeof ASSETS)[number];
type Delivery = 'batch' | 'fillFirst' | 'streamFirst' | 'lateFill';

interface Resting {
  readonly cid: string;
  readonly orderId: string;
  readonly side: OrderSide;
  readonly price: Dec;
  readonly qty: Dec;
  executed: Dec;
  quote: Dec;
}

type Op =
  | { readonly kind: 'limit'; readonly side: OrderSide; readonly price: number; readonly qty: number }
  | { readonly kind: 'market'; readonly side: OrderSide; readonly qty: number; readonly price: number }
  | { readonly kind: 'makerFill'; readonly pick: number; readonly part: number }
  | { readonly kind: 'cancel'; readonly pick: number };

const side = fc.constantFrom<OrderSide>('BUY', 'SELL');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('limit' as const), side, price: fc.integer({ min: 9000, max: 11000 }), qty: fc.integer({ min: 1, max: 800 }) }),
  fc.record({ kind: fc.constant('market' as const), side, qty: fc.integer({ min: 1, max: 800 }), price: fc.integer({ min: 9000, max: 11000 }) }),
  fc.record({ kind: fc.constant('makerFill' as const), pick: fc.nat(), part: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
);
const step = fc.record({ op, delivery: fc.constantFrom<Delivery>('batch', 'fillFirst', 'streamFirst', 'lateFill') });

class ModelVenue {
  readonly free: Record<Asset, Dec> = { BTC: new D(2), PHP: new D(10000) };
  readonly locked: Record<Asset, Dec> = { BTC: ZERO, PHP: ZERO };
  readonly resting: Resting[] = [];
  private ids = 0;
  private trades = 0;

  nextOrderId(): string {
    return String(9_007_199_254_740_993n + BigInt(++this.ids));
  }

  balances(time: number): VenueEvent[] {
    return ASSETS.map((a) => ({ kind: 'balance', asset: a, free: this.free[a].toFixed(), locked: this.locked[a].toFixed(), time }));
  }

  /** A fill of `qty` at `price`; `held`: what comes out of locked (maker), else out of free. */
  fill(cid: string, orderId: string, s: OrderSide, price: Dec, qty: Dec, maker: boolean, cum: { qty: Dec; quote: Dec }, status: VenueFillEvent['orderStatus'], time: number): VenueFillEvent {
    const quote = price.times(qty);
    const [paid, got]: [Asset, Asset] = s === 'BUY' ? ['PHP', 'BTC'] : ['BTC', 'PHP'];
    const paidAmount = s === 'BUY' ? quote : qty;
    const gotAmount = s === 'BUY' ? qty : quote;
    const fee = gotAmount.times(FEE);
    if (maker) this.locked[paid] = this.locked[paid].minus(paidAmount);
    else this.free[paid] = this.free[paid].minus(paidAmount);
    this.free[got] = this.free[got].plus(gotAmount).minus(fee);
    return {
      kind: 'fill',
      symbol: 'BTCPHP',
      clientOrderId: cid,
      orderId,
      tradeId: String(++this.trades),
      side: s,
      price: price.toFixed(),
      qty: qty.toFixed(),
      quoteQty: quote.toFixed(),
      commission: fee.toFixed(),
      commissionAsset: got,
      isMaker: maker,
      orderStatus: status,
      cumulativeQty: cum.qty.toFixed(),
      cumulativeQuoteQty: cum.quote.toFixed(),
      time,
    };
  }
}

function orderEvent(cid: string, orderId: string, status: VenueOrderStatus, executed: Dec, quote: Dec, time: number): VenueEvent {
  return { kind: 'order', symbol: 'BTCPHP', clientOrderId: cid, orderId, status, executedQty: executed.toFixed(), cumulativeQuoteQty: quote.toFixed(), working: true, time };
}

function same(om: OrderManager, v: ModelVenue, what: string): void {
  for (const a of ASSETS) {
    expect(om.account.freeOf(a).toFixed(), `${what}: ${a} free`).toBe(v.free[a].toFixed());
    expect(om.account.lockedOf(a).toFixed(), `${what}: ${a} locked`).toBe(v.locked[a].toFixed());
  }
}

describe('fill funds (property)', () => {
  it('free and locked follow the venue whatever the order of fills and balance events', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        let t = 1_000_000;
        const om = new OrderManager({ runId: 'p', now: () => t, instruments: [instrument()], balances: { PHP: '10000', BTC: '2' } });
        const v = new ModelVenue();
        for (const [n, { op: o, delivery }] of steps.entries()) {
          t += 10;
          const what = `step ${n} ${o.kind} (${delivery})`;
          /** One operation: acknowledgement and state events, fills, then balances, delivered as `delivery` says. */
          const deliver = (state: VenueEvent[], fills: VenueFillEvent[], fillTells: boolean): void => {
            const balances = v.balances(t);
            if (delivery === 'batch' || fills.length === 0) om.onVenueEvents([...state, ...fills, ...balances]);
            else if (delivery === 'fillFirst') {
              om.onVenueEvents([...state, ...fills]);
              if (fillTells) same(om, v, `${what}, before the balance`);
              om.onVenueEvents(fills);
              om.onVenueEvents(balances);
            } else if (delivery === 'streamFirst') {
              om.onVenueEvents([...state, ...fills]);
              om.onVenueEvents(balances);
              om.onVenueEvents(fills);
            } else {
              // The fills executed a millisecond before the balance that includes them, which comes first.
              om.onVenueEvents(balances);
              om.onVenueEvents([...state, ...fills.map((f) => ({ ...f, time: t - 1 }))]);
            }
            same(om, v, what);
          };
          if (o.kind === 'limit' || o.kind === 'market') {
            const price = new D(o.price).div(100);
            const qty = new D(o.qty).div(1000);
            if (o.kind === 'market') om.setLastPrice('BTCPHP', price.toFixed());
            const r = om.submit('s', [
              o.kind === 'limit'
                ? { kind: 'place', symbol: 'BTCPHP', side: o.side, type: 'LIMIT', timeInForce: 'GTC', price: price.toFixed(), quantity: qty.toFixed() }
                : { kind: 'place', symbol: 'BTCPHP', side: o.side, type: 'MARKET', quantity: qty.toFixed() },
            ]);
            const cmd = r.commands[0];
            if (cmd?.kind !== 'place') continue;
            const cid = cmd.clientOrderId;
            const paid: Asset = o.side === 'BUY' ? 'PHP' : 'BTC';
            const need = o.side === 'BUY' ? price.times(qty) : qty;
            if (v.free[paid].lt(need)) {
              om.onVenueEvents([{ kind: 'rejected', symbol: 'BTCPHP', clientOrderId: cid, code: -2010, reason: 'insufficient balance', time: t }]);
              same(om, v, what);
              continue;
            }
            const orderId = v.nextOrderId();
            if (o.kind === 'limit') {
              v.free[paid] = v.free[paid].minus(need);
              v.locked[paid] = v.locked[paid].plus(need);
              v.resting.push({ cid, orderId, side: o.side, price, qty, executed: ZERO, quote: ZERO });
              deliver([orderEvent(cid, orderId, 'NEW', ZERO, ZERO, t)], [], false);
            } else {
              const f = v.fill(cid, orderId, o.side, price, qty, false, { qty, quote: price.times(qty) }, 'FILLED', t);
              deliver([orderEvent(cid, orderId, 'NEW', ZERO, ZERO, t)], [f], true);
            }
          } else if (v.resting.length > 0) {
            const i = o.pick % v.resting.length;
            const r = v.resting[i] as Resting;
            const paid: Asset = r.side === 'BUY' ? 'PHP' : 'BTC';
            if (o.kind === 'cancel') {
              if (om.submit('s', [{ kind: 'cancel', symbol: 'BTCPHP', clientOrderId: r.cid }]).commands.length === 0) continue;
              const left = r.qty.minus(r.executed);
              const release = r.side === 'BUY' ? r.price.times(left) : left;
              v.locked[paid] = v.locked[paid].minus(release);
              v.free[paid] = v.free[paid].plus(release);
              v.resting.splice(i, 1);
              deliver([orderEvent(r.cid, r.orderId, r.executed.isZero() ? 'CANCELED' : 'PARTIALLY_CANCELED', r.executed, r.quote, t)], [], false);
            } else {
              const left = r.qty.minus(r.executed);
              const qty = o.part === 4 ? left : D.max(new D('0.001'), left.times(o.part).div(4).toDecimalPlaces(3, D.ROUND_DOWN));
              r.executed = r.executed.plus(qty);
              r.quote = r.quote.plus(r.price.times(qty));
              const done = r.executed.eq(r.qty);
              if (done) v.resting.splice(i, 1);
              const f = v.fill(r.cid, r.orderId, r.side, r.price, qty, true, { qty: r.executed, quote: r.quote }, done ? 'FILLED' : 'PARTIALLY_FILLED', t);
              deliver([], [f], true);
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a strategy may sell what its MARKET entry bought before the venue reports the balance (exits: the protective stop)', () => {
    const om = new OrderManager({ runId: 'x', now: () => 1000, instruments: [instrument()], balances: { PHP: '1000', BTC: '0' } });
    om.setLastPrice('BTCPHP', '100');
    const [entry] = om.submit('s', [{ kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: '500' }]).commands;
    const cid = entry?.kind === 'place' ? entry.clientOrderId : '';
    const v = new ModelVenue();
    const fill = v.fill(cid, '1', 'BUY', new D(100), new D(5), false, { qty: new D(5), quote: new D(500) }, 'FILLED', 1000);
    om.onVenueEvents([orderEvent(cid, '1', 'NEW', ZERO, ZERO, 1000), fill]);
    expect(om.account.freeOf('BTC').toFixed()).toBe('4.995');
    expect(om.account.freeOf('PHP').toFixed()).toBe('500');
    const r = om.submit('s', [{ kind: 'place', symbol: 'BTCPHP', side: 'SELL', type: 'STOP_LOSS', quantity: '4.995', stopPrice: '50' }]);
    expect(r.denials).toEqual([]);
    expect(r.commands).toHaveLength(1);
  });
});
