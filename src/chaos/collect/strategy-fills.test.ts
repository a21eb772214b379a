/**
 * The strategies' fills from two witnesses (strategy-fills.ts): the bot's log and the journal's
 * `fill-told` marks. A killed process's log may miss its last lines (pino writes stderr
 * asynchronously): a fill the journal marks told is told though the log lost its line; a mark with
 * a note (never told) is not; either witness showing a fill twice is a double.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientOrderId } from '../../core/orders/client-order-id.ts';
import { openJournal } from '../../journal/journal.ts';
import { markTold } from '../../live/reconcile/untold-fills.ts';
import { mergeStrategyFills, strategyFillsFromJournal, strategyFillsFromLog } from './strategy-fills.ts';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0).reverse()) c();
});
const T0 = Date.parse('2024-03-13T10:00:00Z');

describe('strategy fills: the log and the journal told marks', () => {
  it('a told mark stands for a log line lost at the kill; a noted mark is not a telling; doubles show from either witness', () => {
    const dir = mkdtempSync(join(tmpdir(), 'halyard-told-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const j = openJournal(join(dir, 'j.sqlite'));
    closers.push(() => j.close());
    j.liveRuns.begin({ id: 'r1', kind: 'sandbox', strategies: [{ name: 'a' }, { name: 'b' }], config: {}, startedAt: T0 });
    const [a1, a2, b1] = [clientOrderId({ runId: 'r1', strategy: 'a', tag: 'x', seq: 1 }), clientOrderId({ runId: 'r1', strategy: 'a', tag: 'x', seq: 2 }), clientOrderId({ runId: 'r1', strategy: 'b', seq: 1 })];
    for (const cid of [a1, a2, b1]) j.orders.insert({ clientOrderId: cid, runId: 'r1', symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', qty: '0.001', status: 'NEW', createdAt: T0 });
    const fill = (tradeId: string) => ({ symbol: 'BTCPHP', tradeId, side: 'SELL' as const });
    markTold(j, 'r1', a1 as string, fill('10'), T0); // logged too
    markTold(j, 'r1', a2 as string, fill('11'), T0); // its log line lost at the kill
    markTold(j, 'r1', b1 as string, fill('12'), T0, 'not told: b had stopped');
    markTold(j, 'r1', b1 as string, fill('13'), T0);
    markTold(j, 'r1', b1 as string, fill('13'), T0); // told twice
    const venueOrders = [a1, a2, b1].map((cid, i) => ({ symbol: 'BTCPHP', orderId: String(900 + i), clientOrderId: cid as string, status: 'FILLED', time: T0, updateTime: T0 }));

    const fromJournal = strategyFillsFromJournal(j, venueOrders);
    expect(fromJournal).toEqual([
      { strategy: 'a', fills: [{ orderId: '900', tradeId: '10' }, { orderId: '901', tradeId: '11' }] },
      { strategy: 'b', fills: [{ orderId: '902', tradeId: '13' }, { orderId: '902', tradeId: '13' }] },
    ]);
    const log = [JSON.stringify({ strategy: 'a', clientOrderId: a1, tradeId: '10', msg: 'fill SELL 0.001 @ 3000000' }), JSON.stringify({ strategy: 'a', clientOrderId: a1, tradeId: '10', msg: 'fill SELL 0.001 @ 3000000' })].join('\n');
    const merged = mergeStrategyFills(strategyFillsFromLog([log], venueOrders), fromJournal);
    // a: trade 10 twice in the log (a double the marks did not see), 11 from the marks alone; b: 13 twice from the marks.
    expect(merged).toEqual([
      { strategy: 'a', fills: [{ orderId: '900', tradeId: '10' }, { orderId: '900', tradeId: '10' }, { orderId: '901', tradeId: '11' }] },
      { strategy: 'b', fills: [{ orderId: '902', tradeId: '13' }, { orderId: '902', tradeId: '13' }] },
    ]);
  });
});
