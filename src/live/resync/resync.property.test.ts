/**
 * The live adapter's event side end to end, on random order flows (issue 20 deliverables 4 and
 * 5): a venue places, fills, partly fills, cancels, expires orders; the adapter sees its user
 * stream only up to a random gap (with duplicates and reorderings inside what it saw) and the
 * new-order answers (ACK, RESULT or FULL) whenever they come, some of them lost (a timeout
 * before or after the venue got the order). Everything it saw goes through the seen ledger to a
 * real OrderManager; then the resync's queries are answered from the venue's final state and its
 * events go the same way. The order manager must end exactly where the venue is: every fill once
 * (and forwarded once), none lost, every status final as the venue's (an order that never
 * reached it REJECTED), executed quantities and quotes, balances and positions equal. The
 * ledger forgets closed orders after a random window (at once, soon, never) as it goes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInstrument } from '../../core/market/instrument.ts';
import { D } from '../../core/money/decimal.ts';
import { OrderManager } from '../../core/orders/order-manager.ts';
import type { NewOrderResponse } from '../../exchange/codecs/order.ts';
import type { PlaceCommand, VenueEvent } from '../../ports/venue.ts';
import { fromAccountPosition } from '../events/from-account-position.ts';
import { fromExecutionReport } from '../events/from-execution-report.ts';
import { fromNewOrderResponse } from '../events/from-new-order.ts';
import type { EventPath, LiveEvent } from '../events/live-events.ts';
import { SeenLedger } from '../events/seen-ledger.ts';
import { eventsFromResync } from './events-from-resync.ts';
import { planResync } from './plan-resync.ts';
import type { ResyncAnswer } from './resync-queries.ts';
import { ASSETS, TestVenue } from './test-venue.ts';
import type { StreamItem } from './test-venue.ts';

const START = { PHP: '100000', BTC: '10', ETH: '10' };
const SYMBOLS = ['BTCPHP', 'ETHPHP'];

const instruments = SYMBOLS.map((symbol) =>
  parseInstrument({
    symbol,
    status: 'TRADING',
    baseAsset: ASSETS[symbol]?.base,
    baseAssetPrecision: 8,
    quoteAsset: 'PHP',
    quoteAssetPrecision: 2,
    orderTypes: ['LIMIT'],
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
      { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
      { filterType: 'NOTIONAL', minNotional: '1', maxNotional: '10000000' },
      { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 50 },
    ],
  }),
);

type Fate = 'ok' | 'lostAfter' | 'lostBefore';

const orderArb = fc.record({
  symbol: fc.constantFrom(...SYMBOLS),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  units: fc.integer({ min: 2, max: 20 }),
  cents: fc.integer({ min: 9000, max: 11000 }),
  fate: fc.constantFrom<Fate>('ok', 'ok', 'ok', 'lostAfter', 'lostBefore'),
  resp: fc.constantFrom('ACK' as const, 'RESULT' as const, 'FULL' as const),
  immediate: fc.integer({ min: 0, max: 24 }),
  placeAt: fc.nat({ max: 30 }),
  /** How many stream items after its placement the REST answer (or the timeout) reaches the adapter. */
  lag: fc.nat({ max: 12 }),
});

const opArb = fc.record({
  order: fc.nat(),
  kind: fc.constantFrom('fill', 'fill', 'fill', 'cancel', 'expire', 'stp'),
  units: fc.integer({ min: 1, max: 12 }),
  skip: fc.nat({ max: 3 }),
});

const scenarioArb = fc.record({
  orders: fc.array(orderArb, { minLength: 1, maxLength: 5 }),
  ops: fc.array(opArb, { maxLength: 25 }),
  /** Where the stream breaks, as a share of it. */
  gap: fc.double({ min: 0, max: 1, noNaN: true }),
  dups: fc.array(fc.record({ at: fc.nat(), to: fc.nat() }), { maxLength: 5 }),
  swaps: fc.array(fc.nat(), { maxLength: 5 }),
  pageLimit: fc.integer({ min: 1, max: 4 }),
  openOrdersAll: fc.boolean(),
  /** The ledger's window for closed orders: forgotten at once, soon, or never. */
  retainClosedMs: fc.constantFrom(0, 3, 1e12),
});

type Input = { readonly path: EventPath; readonly events: () => LiveEvent[] };

const unit = new D('0.01');

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function run(sc: Scenario): void {
  const clock = { t: 1000 };
  const om = new OrderManager({ runId: 'prop', now: () => clock.t, instruments, balances: START });
  const ledger = new SeenLedger({ retainClosedMs: sc.retainClosedMs });
  const venue = new TestVenue(START);

  // The bot submits every order up front (its commands carry the deterministic client ids).
  const cmds: PlaceCommand[] = sc.orders.map((o, i) => {
    const r = om.submit('s1', [{ kind: 'place', symbol: o.symbol, side: o.side, type: 'LIMIT', timeInForce: 'GTC', price: new D(o.cents).div(100).toFixed(), quantity: unit.times(o.units).toFixed(), tag: `o${i}` }], 1000);
    expect(r.denials).toEqual([]);
    const cmd = r.commands[0] as PlaceCommand;
    ledger.placed(cmd);
    return cmd;
  });

  // The venue's story, and when each REST answer or timeout reaches the adapter (a stream position).
  const rest: { at: number; input: Input }[] = [];
  const placeOrder = (i: number) => {
    const o = sc.orders[i]!;
    const cmd = cmds[i]!;
    const at = venue.stream.length + o.lag;
    const timeout: Input = { path: 'newOrder', events: () => [{ kind: 'unknownOutcome', symbol: cmd.symbol, clientOrderId: cmd.clientOrderId, command: 'place', reason: 'timeout', time: 1 }] };
    if (o.fate === 'lostBefore') {
      rest.push({ at, input: timeout });
      return;
    }
    const answer: NewOrderResponse = venue.place(cmd, unit.times(o.immediate), o.resp);
    rest.push({ at, input: o.fate === 'ok' ? { path: 'newOrder', events: () => fromNewOrderResponse(answer, { side: cmd.side, type: cmd.type }) } : timeout });
  };
  for (let step = 0; step <= sc.ops.length; step++) {
    sc.orders.forEach((o, i) => {
      if (Math.min(o.placeAt, sc.ops.length) === step) placeOrder(i);
    });
    const op = sc.ops[step];
    if (op === undefined) continue;
    const cid = cmds[op.order % cmds.length]!.clientOrderId;
    if (op.kind === 'fill') venue.fill(cid, unit.times(op.units), op.skip);
    else venue.end(cid, op.kind as 'cancel' | 'expire' | 'stp');
  }

  // What the adapter saw: the stream up to the gap, the REST answers (those due after the gap
  // arrive while the stream is down), then duplicates and reorderings.
  const gap = Math.min(venue.stream.length, Math.floor(sc.gap * (venue.stream.length + 1)));
  const seen: Input[] = [];
  const streamInput = (item: StreamItem): Input => ({ path: 'stream', events: () => (item.kind === 'report' ? fromExecutionReport(item.report) : fromAccountPosition(item.position)) });
  for (let i = 0; i <= gap; i++) {
    for (const r of rest) if (r.at === i || (i === gap && r.at > gap)) seen.push(r.input);
    if (i < gap) seen.push(streamInput(venue.stream[i]!));
  }
  for (const d of sc.dups) {
    if (seen.length === 0) break;
    const from = d.at % seen.length;
    seen.splice(from + 1 + (d.to % (seen.length - from)), 0, seen[from]!);
  }
  for (const s of sc.swaps) {
    if (seen.length < 2) break;
    const i = s % (seen.length - 1);
    [seen[i], seen[i + 1]] = [seen[i + 1]!, seen[i]!];
  }

  const forwardedFills: string[] = [];
  const appliedFills: string[] = [];
  const apply = (events: readonly LiveEvent[], path: EventPath) => {
    const { forward, dropped } = ledger.admit(events, path);
    for (const e of forward) if (e.kind === 'fill') forwardedFills.push(`${e.orderId}/${e.tradeId}`);
    expect(forward.some((e) => e.kind === 'adopt')).toBe(false);
    const r = om.onVenueEvents(forward as VenueEvent[]);
    for (const e of r.events) if (e.kind === 'fill') appliedFills.push(`${e.fill.orderId}/${e.fill.tradeId}`);
    expect(r.issues.filter((i) => i.kind === 'unknown-order')).toEqual([]);
    return { forward, dropped, issues: r.issues };
  };
  let latest = 0;
  for (const input of seen) {
    const events = input.events();
    apply(events, input.path);
    for (const e of events) latest = Math.max(latest, e.time);
    ledger.prune(latest);
  }

  // The resync, answered from the venue's final state.
  const answers: ResyncAnswer[] = [];
  const opts = { pageLimit: sc.pageLimit, openOrders: sc.openOrdersAll ? ('all' as const) : ('per-symbol' as const) };
  const snapshot = ledger.snapshot();
  for (let q = planResync(snapshot, SYMBOLS, [], opts), rounds = 0; q.length > 0; q = planResync(snapshot, SYMBOLS, answers, opts)) {
    expect(++rounds).toBeLessThan(100);
    answers.push(...q.map((x) => venue.answer(x)));
  }
  const result = eventsFromResync(ledger.snapshot(), answers, { now: venue.time + 1 });
  expect(result.foreign).toEqual([]);
  expect(result.unmatched).toEqual([]);
  expect(result.incomplete).toEqual([]);
  const admitted = apply(result.events, 'resync');
  expect(admitted.dropped.map((d) => d.reason)).toEqual([]); // exactly the missed events: nothing the ledger had

  // Every fill once, none lost.
  const trades = venue.trades.map((t) => `${t.orderId}/${t.id}`).sort();
  expect([...forwardedFills].sort()).toEqual(trades);
  expect([...appliedFills].sort()).toEqual(trades);
  // Every order where the venue has it.
  sc.orders.forEach((o, i) => {
    const cid = cmds[i]!.clientOrderId;
    const mine = om.orders.get(cid);
    const v = venue.orders.get(cid);
    if (v === undefined) {
      expect(o.fate).toBe('lostBefore');
      expect(mine?.status).toBe('REJECTED');
      return;
    }
    expect({ cid, status: mine?.status, executed: mine?.executedQty.toFixed(), quote: mine?.cumQuote.toFixed(), orderId: mine?.orderId }).toEqual({ cid, status: v.status, executed: v.executed.toFixed(), quote: v.cumQuote.toFixed(), orderId: v.orderId });
  });
  // Balances and positions.
  for (const [asset, b] of venue.balances) {
    const got = om.account.balances().find((x) => x.asset === asset);
    expect({ asset, free: new D(got?.free ?? 0).toFixed(), locked: new D(got?.locked ?? 0).toFixed() }).toEqual({ asset, free: b.free.toFixed(), locked: b.locked.toFixed() });
  }
  for (const symbol of SYMBOLS) {
    let base = new D(0);
    for (const t of venue.trades) if (t.symbol === symbol) base = t.isBuyer ? base.plus(t.qty).minus(t.commission) : base.minus(t.qty);
    expect(om.account.baseOf(symbol).toFixed()).toBe(base.toFixed());
  }
}

describe('resync after a gap (property)', () => {
  it('prefix + resync brings the order manager exactly to the venue: every fill once, statuses, balances', () => {
    fc.assert(
      fc.property(scenarioArb, (sc) => run(sc)),
      { numRuns: 400 },
    );
  });
});
