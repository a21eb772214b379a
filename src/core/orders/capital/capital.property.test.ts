/**
 * Property: however strategies with and without capital place, fill and cancel, the ledgers
 * together never claim more of an asset than the account holds, and no ledger goes below zero
 * (fills within their reserve: limit orders at their price, market buys by quote within it).
 * A small model venue locks funds, refuses what the account cannot pay, fills and cancels, and
 * reports each operation as one batch of order, fill and balance events, as a venue would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dec } from '../../money/decimal.ts';
import { D } from '../../money/decimal.ts';
import { OrderManager } from '../order-manager.ts';
import { instrument } from '../test-support.ts';
import type { OrderIntent } from '../types.ts';
import type { PlaceCommand, VenueCommand, VenueEvent } from '../venue-messages.ts';

const inst = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
    { filterType: 'NOTIONAL', minNotional: '1', maxNotional: '10000000' },
    { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
  ],
});
const START = { PHP: '10000', BTC: '2' };
const CAPITAL = { a: { PHP: '4000', BTC: '0.5' }, b: { PHP: '3000' } };
const STRATEGIES = ['a', 'b', 'c'] as const;
const FEE = new D('0.001');
const ZERO = new D(0);

interface VenueOrder {
  readonly cmd: PlaceCommand;
  readonly orderId: string;
  readonly price: Dec;
  readonly qty: Dec;
  executed: Dec;
  quote: Dec;
  trades: number;
}

/** The account and orders as the venue holds them. */
class ModelVenue {
  readonly free = new Map<string, Dec>(Object.entries(START).map(([a, v]) => [a, new D(v)]));
  readonly locked = new Map<string, Dec>([
    ['PHP', ZERO],
    ['BTC', ZERO],
  ]);
  readonly open = new Map<string, VenueOrder>();
  private ids = 0;
  private tradeIds = 0;
  time = 1000;

  private move(map: Map<string, Dec>, asset: string, by: Dec): void {
    map.set(asset, (map.get(asset) ?? ZERO).plus(by));
  }

  private balances(): VenueEvent[] {
    return ['PHP', 'BTC'].map((asset) => ({ kind: 'balance', asset, free: (this.free.get(asset) ?? ZERO).toFixed(), locked: (this.locked.get(asset) ?? ZERO).toFixed(), time: this.time }) as const);
  }

  handle(c: VenueCommand): VenueEvent[] {
    if (c.kind === 'cancel') return this.cancel(c.clientOrderId, c.symbol);
    if (c.kind === 'cancelReplace') {
      const out = this.cancel(c.cancelClientOrderId, c.symbol);
      return out[0]?.kind === 'cancelRejected' ? [...out, { kind: 'rejected', symbol: c.symbol, clientOrderId: c.order.clientOrderId, code: -2021, reason: 'cancel failed', time: this.time }] : [...out, ...this.place(c.order)];
    }
    return this.place(c);
  }

  private place(c: PlaceCommand): VenueEvent[] {
    const orderId = String(++this.ids);
    if (c.type === 'MARKET') {
      // A market buy by quote fills at 105 (the last price the manager knows is 100): whole steps within the quote.
      const price = new D('105');
      const quote = new D(c.quoteOrderQty as string);
      const qty = quote.div(price).toDecimalPlaces(3, D.ROUND_DOWN);
      const spent = qty.times(price);
      if (spent.gt(this.free.get('PHP') ?? ZERO) || qty.isZero()) return [{ kind: 'rejected', symbol: c.symbol, clientOrderId: c.clientOrderId, code: -2010, reason: 'insufficient', time: this.time }];
      this.move(this.free, 'PHP', spent.negated());
      const fee = qty.times(FEE);
      this.move(this.free, 'BTC', qty.minus(fee));
      return [this.fillEvent(c, orderId, qty, price, spent, fee, 'BTC', qty, spent, 'FILLED'), ...this.balances()];
    }
    const price = new D(c.price as string);
    const qty = new D(c.quantity as string);
    const [asset, need] = c.side === 'BUY' ? ['PHP', price.times(qty)] : ['BTC', qty];
    if (need.gt(this.free.get(asset) ?? ZERO)) return [{ kind: 'rejected', symbol: c.symbol, clientOrderId: c.clientOrderId, code: -2010, reason: 'insufficient', time: this.time }];
    this.move(this.free, asset, need.negated());
    this.move(this.locked, asset, need);
    this.open.set(c.clientOrderId, { cmd: c, orderId, price, qty, executed: ZERO, quote: ZERO, trades: 0 });
    return [{ kind: 'order', symbol: c.symbol, clientOrderId: c.clientOrderId, orderId, status: 'NEW', executedQty: '0', cumulativeQuoteQty: '0', working: true, time: this.time }, ...this.balances()];
  }

  private cancel(clientOrderId: string, symbol: string): VenueEvent[] {
    const o = this.open.get(clientOrderId);
    if (!o) return [{ kind: 'cancelRejected', symbol, clientOrderId, code: -2011, reason: 'Unknown order sent.', time: this.time }];
    this.open.delete(clientOrderId);
    const rest = o.qty.minus(o.executed);
    const [asset, amount] = o.cmd.side === 'BUY' ? ['PHP', rest.times(o.price)] : ['BTC', rest];
    this.move(this.locked, asset, amount.negated());
    this.move(this.free, asset, amount);
    return [{ kind: 'order', symbol, clientOrderId, orderId: o.orderId, status: o.executed.isZero() ? 'CANCELED' : 'PARTIALLY_CANCELED', executedQty: o.executed.toFixed(), cumulativeQuoteQty: o.quote.toFixed(), working: true, time: this.time }, ...this.balances()];
  }

  /** Fill `share` thousandths (at least one step) of the open order at `pick`, at its limit price. */
  fill(pick: number, share: number): VenueEvent[] {
    const list = [...this.open.values()];
    if (list.length === 0) return [];
    const o = list[pick % list.length] as VenueOrder;
    const rest = o.qty.minus(o.executed);
    const qty = D.max(new D('0.001'), rest.times(share).div(1000).toDecimalPlaces(3, D.ROUND_DOWN));
    const quote = qty.times(o.price);
    o.executed = o.executed.plus(qty);
    o.quote = o.quote.plus(quote);
    const done = o.executed.eq(o.qty);
    if (done) this.open.delete(o.cmd.clientOrderId);
    const buy = o.cmd.side === 'BUY';
    const fee = (buy ? qty : quote).times(FEE);
    this.move(this.locked, buy ? 'PHP' : 'BTC', buy ? quote.negated() : qty.negated());
    this.move(this.free, buy ? 'BTC' : 'PHP', (buy ? qty : quote).minus(fee));
    return [this.fillEvent(o.cmd, o.orderId, qty, o.price, quote, fee, buy ? 'BTC' : 'PHP', o.executed, o.quote, done ? 'FILLED' : 'PARTIALLY_FILLED'), ...this.balances()];
  }

  private fillEvent(c: PlaceCommand, orderId: string, qty: Dec, price: Dec, quote: Dec, fee: Dec, feeAsset: string, cum: Dec, cumQuote: Dec, status: 'FILLED' | 'PARTIALLY_FILLED'): VenueEvent {
    return {
      kind: 'fill',
      symbol: c.symbol,
      clientOrderId: c.clientOrderId,
      orderId,
      tradeId: String(++this.tradeIds),
      side: c.side,
      price: price.toFixed(),
      qty: qty.toFixed(),
      quoteQty: quote.toFixed(),
      commission: fee.toFixed(),
      commissionAsset: feeAsset,
      isMaker: true,
      orderStatus: status,
      cumulativeQty: cum.toFixed(),
      cumulativeQuoteQty: cumQuote.toFixed(),
      time: this.time,
    };
  }
}

type Action =
  | { readonly kind: 'limit'; readonly strategy: number; readonly side: 'BUY' | 'SELL'; readonly cents: number; readonly thousandths: number }
  | { readonly kind: 'market'; readonly strategy: number; readonly quote: number }
  | { readonly kind: 'fill'; readonly pick: number; readonly share: number }
  | { readonly kind: 'cancel'; readonly strategy: number; readonly pick: number }
  | { readonly kind: 'replace'; readonly strategy: number; readonly pick: number; readonly thousandths: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('limit' as const), strategy: fc.nat(2), side: fc.constantFrom('BUY' as const, 'SELL' as const), cents: fc.integer({ min: 5000, max: 15000 }), thousandths: fc.integer({ min: 10, max: 12000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('market' as const), strategy: fc.nat(2), quote: fc.integer({ min: 1, max: 5000 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('fill' as const), pick: fc.nat(50), share: fc.integer({ min: 1, max: 1000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), strategy: fc.nat(2), pick: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), strategy: fc.nat(2), pick: fc.nat(50), thousandths: fc.integer({ min: 10, max: 12000 }) }) },
);

const thousandths = (n: number) => new D(n).div(1000).toFixed();

function intentOf(a: Action, om: OrderManager, strategy: string): OrderIntent | undefined {
  switch (a.kind) {
    case 'limit':
      return { kind: 'place', symbol: 'BTCPHP', side: a.side, type: 'LIMIT', price: new D(a.cents).div(100).toFixed(), quantity: thousandths(a.thousandths) };
    case 'market':
      return { kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quoteOrderQty: String(a.quote) };
    case 'cancel':
    case 'replace': {
      const mine = om.view(strategy).openOrders();
      const o = mine[a.pick % Math.max(1, mine.length)];
      if (o === undefined) return undefined;
      if (a.kind === 'cancel') return { kind: 'cancel', symbol: 'BTCPHP', clientOrderId: o.clientOrderId };
      return { kind: 'cancelReplace', symbol: 'BTCPHP', clientOrderId: o.clientOrderId, order: { side: o.side, type: 'LIMIT', price: o.price as string, quantity: thousandths(a.thousandths) } };
    }
    default:
      return undefined;
  }
}

describe('per-strategy capital (property)', () => {
  it('the ledgers together never exceed the account, and none goes below zero, whatever the strategies do', () => {
    let denied = 0;
    let filled = 0;
    fc.assert(
      fc.property(fc.array(action, { minLength: 20, maxLength: 80 }), (actions) => {
        const venue = new ModelVenue();
        const om = new OrderManager({ runId: 'prop', now: () => venue.time, instruments: [inst], balances: START, capital: CAPITAL });
        om.setLastPrice('BTCPHP', '100');
        for (const a of actions) {
          venue.time += 10;
          if (a.kind === 'fill') {
            const events = venue.fill(a.pick, a.share);
            filled += events.length ? 1 : 0;
            om.onVenueEvents(events);
          } else {
            const strategy = STRATEGIES[a.strategy] as string;
            const intent = intentOf(a, om, strategy);
            if (intent === undefined) continue;
            const r = om.submit(strategy, [intent], venue.time);
            denied += r.denials.filter((d) => d.violations.some((v) => v.check === 'capital')).length;
            for (const c of r.commands) om.onVenueEvents(venue.handle(c));
          }
          const ledgers = om.capital;
          if (ledgers === undefined) throw new Error('no capital');
          for (const asset of ['PHP', 'BTC']) {
            const sum = ledgers.allocated().get(asset) ?? ZERO;
            expect(sum.lte(om.account.totalOf(asset)), `${asset}: ledgers ${sum.toFixed()} > account ${om.account.totalOf(asset).toFixed()}`).toBe(true);
            for (const s of ledgers.strategies()) expect(ledgers.totalOf(s, asset).gte(0), `${s} ${asset} ${ledgers.totalOf(s, asset).toFixed()}`).toBe(true);
          }
        }
      }),
      { numRuns: 150 },
    );
    // The runs reached both sides of the rule: orders denied for capital, and fills moving ledgers.
    expect(denied).toBeGreaterThan(400);
    expect(filled).toBeGreaterThan(800);
  });
});
