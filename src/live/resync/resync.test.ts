import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import type { PlaceCommand } from '../../ports/venue.ts';
import { fromExecutionReport } from '../events/from-execution-report.ts';
import type { LiveEvent } from '../events/live-events.ts';
import { SeenLedger } from '../events/seen-ledger.ts';
import { NOT_PLACED_REASON, eventsFromResync } from './events-from-resync.ts';
import { planResync } from './plan-resync.ts';
import type { ResyncPlanOptions } from './plan-resync.ts';
import { queryKey } from './resync-queries.ts';
import type { ResyncAnswer } from './resync-queries.ts';
import { TestVenue } from './test-venue.ts';

const cmd = (cid: string, over: Partial<PlaceCommand> = {}): PlaceCommand => ({ kind: 'place', symbol: 'BTCPHP', clientOrderId: cid, side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', ...over });
const START = { PHP: '10000', BTC: '10', ETH: '10' };

/** Feed the venue's stream items [from, to) into the ledger. */
function feed(l: SeenLedger, v: TestVenue, from: number, to = v.stream.length): void {
  for (const item of v.stream.slice(from, to)) if (item.kind === 'report') l.admit(fromExecutionReport(item.report), 'stream');
}

/** Run the plan to the end against the venue; the rounds of queries, as keys. */
function resync(l: SeenLedger, v: TestVenue, symbols: readonly string[], opts: ResyncPlanOptions = {}): { rounds: string[][]; answers: ResyncAnswer[] } {
  const answers: ResyncAnswer[] = [];
  const rounds: string[][] = [];
  const s = l.snapshot();
  for (let q = planResync(s, symbols, [], opts); q.length > 0; q = planResync(s, symbols, answers, opts)) {
    rounds.push(q.map(queryKey));
    answers.push(...q.map((x) => v.answer(x)));
    if (rounds.length > 20) throw new Error('runaway plan');
  }
  return { rounds, answers };
}

const brief = (es: readonly LiveEvent[]) =>
  es.map((e) => {
    switch (e.kind) {
      case 'fill':
        return `fill ${e.clientOrderId} #${e.tradeId} ${e.qty} cum ${e.cumulativeQty} ${e.orderStatus}`;
      case 'order':
        return `order ${e.clientOrderId} ${e.status} ${e.executedQty}`;
      case 'adopt':
        return `adopt ${e.clientOrderId} ${e.status} ${e.executedQty}`;
      case 'rejected':
        return `rejected ${e.clientOrderId} ${e.code} ${e.reason}`;
      case 'balance':
        return `balance ${e.asset}`;
      default:
        return e.kind;
    }
  });

describe('planResync', () => {
  it('open orders, account, my trades from the last trade id + 1 paged to the end; then the held open orders the venue no longer lists', () => {
    const v = new TestVenue(START);
    const l = new SeenLedger();
    for (const c of ['a', 'b']) l.placed(cmd(c));
    v.place(cmd('a'), new D(0), 'ACK');
    v.place(cmd('b'), new D(0), 'ACK');
    v.fill('a', new D('0.1'), 0);
    feed(l, v, 0);
    v.fill('a', new D('0.2'), 2); // in the gap: two trades, one order of another client between
    v.fill('a', new D('0.3'), 0);
    v.fill('b', new D('1'), 0); // b filled in the gap: gone from open orders
    const high = l.highestTradeId('BTCPHP') as string;
    const from = (BigInt(high) + 1n).toString();
    const { rounds } = resync(l, v, ['BTCPHP'], { pageLimit: 2 });
    expect(rounds).toEqual([
      ['openOrders BTCPHP', 'account', `myTrades BTCPHP order=* from=${from} limit=2`],
      // Ids high+3 and high+4 (high+1 and +2 were another client's) fill the page; high+5 comes alone: the end.
      [`myTrades BTCPHP order=* from=${(BigInt(high) + 5n).toString()} limit=2`, 'queryOrder BTCPHP b'],
    ]);
  });

  it('one openOrders call for all symbols when asked; no fromId for a symbol without a trade seen, per-order trades instead', () => {
    const v = new TestVenue(START);
    const l = new SeenLedger();
    l.placed(cmd('e', { symbol: 'ETHPHP' }));
    v.place(cmd('e', { symbol: 'ETHPHP' }), new D(0), 'ACK');
    feed(l, v, 0);
    v.fill('e', new D('0.4'), 0);
    const { rounds } = resync(l, v, ['BTCPHP', 'ETHPHP'], { openOrders: 'all' });
    const orderId = v.orders.get('e')?.orderId as string;
    expect(rounds).toEqual([['openOrders *', 'account'], [`myTrades ETHPHP order=${orderId} from=0 limit=1000`]]);
  });

  it('asks an unknown outcome by client order id, an acknowledged order by its order id', () => {
    const l = new SeenLedger();
    l.placed(cmd('u'));
    l.placed(cmd('k'));
    l.admit([{ kind: 'unknownOutcome', symbol: 'BTCPHP', clientOrderId: 'u', command: 'place', reason: 'timeout', time: 1 }], 'newOrder');
    l.admit([{ kind: 'order', symbol: 'BTCPHP', clientOrderId: 'k', orderId: '12345678901234567890', status: 'NEW', executedQty: '0', cumulativeQuoteQty: '0', working: true, time: 1 }], 'newOrder');
    const s = l.snapshot();
    const first = planResync(s, ['BTCPHP']);
    const answers: ResyncAnswer[] = first.map((q) => (q.kind === 'openOrders' ? { kind: 'openOrders', query: q, orders: [] } : { kind: 'account', query: { kind: 'account' }, account: { balances: [], updateTime: 1 } }));
    expect(planResync(s, ['BTCPHP'], answers)).toEqual([
      { kind: 'queryOrder', symbol: 'BTCPHP', clientOrderId: 'u', orderId: undefined },
      { kind: 'queryOrder', symbol: 'BTCPHP', clientOrderId: 'k', orderId: '12345678901234567890' },
    ]);
  });
});

describe('eventsFromResync', () => {
  it('per order: the missed fills in trade-id order with the cumulative progress, then the final status; balances last', () => {
    const v = new TestVenue(START);
    const l = new SeenLedger();
    l.placed(cmd('a'));
    v.place(cmd('a'), new D(0), 'ACK');
    v.fill('a', new D('0.25'), 0);
    feed(l, v, 0);
    v.fill('a', new D('0.25'), 1);
    v.fill('a', new D('0.25'), 0);
    v.end('a', 'stp');
    const { answers } = resync(l, v, ['BTCPHP']);
    const r = eventsFromResync(l.snapshot(), answers, { now: 1 });
    const [t2, t3] = v.trades.slice(1).map((t) => t.id);
    expect(brief(r.events)).toEqual([`fill a #${t2} 0.25 cum 0.5 PARTIALLY_FILLED`, `fill a #${t3} 0.25 cum 0.75 PARTIALLY_FILLED`, 'order a PARTIALLY_CANCELED 0.75', 'balance PHP', 'balance BTC', 'balance ETH']);
    expect(r.highestTradeIds).toEqual({ BTCPHP: t3 });
    expect([r.incomplete, r.foreign, r.unmatched]).toEqual([[], [], []]);
  });

  it('resolves an unknown outcome by query: not placed -> rejected; placed -> its events', () => {
    const v = new TestVenue(START);
    const l = new SeenLedger();
    for (const c of ['lost', 'landed']) {
      l.placed(cmd(c));
      l.admit([{ kind: 'unknownOutcome', symbol: 'BTCPHP', clientOrderId: c, command: 'place', reason: 'timeout', time: 1 }], 'newOrder');
    }
    v.place(cmd('landed'), new D('1'), 'ACK'); // filled at once, gone from open orders
    const { answers } = resync(l, v, ['BTCPHP']);
    const r = eventsFromResync(l.snapshot(), answers, { now: 99 });
    expect(brief(r.events).slice(0, 2).sort()).toEqual([`fill landed #${v.trades[0]?.id} 1 cum 1 FILLED`, `rejected lost -2013 ${NOT_PLACED_REASON}`].sort());
    expect(r.events.find((e) => e.kind === 'rejected')).toMatchObject({ time: 99 });
  });

  it('adopts open orders with this bot client ids placed before a crash, reports the others (cancelled only when asked), and trades nobody holds', () => {
    const v = new TestVenue(START);
    const l = new SeenLedger();
    const mine = 'hy0k3x9zqbid-7';
    v.place(cmd(mine, { quantity: '2' }), new D('0.5'), 'ACK'); // before the crash
    const before = v.trades.length;
    v.fill(mine, new D('0.5'), 0); // while down
    v.place(cmd('web_123', { side: 'SELL' }), new D(0), 'ACK');
    l.noteTradeIds({ BTCPHP: v.trades[before - 1]?.id as string });
    const done = 'web_9';
    v.place(cmd(done), new D('1'), 'ACK'); // someone else's, filled
    const { answers } = resync(l, v, ['BTCPHP']);
    const r = eventsFromResync(l.snapshot(), answers, { now: 1 });
    expect(brief(r.events).slice(0, 2)).toEqual([`adopt ${mine} PARTIALLY_FILLED 0.5`, `fill ${mine} #${v.trades[before]?.id} 0.5 cum 1 PARTIALLY_FILLED`]);
    expect(r.events[0]).toMatchObject({ kind: 'adopt', side: 'BUY', type: 'LIMIT', price: '100', origQty: '2', cumulativeQuoteQty: '50' });
    expect(r.foreign).toMatchObject([{ clientOrderId: 'web_123', side: 'SELL' }]);
    expect(r.cancels).toEqual([]);
    expect(r.unmatched.map((t) => t.orderId)).toEqual([v.orders.get(done)?.orderId]);
    expect(eventsFromResync(l.snapshot(), answers, { now: 1, cancelForeign: true }).cancels).toEqual([{ kind: 'cancel', symbol: 'BTCPHP', clientOrderId: 'web_123' }]);
    expect(eventsFromResync(l.snapshot(), answers, { now: 1, ownsClientOrderId: (c) => c.startsWith('web_') }).foreign.map((f) => f.clientOrderId)).toEqual([mine]);
  });

  it('reports what does not add up instead of guessing: executed ahead of the trades found, a held order the venue does not know', () => {
    const v = new TestVenue(START);
    const l = new SeenLedger();
    l.placed(cmd('a'));
    l.placed(cmd('gone'));
    v.place(cmd('a'), new D(0), 'ACK');
    feed(l, v, 0);
    l.admit([{ kind: 'order', symbol: 'BTCPHP', clientOrderId: 'gone', orderId: '5', status: 'NEW', executedQty: '0', cumulativeQuoteQty: '0', working: true, time: 1 }], 'newOrder');
    v.fill('a', new D('0.5'), 0);
    const { answers } = resync(l, v, ['BTCPHP']);
    // myTrades lags behind the order (eventual consistency): its answers lose the trade.
    const lagging = answers.map((a) => (a.kind === 'myTrades' ? { ...a, trades: [] } : a));
    const r = eventsFromResync(l.snapshot(), lagging, { now: 1 });
    expect(r.incomplete.map((p) => p.message)).toEqual(['the venue executed 0.5, the trades found add up to 0: fills missing', 'held as NEW, but the venue does not know it: Order does not exist. (-2013)']);
    expect(brief(r.events)).toContain('order a PARTIALLY_FILLED 0.5');
  });

  it('repeats nothing the ledger holds (a stream event that came in while the queries ran), and zeroes an asset the account no longer lists', () => {
    const v = new TestVenue({ PHP: '10000' });
    const l = new SeenLedger();
    l.placed(cmd('a'));
    v.place(cmd('a'), new D(0), 'ACK');
    feed(l, v, 0);
    l.admit([{ kind: 'balance', asset: 'DOGE', free: '1', locked: '0', time: 1 }], 'stream');
    const mark = v.stream.length;
    v.fill('a', new D('0.5'), 0);
    const { answers } = resync(l, v, ['BTCPHP']);
    feed(l, v, mark); // the stream, live again, brought the fill before the answers were turned into events
    const r = eventsFromResync(l.snapshot(), answers, { now: 1 });
    expect(brief(r.events)).toEqual(['balance PHP', 'balance BTC', 'balance DOGE']);
    expect(r.events.at(-1)).toMatchObject({ asset: 'DOGE', free: '0', locked: '0' });
  });
});
