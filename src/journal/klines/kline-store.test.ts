import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalError } from '../errors.ts';
import { openJournal, type Journal } from '../journal.ts';
import { K, type KlineInput } from './kline-store.ts';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

const MIN = 60_000;
function bar(i: number, over: Partial<KlineInput> = {}): KlineInput {
  return {
    symbol: 'BTCUSDT',
    interval: '1m',
    openTime: i * MIN,
    open: `${100 + i}.10`,
    high: `${101 + i}.00`,
    low: `${99 + i}.5`,
    close: `${100 + i}.20`,
    volume: '1.000',
    closeTime: i * MIN + MIN - 1,
    source: 'test',
    ...over,
  };
}

describe('KlineStore', () => {
  it('round-trips a row with every column, decimal text unchanged', () => {
    const row = { ...bar(0), quoteVolume: '12345.67890000', trades: 42, takerBuyBaseVolume: '0.5000', takerBuyQuoteVolume: '50.00' };
    j.klines.insertKlines([row]);
    expect(j.klines.klines('BTCUSDT', '1m')).toEqual([row]);
    const six = j.klines.klines('BTCUSDT', '1m')[0]!;
    expect(six.open).toBe('100.10');
  });

  it('gives first, last and count of any range over packed blocks, gaps and unpacked rows as the rows do', () => {
    // Three full blocks and change with a gap, then a row written later into the gap (its block is dropped and packed again).
    const idx = Array.from({ length: 3 * 1024 + 700 }, (_, i) => (i > 2000 ? i + 37 : i));
    j.klines.insertKlines(idx.map((i) => bar(i)));
    j.klines.insertKlines([bar(2010)]);
    const truth = (from?: number, to?: number) => {
      const rows = j.klines.klines('BTCUSDT', '1m', from, to);
      return rows.length === 0 ? undefined : { first: rows[0]!.openTime, last: rows[rows.length - 1]!.openTime, count: rows.length };
    };
    const ranges: [number | undefined, number | undefined][] = [[undefined, undefined], [0, MIN], [MIN, 1024 * MIN], [1000 * MIN, 3100 * MIN], [2001 * MIN, 2040 * MIN], [3000 * MIN, undefined], [5000 * MIN, 6000 * MIN], [9000 * MIN, undefined], [undefined, 0]];
    for (const [from, to] of ranges) expect(j.klines.klineRange('BTCUSDT', '1m', from, to)).toEqual(truth(from, to));
  });

  it('rows from a 6-column source read back with null extras', () => {
    j.klines.insertKlines([bar(0)]);
    expect(j.klines.klines('BTCUSDT', '1m')[0]).toMatchObject({ quoteVolume: null, trades: null, takerBuyBaseVolume: null, takerBuyQuoteVolume: null });
  });

  it('upserts by (symbol, interval, open time): the later copy wins', () => {
    j.klines.insertKlines([bar(0), bar(1)]);
    j.klines.insertKlines([bar(1, { close: '999.9', source: 'rest' }), bar(2)]);
    const rows = j.klines.klines('BTCUSDT', '1m');
    expect(rows.map((r) => r.openTime)).toEqual([0, MIN, 2 * MIN]);
    expect(rows[1]).toMatchObject({ close: '999.9', source: 'rest' });
  });

  it('a batch is one transaction: one bad row leaves nothing written, and the error names the row', () => {
    j.klines.insertKlines([bar(0)]);
    let err: unknown;
    try {
      j.klines.insertKlines([bar(1), bar(2), bar(3, { high: '1e5' })]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JournalError);
    expect((err as JournalError).code).toBe('INVALID_RECORD');
    expect((err as Error).message).toMatch(/kline 2 of the batch \(BTCUSDT 1m open time 180000\).*CHECK constraint failed/);
    expect(j.klines.klineRange('BTCUSDT', '1m')).toEqual({ first: 0, last: 0, count: 1 });
  });

  it('refuses text that is not plain decimal, even through an untyped caller', () => {
    for (const bad of ['-1', '1.2.3', 'abc', '', '1,5']) {
      expect(() => j.klines.insertKlines([bar(0, { low: bad })])).toThrow(JournalError);
    }
  });

  it('reads ranges half-open [from, to), oldest first, by series', () => {
    j.klines.insertKlines([bar(2), bar(0), bar(1), bar(3), bar(1, { interval: '5m' }), bar(1, { symbol: 'ETHUSDT' })]);
    expect(j.klines.klines('BTCUSDT', '1m').map((r) => r.openTime / MIN)).toEqual([0, 1, 2, 3]);
    expect(j.klines.klines('BTCUSDT', '1m', MIN, 3 * MIN).map((r) => r.openTime / MIN)).toEqual([1, 2]);
    expect(j.klines.klineRange('BTCUSDT', '1m')).toEqual({ first: 0, last: 3 * MIN, count: 4 });
    expect(j.klines.klineRange('BTCUSDT', '1m', MIN, 3 * MIN)).toEqual({ first: MIN, last: 2 * MIN, count: 2 });
    expect(j.klines.klineRange('BTCUSDT', '1h')).toBeUndefined();
    expect(j.klines.symbols()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(j.klines.series()).toEqual([
      { symbol: 'BTCUSDT', interval: '1m', first: 0, last: 3 * MIN, count: 4 },
      { symbol: 'BTCUSDT', interval: '5m', first: MIN, last: MIN, count: 1 },
      { symbol: 'ETHUSDT', interval: '1m', first: MIN, last: MIN, count: 1 },
    ]);
  });

  it('iterateKlines yields positional tuples across many chunks, in order, and honours the range', () => {
    const n = 10_000;
    j.klines.insertKlines(Array.from({ length: n }, (_, i) => bar(i)));
    let count = 0;
    let prev = -1;
    for (const t of j.klines.iterateKlines('BTCUSDT', '1m')) {
      expect(t[K.openTime]).toBeGreaterThan(prev);
      prev = t[K.openTime];
      count++;
    }
    expect(count).toBe(n);
    const first = j.klines.iterateKlines('BTCUSDT', '1m').next().value!;
    expect(first).toEqual([0, '100.10', '101.00', '99.5', '100.20', '1.000', MIN - 1, null, null, null, null]);
    const slice = [...j.klines.iterateKlines('BTCUSDT', '1m', 4095 * MIN, 4098 * MIN)].map((t) => t[K.openTime] / MIN);
    expect(slice).toEqual([4095, 4096, 4097]);
  });

  it('the iterator holds no cursor between chunks, so the caller can write while replaying', () => {
    j.klines.insertKlines(Array.from({ length: 5000 }, (_, i) => bar(i)));
    j.runs.start({ id: 'bt', kind: 'backtest', strategy: 's', startedAt: 0 });
    let n = 0;
    for (const t of j.klines.iterateKlines('BTCUSDT', '1m')) {
      if (n++ % 1000 === 0) j.runs.addIntent({ runId: 'bt', time: t[K.openTime], strategy: 's', kind: 'place', payload: { close: t[K.close] } });
    }
    expect(j.runs.intents('bt')).toHaveLength(5);
  });

  it('deleteKlines removes a range', () => {
    j.klines.insertKlines([bar(0), bar(1), bar(2)]);
    expect(j.klines.deleteKlines('BTCUSDT', '1m', MIN)).toBe(2);
    expect(j.klines.klineRange('BTCUSDT', '1m')).toEqual({ first: 0, last: 0, count: 1 });
  });
});
