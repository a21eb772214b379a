import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientOrderId } from '../../core/orders/client-order-id.ts';
import { openJournal, type Journal } from '../../journal/journal.ts';
import type { NewFill } from '../../journal/fill-store.ts';
import { StatusFromJournalError, statusFromJournal, STRATEGY_FAILED_INTENT } from './from-journal.ts';
import { FILL_OWED, FILL_TOLD } from '../../live/reconcile/untold-fills.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function journalFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-status-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'journal.sqlite');
}

function open(file: string, readonly = false): Journal {
  const j = openJournal(file, { readonly });
  cleanups.push(() => j.close());
  return j;
}

const cid = (runId: string, strategy: string, tag: string, seq: number): string => clientOrderId({ runId, strategy, tag, seq });

function fill(j: Journal, runId: string, id: string, o: Partial<NewFill> & Pick<NewFill, 'side' | 'price' | 'qty' | 'quoteQty' | 'time'> & { clientOrderId: string }): void {
  j.fills.insert({ symbol: 'BTCPHP', tradeId: id, commission: '0', commissionAsset: 'PHP', isMaker: false, runId, ...o });
}

/**
 * run-0 bought 0.002 BTC for 5800 PHP plus a 2.9 PHP fee and crashed; run-1 (s1 on BTCPHP, s2 on
 * ETHPHP) sold 0.001 at 3000000 with a 1.5 PHP fee, has a bid open, recorded a later bar closing
 * at 3100000; s2 threw.
 */
function writeTwoRuns(j: Journal): { bid: string; sell: string } {
  j.liveRuns.begin({ id: 'run-0', kind: 'sandbox', strategies: [{ name: 's1', symbols: ['BTCPHP'] }], config: {}, startedAt: T0 });
  const buy = cid('run-0', 's1', 'entry', 1);
  j.orders.insert({ clientOrderId: buy, runId: 'run-0', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', qty: '0.002', status: 'PENDING_NEW', createdAt: T0 + 1000 });
  j.orders.update(buy, { status: 'FILLED', updatedAt: T0 + 1100, executedQty: '0.002', exchangeOrderId: '9007199254740993' }, 'fill 100');
  fill(j, 'run-0', '100', { clientOrderId: buy, side: 'BUY', price: '2900000', qty: '0.002', quoteQty: '5800', commission: '2.9', time: T0 + 1100 });

  const t1 = T0 + 3_600_000;
  const { crashed } = j.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1', symbols: ['BTCPHP'] }, { name: 's2', symbols: ['ETHPHP'] }], config: {}, startedAt: t1 });
  expect(crashed.map((r) => r.id)).toEqual(['run-0']);
  j.streamHealth.record({ runId: 'run-1', time: t1 + 10, stream: 'user', to: 'CONNECTING' });
  j.streamHealth.record({ runId: 'run-1', time: t1 + 500, stream: 'user', from: 'CONNECTING', to: 'LIVE', reason: 'resynced' });
  j.streamHealth.record({ runId: 'run-1', time: t1 + 600, stream: 'btcphp@kline_1m', to: 'LIVE' });

  const sell = cid('run-1', 's1', 'exit', 1);
  j.runs.addIntent({ runId: 'run-1', time: t1 + 60_000, strategy: 's1', kind: 'place', payload: { kind: 'place', symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '0.001', tag: 'exit' }, clientOrderId: sell });
  j.orders.insert({ clientOrderId: sell, runId: 'run-1', symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', qty: '0.001', status: 'PENDING_NEW', createdAt: t1 + 60_000 });
  j.orders.update(sell, { status: 'FILLED', updatedAt: t1 + 60_100, executedQty: '0.001', exchangeOrderId: '9007199254740995' }, 'fill 101');
  fill(j, 'run-1', '101', { clientOrderId: sell, side: 'SELL', price: '3000000', qty: '0.001', quoteQty: '3000', commission: '1.5', time: t1 + 60_100 });

  const bid = cid('run-1', 's1', 'bid', 1);
  j.runs.addIntent({ runId: 'run-1', time: t1 + 120_000, strategy: 's1', kind: 'place', payload: { kind: 'place', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '2950000', tag: 'bid' }, clientOrderId: bid });
  j.orders.insert({ clientOrderId: bid, runId: 'run-1', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '2950000', qty: '0.001', status: 'PENDING_NEW', createdAt: t1 + 120_000 });
  j.orders.update(bid, { status: 'NEW', updatedAt: t1 + 120_050, exchangeOrderId: '9007199254740997' }, 'stream');

  // An order that is not a strategy's (another client id): counted in the run, in no strategy.
  j.orders.insert({ clientOrderId: 'manual-1', runId: 'run-1', symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', price: '3500000', qty: '0.0005', status: 'REJECTED', createdAt: t1 + 130_000 });

  j.runs.addIntent({ runId: 'run-1', time: t1 + 150_000, strategy: 's2', kind: STRATEGY_FAILED_INTENT, payload: { reason: 'TypeError: boom in onBar' } });
  j.klines.insertKlines([{ symbol: 'BTCPHP', interval: '1m', openTime: t1 + 180_000, open: '3050000', high: '3100000', low: '3050000', close: '3100000', volume: '1', closeTime: t1 + 239_999, source: 'live:stream' }]);
  return { bid, sell };
}

describe('statusFromJournal', () => {
  it("builds the last live run's status: FIFO PnL with the carried position's cost, open orders, last signal, health, streams, counts", () => {
    const j = open(journalFile());
    const { bid, sell } = writeTwoRuns(j);
    const t1 = T0 + 3_600_000;
    const s = statusFromJournal(j);
    expect(s).toMatchObject({
      runId: 'run-1',
      kind: 'sandbox',
      state: 'running',
      startedAt: t1,
      endedAt: null,
      exitReason: null,
      asOf: t1 + 239_999,
      quoteAsset: 'PHP',
      weight: [],
      clockOffsetMs: null,
      counts: { orders: 3, fills: 1, rejected: 1, bars: 1 },
      streams: { userStream: { state: 'LIVE', since: t1 + 500, reason: 'resynced' }, marketData: { mode: 'stream', since: t1 + 600, reason: null } },
    });
    const [s1, s2] = s.strategies;
    // Lot: 0.002 for 5802.9. Sold 0.001: cost 2901.45, proceeds 3000 - 1.5 = 2998.5, realised 97.05.
    // Open 0.001 costing 2901.45 marked at the 3100000 close: 198.55.
    expect(s1).toEqual({
      name: 's1',
      symbols: ['BTCPHP'],
      positions: [
        {
          symbol: 'BTCPHP',
          quantity: '0.001',
          averageEntryPrice: '2901450',
          markPrice: '3100000',
          markSource: 'kline-close',
          markTime: t1 + 239_999,
          unrealisedPnl: '198.55',
          realisedPnl: '97.05',
        },
      ],
      openOrderCount: 1,
      openOrders: [{ clientOrderId: bid, orderId: '9007199254740997', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '2950000', quantity: '0.001', executedQuantity: '0', status: 'NEW', createdAt: t1 + 120_000 }],
      realisedPnl: '97.05',
      unrealisedPnl: '198.55',
      fees: '1.5',
      lastSignal: { time: t1 + 120_050, kind: 'order', summary: `NEW ${bid} BUY LIMIT 0.001 @ 2950000 (stream)`, symbol: 'BTCPHP' },
      health: 'active',
      healthReason: null,
    });
    expect(sell).toMatch(/^hy/);
    expect(s2).toMatchObject({ name: 's2', symbols: ['ETHPHP'], health: 'failed', healthReason: 'TypeError: boom in onBar', openOrderCount: 0, realisedPnl: '0', unrealisedPnl: '0', lastSignal: null });
    expect(s2?.positions).toEqual([{ symbol: 'ETHPHP', quantity: '0', averageEntryPrice: null, markPrice: null, markSource: null, markTime: null, unrealisedPnl: '0', realisedPnl: '0' }]);
  });

  it('an earlier run by id: crashed, its own fills only, marked at its last fill (nothing later counts)', () => {
    const j = open(journalFile());
    writeTwoRuns(j);
    // A fill's owed and told marks (live/reconcile/untold-fills.ts) are bookkeeping: the last signal stays the fill.
    const buy = cid('run-0', 's1', 'entry', 1);
    const mark = { symbol: 'BTCPHP', tradeId: '100', side: 'BUY' };
    j.orders.addEvent({ clientOrderId: buy, time: T0 + 1100, kind: FILL_OWED, payload: { ...mark, orderStatus: 'FILLED', cumulativeQty: '0.002' }, runId: 'run-0' });
    j.orders.addEvent({ clientOrderId: buy, time: T0 + 1100, kind: FILL_TOLD, payload: mark, runId: 'run-0' });
    const s = statusFromJournal(j, 'run-0');
    expect(s).toMatchObject({ runId: 'run-0', state: 'crashed', exitReason: 'crashed', endedAt: T0 + 1100, counts: { orders: 1, fills: 1, rejected: 0, bars: 0 }, streams: { userStream: null, marketData: { mode: 'unknown', since: null, reason: null } } });
    expect(s.exitDetail).toBe('no stop written; last record at 2024-03-13T10:00:01.100Z, found by run run-1');
    // 0.002 for 5802.9 marked at its own 2900000 fill: -2.9, the fee.
    expect(s.strategies[0]?.positions[0]).toMatchObject({ quantity: '0.002', averageEntryPrice: '2901450', markPrice: '2900000', markSource: 'last-fill', unrealisedPnl: '-2.9', realisedPnl: '0' });
    expect(s.strategies[0]?.lastSignal).toMatchObject({ kind: 'order', summary: expect.stringMatching(/^FILLED hy\S+ BUY 0\.002 @ 2900000 \(fill\)$/) });
  });

  it('a stopped run; market data polling while a market stream is not LIVE; a base commission is taken off the position', () => {
    const j = open(journalFile());
    writeTwoRuns(j);
    const t1 = T0 + 3_600_000;
    const buy2 = cid('run-1', 's1', 'bid', 2);
    j.orders.insert({ clientOrderId: buy2, runId: 'run-1', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', qty: '0.001', status: 'FILLED', createdAt: t1 + 300_000 });
    fill(j, 'run-1', '102', { clientOrderId: buy2, side: 'BUY', price: '3000000', qty: '0.001', quoteQty: '3000', commission: '0.000001', commissionAsset: 'BTC', time: t1 + 300_000 });
    j.streamHealth.record({ runId: 'run-1', time: t1 + 310_000, stream: 'btcphp@kline_1m', from: 'LIVE', to: 'STALE', reason: 'no message for 60000 ms' });
    expect(j.liveRuns.end('run-1', { endedAt: t1 + 400_000, reason: 'signal', detail: { signal: 'SIGTERM' } })).toBe(true);
    const s = statusFromJournal(j, 'run-1');
    expect(s).toMatchObject({ state: 'stopped', exitReason: 'signal', exitDetail: 'SIGTERM', endedAt: t1 + 400_000, asOf: t1 + 400_000 });
    expect(s.streams.marketData).toEqual({ mode: 'polling', since: t1 + 310_000, reason: 'btcphp@kline_1m STALE: no message for 60000 ms' });
    // Held 0.001 + 0.000999 (0.001 less the base fee); the last fill (3000000, later than the bar) marks it.
    const p = s.strategies[0]?.positions[0];
    expect(p).toMatchObject({ quantity: '0.001999', markPrice: '3000000', markSource: 'last-fill', realisedPnl: '97.05' });
    // Lots: 0.001 at 2901.45 and 0.000999 at 3000: value 5997 - 5901.45.
    expect(p?.unrealisedPnl).toBe('95.55');
    expect(s.strategies[0]?.fees).toBe('4.5');
  });

  it('bars received and the market-data mode from the live bars the pipeline recorded (no market stream health rows)', () => {
    const j = open(journalFile());
    j.liveRuns.begin({ id: 'run-1', kind: 'live', strategies: [{ name: 's1', symbols: ['BTCPHP', 'ETHPHP'] }], config: {}, startedAt: T0 });
    const bar = (symbol: string, i: number, source: string) => ({ symbol, interval: '1m', openTime: T0 + i * 60_000, open: '1', high: '1', low: '1', close: '1', volume: '1', closeTime: T0 + (i + 1) * 60_000 - 1, source });
    // Warm-up bars (REST, before the run) are not the run's; the live ones are: by stream, then by REST for ETHPHP.
    j.klines.insertKlines([bar('BTCPHP', -3, 'rest'), bar('BTCPHP', -2, 'rest'), bar('BTCPHP', 0, 'live:stream'), bar('BTCPHP', 1, 'live:stream'), bar('BTCPHP', 2, 'live:stream')]);
    j.klines.insertKlines([bar('ETHPHP', 0, 'live:stream'), bar('ETHPHP', 1, 'live:rest'), bar('ETHPHP', 2, 'live:rest')]);
    const s = statusFromJournal(j);
    expect(s.counts.bars).toBe(6);
    // Bars are not in run_log: the newest one is the running bot's last sign of life.
    expect(s.asOf).toBe(T0 + 3 * 60_000 - 1);
    expect(s.kind).toBe('live');
    expect(s.streams.marketData).toEqual({ mode: 'polling', since: T0 + 2 * 60_000 - 1, reason: 'ETHPHP 1m bars by rest' });
    j.klines.insertKlines([bar('ETHPHP', 3, 'live:stream')]);
    expect(statusFromJournal(j).streams.marketData).toEqual({ mode: 'stream', since: T0 + 4 * 60_000 - 1, reason: null });
    expect(statusFromJournal(j).counts.bars).toBe(7);
  });

  it('reads a running bot\'s journal opened read-only, and sees what the writer adds after', () => {
    const file = journalFile();
    const writer = open(file);
    writeTwoRuns(writer);
    const reader = open(file, true);
    expect(statusFromJournal(reader).counts.fills).toBe(1);
    const t1 = T0 + 3_600_000;
    const bid = cid('run-1', 's1', 'bid', 1);
    writer.orders.update(bid, { status: 'FILLED', updatedAt: t1 + 500_000, executedQty: '0.001' }, 'fill 103');
    fill(writer, 'run-1', '103', { clientOrderId: bid, side: 'BUY', price: '2950000', qty: '0.001', quoteQty: '2950', time: t1 + 500_000 });
    const s = statusFromJournal(reader);
    expect(s.counts.fills).toBe(2);
    expect(s.strategies[0]).toMatchObject({ openOrderCount: 0, positions: [{ quantity: '0.002', markPrice: '2950000', markSource: 'last-fill' }] });
    expect(() => reader.db.prepare("DELETE FROM fills").run()).toThrow(/readonly/);
  });

  it('says why when the journal has no live run, or not the one asked for', () => {
    const j = open(journalFile());
    expect(() => statusFromJournal(j)).toThrow(StatusFromJournalError);
    expect(() => statusFromJournal(j)).toThrow(/holds no live or sandbox run/);
    j.runs.start({ id: 'bt-1', kind: 'backtest', strategy: 'sma', startedAt: T0 });
    writeTwoRuns(j);
    expect(() => statusFromJournal(j, 'nope')).toThrow(/has no live run "nope"; its live runs: run-0, run-1/);
    expect(() => statusFromJournal(j, 'bt-1')).toThrow(/has no live run "bt-1" \(it is a backtest run\)/);
  });
});
