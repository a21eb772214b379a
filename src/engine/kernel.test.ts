import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instrument } from '../core/orders/test-support.ts';
import { OrderManager } from '../core/orders/index.ts';
import type { VenueCommand, VenueEvent, VenueEventSink, VenuePort } from '../ports/venue.ts';
import { defineStrategy } from '../strategy/define.ts';
import { cancel, cancelReplace, place } from '../strategy/intents/intents.ts';
import type { StrategyFailure } from '../strategy/types.ts';
import { Kernel } from './kernel.ts';

const inst = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
  ],
});

/** A venue that answers at once, inside send: a NEW, then a fill of everything at the order's price (stops only rest). */
class EchoVenue implements VenuePort {
  readonly sent: VenueCommand[] = [];
  private sink: VenueEventSink = () => undefined;
  private n = 0;
  constructor(private readonly time: () => number) {}
  connect(sink: VenueEventSink): void {
    this.sink = sink;
  }
  send(c: VenueCommand): void {
    this.sent.push(c);
    if (c.kind !== 'place') return;
    const id = String(++this.n);
    const base = { symbol: c.symbol, clientOrderId: c.clientOrderId, orderId: id, time: this.time() };
    const stop = c.stopPrice !== undefined;
    const ack: VenueEvent = { kind: 'order', ...base, status: 'NEW', executedQty: '0', cumulativeQuoteQty: '0', working: !stop };
    const q = c.quantity ?? '1';
    const price = c.price ?? '100';
    const fill: VenueEvent = { kind: 'fill', ...base, tradeId: id, side: c.side, price, qty: q, quoteQty: String(Number(q) * Number(price)), commission: '0', commissionAsset: 'PHP', isMaker: false, orderStatus: 'FILLED', cumulativeQty: q, cumulativeQuoteQty: '0', time: this.time() };
    this.sink([ack]);
    if (!stop) this.sink([fill]);
  }
}

function setup(balances: Record<string, string> = { PHP: '1000' }, maxRounds?: number) {
  const clock = { t: 5000, now() { return this.t; } };
  const orders = new OrderManager({ runId: 'k', now: () => clock.t, instruments: [inst], balances });
  const venue = new EchoVenue(() => clock.t);
  const failures: StrategyFailure[] = [];
  const kernel = new Kernel({ orders, venue, clock, onFailure: (f) => failures.push(f), ...(maxRounds ? { maxRounds } : {}) });
  return { clock, orders, venue, kernel, failures };
}

const bar = { openTime: 0, closeTime: 59_999, open: 1, high: 1, low: 1, close: 1, volume: 1, exact: { open: '1', high: '1', low: '1', close: '1', volume: '1' } };

describe('Kernel', () => {
  it('sends approved intents, tells the strategy of acks, fills and denials in order, all re-entrancy safe', () => {
    const seen: string[] = [];
    const def = defineStrategy({
      name: 'once',
      params: z.object({}),
      symbols: ['BTCPHP'],
      onStart: () => [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', tag: 'ok' }), place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '100', price: '100', tag: 'big' })],
      onOrderUpdate: (_c, u) => void seen.push(`${u.tag} ${u.status}`),
      onFill: (ctx, f) => {
        seen.push(`fill ${f.tag} ${f.qty.toFixed()} held ${ctx.position().base.toFixed()}`);
      },
    });
    const { kernel, venue } = setup();
    kernel.addStrategy(def);
    kernel.start();
    expect(venue.sent.map((c) => (c.kind === 'place' ? c.clientOrderId.slice(-4) : c.kind))).toEqual(['ok-1']); // 'big' never reached the venue
    // The denial is the answer of the submit itself; the venue's events follow, FIFO.
    expect(seen).toEqual(['big DENIED', 'ok NEW', 'fill ok 1 held 1', 'ok FILLED']);
  });

  it('a host hook that throws does not cut a venue batch short: the strategy is told of every fill and update, then the error reaches the host', () => {
    const seen: string[] = [];
    const def = defineStrategy({
      name: 'two',
      params: z.object({}),
      symbols: ['BTCPHP'],
      onStart: () => [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', tag: 'a' }), place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '2', price: '100', tag: 'b' })],
      onOrderUpdate: (_c, u) => void seen.push(`${u.tag} ${u.status}`),
      onFill: (_c, f) => void seen.push(`fill ${f.tag} ${f.qty.toFixed()}`),
    });
    const clock = { t: 5000, now() { return this.t; } };
    const orders = new OrderManager({ runId: 'k', now: () => clock.t, instruments: [inst], balances: { PHP: '1000' } });
    const venue = new EchoVenue(() => clock.t);
    const journaled: string[] = [];
    let fills = 0;
    const kernel = new Kernel({
      orders,
      venue,
      clock,
      onFill: (_s, f) => {
        if (++fills === 1) throw new Error('disk full');
        journaled.push(f.tradeId);
      },
      onOrderUpdate: (_s, u) => {
        if (u.status === 'FILLED' && u.tag === 'b') throw new Error('disk full again');
      },
    });
    kernel.addStrategy(def);
    // The first hook error reaches the host once the drain is done: every fill and update was told
    // to the strategy all the same, b's too (its own hook error is the second: not the one thrown).
    expect(() => kernel.start()).toThrow(/^disk full$/);
    expect(seen).toEqual(['a NEW', 'fill a 1', 'a FILLED', 'b NEW', 'fill b 2', 'b FILLED']);
    expect(journaled).toEqual(['2']);
    expect(String(orders.account.position('BTCPHP')?.base)).toBe('3');
  });

  it('a cancel that finds no order of the strategy reaches it through onDenial, with the reasons; one that finds its order comes as an order update', () => {
    const seen: string[] = [];
    const denied: unknown[] = [];
    const def = defineStrategy({
      name: 'canceller',
      params: z.object({}),
      symbols: ['BTCPHP'],
      onStart: () => [cancel({ symbol: 'BTCPHP', clientOrderId: 'nope-1' }), cancel({ symbol: 'BTCPHP', tag: 'gone' })],
      onDenial: (ctx, d) => {
        denied.push(d);
        expect(Object.isFrozen(d) && Object.isFrozen(d.reasons)).toBe(true);
        // The handler's intents go on as any handler's do.
        if (d.tag === 'gone') return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', tag: 'after' })];
      },
      onOrderUpdate: (_c, u) => void seen.push(`${u.tag} ${u.status}`),
    });
    const { kernel, venue, clock } = setup();
    kernel.addStrategy(def);
    kernel.start();
    expect(denied).toEqual([
      { intent: 'cancel', symbol: 'BTCPHP', tag: undefined, clientOrderId: 'nope-1', reasons: [expect.stringMatching(/no open order with client order id nope-1/)], time: clock.t },
      { intent: 'cancel', symbol: 'BTCPHP', tag: 'gone', clientOrderId: undefined, reasons: [expect.stringMatching(/gone/)], time: clock.t },
    ]);
    expect(venue.sent.map((c) => c.kind)).toEqual(['place']);
    expect(seen).toEqual(['after NEW', 'after FILLED']);
  });

  it('a cancel-replace that finds no order of the strategy reaches it through onDenial too, not as a DENIED update of an order that never was', () => {
    const seen: string[] = [];
    const denied: unknown[] = [];
    const def = defineStrategy({
      name: 'replacer',
      params: z.object({}),
      symbols: ['BTCPHP'],
      onStart: () => [cancelReplace({ symbol: 'BTCPHP', tag: 'gone', order: { side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' } })],
      onDenial: (_c, d) => void denied.push(d),
      onOrderUpdate: (_c, u) => void seen.push(`${u.tag ?? ''} ${u.status}`),
    });
    const { kernel, venue, clock } = setup();
    kernel.addStrategy(def);
    kernel.start();
    expect(denied).toEqual([{ intent: 'cancelReplace', symbol: 'BTCPHP', tag: 'gone', clientOrderId: undefined, reasons: ["no open order with tag 'gone' on BTCPHP to replace"], time: clock.t }]);
    expect(seen).toEqual([]);
    expect(venue.sent).toEqual([]);
  });

  it("a strategy cannot loosen the pre-trade checks through ctx.instrument(): the filters it sees are the checks' own, frozen", () => {
    const { kernel, venue, failures } = setup();
    const seen: string[] = [];
    kernel.addStrategy(
      defineStrategy({
        name: 'loosen',
        params: z.object({}),
        symbols: ['BTCPHP'],
        onStart(ctx) {
          (ctx.instrument().filters as unknown[]).length = 0; // throws: the strategy is stopped, its order never goes
          return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.0015', price: '100.005' })];
        },
      }),
    );
    kernel.addStrategy(
      defineStrategy({
        name: 'after',
        params: z.object({}),
        symbols: ['BTCPHP'],
        onStart: () => [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.0015', price: '100.005', tag: 'off' })],
        onOrderUpdate: (_c, u) => void seen.push(`${u.tag} ${u.status}`),
      }),
    );
    kernel.start();
    expect(failures.map((f) => `${f.strategy} ${f.handler} ${f.kind}`)).toEqual(['loosen onStart threw']);
    expect(inst.filters.length).toBe(2);
    expect(venue.sent).toEqual([]);
    expect(seen).toEqual(['off DENIED']); // still off the tick and step
  });

  it('refuses a strategy whose client order ids could be another hosted strategy\'s', () => {
    const orders = new OrderManager({ runId: 'backtest', now: () => 0, instruments: [inst], balances: {} });
    const kernel = new Kernel({ orders, venue: new EchoVenue(() => 0), clock: { now: () => 0 } });
    const named = (name: string) => defineStrategy({ name, params: z.object({}), symbols: ['BTCPHP'], onBar: () => undefined });
    kernel.addStrategy(named('s329599'));
    expect(() => kernel.addStrategy(named('s532382'))).toThrow(/would share client order ids/); // FNV-1a keys collide in run 'backtest'
    expect(kernel.runners.map((r) => r.name)).toEqual(['s329599']);
  });

  it('starts a strategy added to a running kernel at once (its onStart intents are placed), and refuses one after stop', () => {
    const { kernel, venue, clock } = setup();
    const seen: string[] = [];
    const early = defineStrategy({ name: 'early', params: z.object({}), symbols: ['BTCPHP'], onStart: () => void seen.push('early start'), onBar: () => void seen.push('early bar') });
    kernel.addStrategy(early);
    kernel.start();
    const late = defineStrategy({
      name: 'late',
      params: z.object({}),
      symbols: ['BTCPHP'],
      onStart: () => {
        seen.push('late start');
        return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', tag: 'late' })];
      },
      onBar: () => void seen.push('late bar'),
    });
    const runner = kernel.addStrategy(late);
    expect(runner.status).toBe('running');
    expect(venue.sent.map((c) => (c.kind === 'place' ? c.clientOrderId.length > 0 && c.side : c.kind))).toEqual(['BUY']);
    kernel.start(); // a second start starts nothing twice
    clock.t = 60_000;
    kernel.bar('BTCPHP', '1m', bar);
    expect(seen).toEqual(['early start', 'late start', 'early bar', 'late bar']);
    kernel.stop();
    expect(() => kernel.addStrategy(defineStrategy({ name: 'after', params: z.object({}), symbols: ['BTCPHP'], onBar: () => undefined }))).toThrow(/cannot host 'after': the kernel has stopped/);
  });

  it('stops a strategy that throws, cancels its open orders, and keeps the others running', () => {
    const { kernel, orders, venue, failures, clock } = setup({ PHP: '100000' });
    const bad = defineStrategy({
      name: 'bad',
      params: z.object({}),
      symbols: ['BTCPHP'],
      onStart: () => [place({ symbol: 'BTCPHP', side: 'BUY', type: 'STOP_LOSS_LIMIT', quantity: '1', price: '100', stopPrice: '100', tag: 's' })],
      onBar: () => {
        throw new Error('boom');
      },
    });
    let bars = 0;
    const good = defineStrategy({ name: 'good', params: z.object({}), symbols: ['BTCPHP'], onBar: () => void bars++ });
    kernel.addStrategy(bad);
    kernel.addStrategy(good);
    kernel.start();
    clock.t = 60_000;
    kernel.bar('BTCPHP', '1m', bar);
    clock.t = 120_000;
    kernel.bar('BTCPHP', '1m', { ...bar, openTime: 60_000, closeTime: 119_999 });
    expect(failures).toMatchObject([{ strategy: 'bad', handler: 'onBar', kind: 'threw', message: 'boom' }]);
    expect(bars).toBe(2);
    expect(kernel.runner('bad')?.status).toBe('failed');
    expect(venue.sent.at(-1)).toMatchObject({ kind: 'cancel', clientOrderId: expect.stringMatching(/s-1$/) });
    expect([...orders.orders.openOrders('bad')][0]?.status).toBe('PENDING_CANCEL');
  });

  it("drops a failed strategy's intents still queued: nothing it asked for before failing is placed after its orders were cancelled", () => {
    const { kernel, venue, orders, failures } = setup({ PHP: '100000', BTC: '1' });
    kernel.addStrategy(
      defineStrategy({
        name: 'late',
        params: z.object({}),
        symbols: ['BTCPHP'],
        onStart: () => [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', tag: 'a' })],
        // Queued while the venue's batch (the fill, then FILLED) is still being delivered...
        onFill: () => [place({ symbol: 'BTCPHP', side: 'SELL', type: 'STOP_LOSS_LIMIT', quantity: '1', price: '90', stopPrice: '90', tag: 'sl' })],
        // ...and the strategy fails before the queue reaches it.
        onOrderUpdate: (_c, u) => {
          if (u.status === 'FILLED') throw new Error('boom');
        },
      }),
    );
    kernel.start();
    expect(failures.map((f) => f.handler)).toEqual(['onOrderUpdate']);
    expect(venue.sent).toEqual([expect.objectContaining({ kind: 'place', clientOrderId: expect.stringMatching(/a-1$/) })]); // no stop-loss
    expect([...orders.orders.openOrders('late')]).toEqual([]);
  });

  it('stops a strategy that answers every denial with another order', () => {
    const { kernel, failures } = setup({ PHP: '0' }, 50);
    const loop = defineStrategy({
      name: 'loop',
      params: z.object({}),
      symbols: ['BTCPHP'],
      onStart: () => [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' })],
      onOrderUpdate: () => [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' })],
    });
    kernel.addStrategy(loop);
    kernel.start();
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toMatch(/more than 50 intent batches/);
    expect(kernel.runner('loop')?.status).toBe('failed');
    expect(kernel.runner('loop')?.failure).toBe(failures[0]);
  });

  it('an intent loop is a failure like any other: no onStop (its orders would land after the cancels), open orders cancelled', () => {
    const { kernel, venue, orders, failures } = setup({ PHP: '1000', BTC: '1' }, 5);
    let stops = 0;
    kernel.addStrategy(
      defineStrategy({
        name: 'loop',
        params: z.object({}),
        symbols: ['BTCPHP'],
        onStart: () => [
          place({ symbol: 'BTCPHP', side: 'SELL', type: 'STOP_LOSS_LIMIT', quantity: '0.5', price: '90', stopPrice: '90', tag: 'sl' }),
          place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '100', price: '100', tag: 'big' }),
        ],
        onOrderUpdate: (_c, u) => (u.status === 'DENIED' ? [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '100', price: '100', tag: 'big' })] : undefined),
        onStop: () => {
          stops++;
          return [place({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.05', price: '100', tag: 'late' })];
        },
      }),
    );
    kernel.start();
    expect(failures).toHaveLength(1);
    expect(stops).toBe(0);
    expect(venue.sent.map((c) => c.kind)).toEqual(['place', 'cancel']);
    expect([...orders.orders.openOrders('loop')].map((o) => o.status)).toEqual(['PENDING_CANCEL']);
  });
});
