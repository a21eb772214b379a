/**
 * exportState -> JSON -> a fresh engine's restoreState gives back the same engine: the same
 * queries, depth and balances (free + locked as saved, open orders' funds locked again), and the
 * same results for every later operation as an engine that never stopped (property test over
 * random sequences restarted at a random point).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../money/decimal.ts';
import { Balances } from '../../portfolio/balances.ts';
import type { EngineDump } from './dump.ts';
import { assembleDump } from './dump-history.ts';
import type { HistoryRecord } from './dump-history.ts';
import { SpotEngine } from '../engine.ts';
import type { SpotEngineOptions } from '../engine.ts';
import { harness, instrument } from '../test-support.ts';
import { ACCOUNTS, cancelAllOp, placeFields, printOp, px, request } from '../test-random-ops.ts';
import type { EngineEvent } from '../types.ts';

const SYMBOL = 'BTCPHP';
const FEES = { maker: '0.001', taker: '0.002' };

/** The balances a state file keeps: each account's total per asset, all of it free. */
function totalsOf(src: Balances): Balances {
  const out = new Balances();
  for (const acct of src.accounts()) {
    for (const b of src.all(acct)) {
      const total = new D(b.free).plus(b.locked);
      if (!total.isZero()) out.credit(acct, b.asset, total.toFixed());
    }
  }
  return out;
}

interface Restarted {
  engine: SpotEngine;
  balances: Balances;
  events: EngineEvent[];
  dump: EngineDump;
  report: ReturnType<SpotEngine['restoreState']>;
}

/** The dump as a frequent saver makes it: the head, plus each history record built on its own. */
function splitDump(engine: SpotEngine): EngineDump {
  const records: HistoryRecord[] = [];
  engine.visitHistory((key, item) => records.push(engine.historyRecord(key, item)));
  return assembleDump(JSON.parse(JSON.stringify(engine.exportHead())) as EngineDump, JSON.parse(JSON.stringify(records)) as typeof records);
}

/** A restart: the dump through JSON (whole, or head + history), balances as totals, an engine whose own first ids differ. */
function restart(engine: SpotEngine, balances: Balances, now: number, opts: Partial<SpotEngineOptions> = {}, split = false): Restarted {
  const dump = split ? splitDump(engine) : (JSON.parse(JSON.stringify(engine.exportState())) as EngineDump);
  const restored = totalsOf(balances);
  const events: EngineEvent[] = [];
  const fresh = new SpotEngine({
    instruments: [instrument()],
    defaultFees: FEES,
    feeAccountId: 'fees',
    firstOrderId: 3n ** 40n,
    firstTradeId: 5n,
    balances: restored,
    listener: (e) => events.push(e),
    ...opts,
  });
  const report = fresh.restoreState(dump, now);
  return { engine: fresh, balances: restored, events, dump, report };
}

/** Everything an account can see, plus the book and the balances. */
function view(engine: SpotEngine, balances: Balances, accounts: readonly string[]) {
  const per = accounts.map((a) => {
    const all = engine.allOrders(a);
    return {
      open: engine.openOrders(a),
      all,
      history: engine.historyOrders(a, SYMBOL, { limit: 1000 }),
      firstHistory: engine.historyOrders(a, SYMBOL, { orderId: '0', limit: 3 }),
      trades: engine.myTrades(a, SYMBOL, { limit: 1000 }),
      allTrades: engine.allTrades(a),
      counts: engine.openCounts(a, SYMBOL),
      byId: all.map((o) => engine.order(a, SYMBOL, { orderId: o.orderId })),
      byCid: all.map((o) => engine.order(a, SYMBOL, { clientOrderId: o.clientOrderId })),
      tradesOf: all.map((o) => engine.myTrades(a, SYMBOL, { orderId: o.orderId, limit: 1000 })),
    };
  });
  const money = [...accounts, 'fees'].map((a) => balances.all(a).filter((b) => b.free !== '0' || b.locked !== '0').sort((x, y) => x.asset.localeCompare(y.asset)));
  return {
    per,
    money,
    depth: engine.depth(SYMBOL, 1000),
    last: engine.lastPrice(SYMBOL),
    updateId: engine.bookUpdateId(SYMBOL),
    bid: engine.bestBid(SYMBOL),
    ask: engine.bestAsk(SYMBOL),
  };
}

describe('engine export / restore', () => {
  it('gives back open orders in book priority, history, trades, chains, last price and locked funds', () => {
    const fund = { BTC: '100', PHP: '1000000' };
    const h = harness({ fee: FEES, fund: { alice: fund, bob: fund, carol: fund } });
    // alice: two bids at 99 (the older first in time), one partly filled; a stop waiting; a stop
    // that triggered into a resting bid later than a newer order at its price.
    h.place('alice', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '1', clientOrderId: 'x' });
    h.place('carol', { side: 'BUY', type: 'LIMIT', price: '99', quantity: '2' });
    h.place('alice', { side: 'BUY', type: 'STOP_LOSS_LIMIT', price: '98', stopPrice: '101', quantity: '1', clientOrderId: 'stop' });
    h.place('alice', { side: 'BUY', type: 'TAKE_PROFIT', stopPrice: '90', quoteOrderQty: '50' });
    h.place('carol', { side: 'BUY', type: 'LIMIT', price: '98', quantity: '1' });
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '99', quantity: '0.5' }, 1001);
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '101', quantity: '0.4' }, 1002);
    h.place('carol', { side: 'BUY', type: 'LIMIT', price: '101', quantity: '0.4' }, 1003); // trades at 101: the stop triggers, rests at 98 behind carol
    const cancel = h.engine.cancelOrder('alice', SYMBOL, { clientOrderId: 'x' }, 1004);
    expect(cancel.ok).toBe(true);
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '105', quantity: '1', clientOrderId: 'x' }, 1005); // reuses the client id
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '106', quantity: '2' }, 1006);
    const accounts = ['alice', 'bob', 'carol'];
    const before = view(h.engine, h.balances, accounts);
    expect(before.depth.bids).toEqual([
      ['99', '2'],
      ['98', '2'],
    ]);

    const r = restart(h.engine, h.balances, 2000);
    expect(r.report.dropped).toEqual([]);
    // Head + history records give the same dump as the whole export.
    expect(splitDump(h.engine)).toEqual(r.dump);
    const keys: number[] = [];
    h.engine.visitHistory((key) => keys.push(key));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThan(5);
    expect(r.report.openOrders).toBe(h.engine.openOrders('alice').length + h.engine.openOrders('bob').length + h.engine.openOrders('carol').length);
    expect(view(r.engine, r.balances, accounts)).toEqual(before);
    expect(r.events).toEqual([]);
    for (const a of accounts) for (const b of h.balances.all(a)) expect(r.balances.get(a, b.asset)).toEqual({ free: b.free, locked: b.locked });
    expect(r.engine.order('alice', SYMBOL, { clientOrderId: 'x' }).map((o) => o.status)).toEqual(['NEW', 'CANCELED']);

    // Later orders match the restored ones by price-time priority: carol's 98 bid before alice's triggered stop.
    const sell = r.engine.placeOrder('bob', { symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '98', quantity: '3' }, 3000);
    const same = h.engine.placeOrder('bob', { symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '98', quantity: '3' }, 3000);
    expect(JSON.parse(JSON.stringify(sell))).toEqual(JSON.parse(JSON.stringify(same)));
    expect(r.engine.openOrders('carol')).toEqual([]);
    expect(r.engine.openOrders('alice').map((o) => [o.type, o.price, o.isWorking])).toEqual([
      ['STOP_LOSS_LIMIT', '98', true],
      ['TAKE_PROFIT', '0', false],
      ['LIMIT', '105', true],
    ]);
    expect(r.engine.depth(SYMBOL).bids).toEqual([['98', '1']]);
    expect(BigInt((sell.ok && sell.order.orderId) || '0')).toBeGreaterThan(BigInt(r.dump.orderIds.next) - 1n);
    expect(view(r.engine, r.balances, accounts)).toEqual(view(h.engine, h.balances, accounts));
  });

  it('keeps commissions at the rates trades were made at, and ids beyond the engine configured first', () => {
    const h = harness({ fee: FEES });
    h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const trades = h.engine.myTrades('bob', SYMBOL);
    expect(trades[0]?.commission).toBe('0.2');
    const r = restart(h.engine, h.balances, 2000, { defaultFees: { maker: '0', taker: '0.01' }, firstOrderId: 2n ** 62n });
    expect(r.engine.myTrades('bob', SYMBOL)).toEqual(trades);
    const next = r.engine.placeOrder('alice', { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '100', quantity: '1' }, 3000);
    expect(next.ok && next.order.orderId).toBe(r.dump.orderIds.next);
  });

  it('cancels an open order whose funds the restored balances do not hold, and keeps the rest', () => {
    const h = harness({ fee: FEES });
    const a = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const b = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '90', quantity: '1' });
    const dump = JSON.parse(JSON.stringify(h.engine.exportState())) as EngineDump;
    const balances = new Balances();
    balances.credit('alice', 'PHP', '150'); // the file says 150 PHP; the orders hold 190
    const engine = new SpotEngine({ instruments: [instrument()], defaultFees: FEES, feeAccountId: 'fees', balances });
    const report = engine.restoreState(dump, 5000);
    expect(report.dropped).toEqual([
      { kind: 'order', symbol: SYMBOL, id: b.order.orderId, accountId: 'alice', outcome: 'canceled', reason: 'it holds 90 PHP but the account has 50 free' },
    ]);
    expect(engine.openOrders('alice').map((o) => o.orderId)).toEqual([a.order.orderId]);
    expect(engine.order('alice', SYMBOL, { orderId: b.order.orderId })[0]).toMatchObject({ status: 'CANCELED', updateTime: 5000 });
    expect(balances.get('alice', 'PHP')).toEqual({ free: '50', locked: '100' });
    expect(engine.depth(SYMBOL).bids).toEqual([['100', '1']]);
  });

  it('reports the orders of a symbol the engine no longer lists, and refuses an engine that already traded', () => {
    const h = harness({ fee: FEES });
    const o = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const dump = JSON.parse(JSON.stringify(h.engine.exportState())) as EngineDump;
    const engine = new SpotEngine({ instruments: [instrument({ symbol: 'ETHPHP' })], feeAccountId: 'fees', balances: totalsOf(h.balances) });
    const report = engine.restoreState(dump, 1);
    expect(report.dropped.map((d) => [d.kind, d.id])).toEqual([
      ['symbol', ''],
      ['order', o.order.orderId],
    ]);
    expect(() => h.engine.restoreState(dump, 1)).toThrow(/no order or trade/);
  });

  it('restores trades whose orders retention already forgot', () => {
    const h = harness({ fee: FEES, retain: 2 });
    for (let i = 0; i < 40; i++) {
      h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.1' }, 1000 + i);
      h.place('bob', { side: i % 2 ? 'SELL' : 'SELL', type: 'MARKET', quantity: '0.1' }, 1000 + i);
    }
    const accounts = ['alice', 'bob'];
    const before = view(h.engine, h.balances, accounts);
    const r = restart(h.engine, h.balances, 2000, { retain: 2 });
    expect(view(r.engine, r.balances, accounts)).toEqual(before);
  });
});

// ---- property: a restart at any point changes nothing that follows --------------------------

const placeOp = fc.record({ ...placeFields, cid: fc.option(fc.constantFrom('p', 'q', 'auto-1'), { nil: undefined }) });
const cancelOp = fc.record({ op: fc.constant('cancel' as const), acct: fc.integer({ min: 0, max: 2 }), pick: fc.nat(), byCid: fc.boolean() });
const feeOp = fc.record({ op: fc.constant('fees' as const), maker: fc.constantFrom('0', '0.001', '0.0015'), taker: fc.constantFrom('0.002', '0.003') });
const replaceOp = fc.record({ op: fc.constant('replace' as const), acct: fc.integer({ min: 0, max: 2 }), pick: fc.nat(), price: fc.integer({ min: -6, max: 6 }) });
const op = fc.oneof({ arbitrary: placeOp, weight: 12 }, { arbitrary: cancelOp, weight: 2 }, cancelAllOp, printOp, feeOp, replaceOp);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** One operation; its result as JSON (results, snapshots, fills and events). */
function apply(engine: SpotEngine, step: Op, now: number): unknown {
  let out: unknown;
  if (step.op === 'place') {
    const ext = step.ext === undefined ? undefined : { externalPrice: px(step.ext) };
    out = engine.placeOrder(ACCOUNTS[step.acct] as string, request(step), now, ext);
  } else if (step.op === 'cancel' || step.op === 'replace') {
    const acct = ACCOUNTS[step.acct] as string;
    const open = engine.openOrders(acct);
    const target = open[step.pick % Math.max(1, open.length)];
    if (target === undefined) return null;
    if (step.op === 'cancel') out = engine.cancelOrder(acct, SYMBOL, step.byCid ? { clientOrderId: target.clientOrderId } : { orderId: target.orderId }, now);
    else
      out = engine.cancelReplace(
        acct,
        { symbol: SYMBOL, cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: target.orderId, side: target.side, type: 'LIMIT', timeInForce: 'GTC', price: px(step.price), quantity: '0.5' },
        now,
      );
  } else if (step.op === 'cancelAll') {
    out = engine.cancelAll(ACCOUNTS[step.acct] as string, SYMBOL, now);
  } else if (step.op === 'print') {
    out = engine.applyPrint(SYMBOL, { price: px(step.price), time: now, maxQty: step.maxQty === undefined ? undefined : String(step.maxQty / 10), mode: step.touch ? 'touch' : 'through' });
  } else {
    engine.setFees(SYMBOL, { maker: step.maker, taker: step.taker });
    return null;
  }
  return JSON.parse(JSON.stringify(out));
}

describe('engine restart property', () => {
  it('a restart at a random point gives the same later results and state as none', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 10, maxLength: 50 }), fc.nat(), fc.constantFrom(undefined, 3), fc.boolean(), (sequence, at, retain, halves) => {
        const fund = { a: { BTC: '20', PHP: '2000' }, b: { BTC: '20', PHP: '2000' }, c: { BTC: '1', PHP: '150' } };
        const h = harness({ fund, fee: FEES, ...(retain === undefined ? {} : { retain }) });
        const split = at % (sequence.length + 1);
        let now = 1000;
        let lastFees = FEES;
        for (const step of sequence.slice(0, split)) {
          apply(h.engine, step, ++now);
          if (step.op === 'fees') lastFees = { maker: step.maker, taker: step.taker };
        }
        // The restarted engine is configured with the fees in force (as the sandbox's config would be).
        const r = restart(h.engine, h.balances, now, { defaultFees: lastFees, ...(retain === undefined ? {} : { retain }) }, halves);
        expect(r.report.dropped).toEqual([]);
        expect(view(r.engine, r.balances, ACCOUNTS)).toEqual(view(h.engine, h.balances, ACCOUNTS));
        for (const step of sequence.slice(split)) {
          now++;
          expect(apply(r.engine, step, now)).toEqual(apply(h.engine, step, now));
        }
        expect(view(r.engine, r.balances, ACCOUNTS)).toEqual(view(h.engine, h.balances, ACCOUNTS));
      }),
      { numRuns: 150 },
    );
  });
});
