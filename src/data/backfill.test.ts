import { describe, expect, it } from 'vitest';
import { openJournal } from '../journal/journal.ts';
import { backfillKlines, BackfillError, type BackfillOptions, type KlinePageRequest } from './backfill.ts';
import type { KlineBar } from './kline-files/kline-csv.ts';

const M = 60_000;
const T0 = Date.UTC(2024, 2, 1);

function barAt(openTime: number): KlineBar {
  const i = (openTime - T0) / M;
  return {
    openTime,
    open: `${100 + i}.0`,
    high: `${101 + i}.0`,
    low: `${99 + i}.0`,
    close: `${100 + i}.5`,
    volume: '2.5',
    closeTime: openTime + M - 1,
    quoteVolume: '250.0',
    trades: 7,
    takerBuyBaseVolume: '1.0',
    takerBuyQuoteVolume: '100.0',
  };
}

/** An exchange with 1m bars from T0 until `until` (exclusive), minus `missing`; honours startTime, endTime, limit. */
function fakeExchange(until: number, missing: (t: number) => boolean = () => false) {
  const requests: KlinePageRequest[] = [];
  let failAt: number | undefined;
  const fetch = async (req: KlinePageRequest): Promise<KlineBar[]> => {
    requests.push(req);
    if (failAt !== undefined && requests.length === failAt) throw new Error('socket hang up');
    const out: KlineBar[] = [];
    const start = Math.max(T0, Math.ceil((req.startTime - T0) / M) * M + T0);
    for (let t = start; t <= req.endTime && t < until && out.length < req.limit; t += M) if (!missing(t)) out.push(barAt(t));
    return out;
  };
  return { fetch, requests, failOnRequest: (n: number | undefined) => (failAt = n) };
}

function journalTarget() {
  const j = openJournal(':memory:');
  const series = { symbol: 'BTCPHP', interval: '1m' as const };
  const wire = (from: number, to: number): Pick<BackfillOptions, 'lastStored' | 'firstStored' | 'save'> => ({
    lastStored: () => j.klines.klineRange(series.symbol, series.interval, from, to)?.last,
    firstStored: () => j.klines.klineRange(series.symbol, series.interval, from, to)?.first,
    save: (bars) => {
      j.klines.insertKlines(bars.map((b) => ({ ...b, ...series, source: 'rest' })));
    },
  });
  return { j, series, wire };
}

describe('backfillKlines', () => {
  it('pages forward by the last open time with limit 1000 and saves every bar of [from, to) once', async () => {
    const { j, series, wire } = journalTarget();
    const ex = fakeExchange(T0 + 10_000 * M);
    const from = T0;
    const to = T0 + 2500 * M;
    const pages: number[] = [];
    const r = await backfillKlines({ ...series, from, to, fetch: ex.fetch, now: () => T0 + 1e9, ...wire(from, to), onPage: (p) => pages.push(p.done) });
    expect(r).toMatchObject({ saved: 2500, pages: 3, stop: 'range-end', resumedAfter: undefined, first: from, last: to - M });
    expect(ex.requests.map((q) => [(q.startTime - T0) / M, q.endTime, q.limit])).toEqual([
      [0, to - 1, 1000],
      [999 + 1 / M, to - 1, 1000],
      [1999 + 1 / M, to - 1, 1000],
    ]);
    expect(pages).toEqual([1000, 2000, 2500]);
    expect(j.klines.klineRange('BTCPHP', '1m')).toEqual({ first: from, last: to - M, count: 2500 });
    expect(j.klines.klines('BTCPHP', '1m', from, from + M)[0]).toMatchObject({ ...barAt(from), source: 'rest' });
  });

  it('stops cleanly on an error with what was saved, and a second run resumes after the last stored bar', async () => {
    const { j, series, wire } = journalTarget();
    const ex = fakeExchange(T0 + 10_000 * M);
    const from = T0;
    const to = T0 + 3500 * M;
    ex.failOnRequest(3);
    const err = await backfillKlines({ ...series, from, to, fetch: ex.fetch, now: () => T0 + 1e9, ...wire(from, to) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackfillError);
    const partial = (err as BackfillError).result;
    expect(partial).toMatchObject({ saved: 2000, pages: 2, first: from, last: from + 1999 * M });
    expect((err as Error).message).toMatch(/socket hang up; saved 2000 bar\(s\)/);
    expect(j.klines.klineRange('BTCPHP', '1m')?.count).toBe(2000);

    ex.failOnRequest(undefined);
    const before = ex.requests.length;
    const r = await backfillKlines({ ...series, from, to, fetch: ex.fetch, now: () => T0 + 1e9, ...wire(from, to) });
    expect(r).toMatchObject({ resumedAfter: from + 1999 * M, saved: 1500, stop: 'range-end' });
    expect(ex.requests[before]!.startTime).toBe(from + 1999 * M + 1);
    expect(j.klines.klineRange('BTCPHP', '1m')).toEqual({ first: from, last: to - M, count: 3500 });

    // A third run has nothing left to do.
    const again = await backfillKlines({ ...series, from, to, fetch: ex.fetch, now: () => T0 + 1e9, ...wire(from, to) });
    expect(again).toMatchObject({ saved: 0, pages: 0, stop: 'range-end' });
  });

  it('a range extended backwards: fetches the bars before the first stored one, then resumes after the last; none skipped, none fetched twice', async () => {
    const { j, series, wire } = journalTarget();
    const ex = fakeExchange(T0 + 10_000 * M);
    // A first run recorded [1500, 2500); the second asks for [0, 3000).
    await backfillKlines({ ...series, from: T0 + 1500 * M, to: T0 + 2500 * M, fetch: ex.fetch, now: () => T0 + 1e9, ...wire(T0 + 1500 * M, T0 + 2500 * M) });
    ex.requests.length = 0;
    const pages: number[] = [];
    const r = await backfillKlines({ ...series, from: T0, to: T0 + 3000 * M, fetch: ex.fetch, now: () => T0 + 1e9, ...wire(T0, T0 + 3000 * M), onPage: (p) => pages.push(p.done) });
    expect(r).toMatchObject({ saved: 2000, resumedAfter: T0 + 2499 * M, first: T0, last: T0 + 2999 * M, stop: 'range-end' });
    expect(ex.requests.map((q) => [(q.startTime - T0) / M, (q.endTime + 1 - T0) / M])).toEqual([
      [0, 1500],
      [999 + 1 / M, 1500],
      [2499 + 1 / M, 3000],
    ]);
    expect(pages).toEqual([2000, 2500, 3000]);
    expect(j.klines.klineRange('BTCPHP', '1m')).toEqual({ first: T0, last: T0 + 2999 * M, count: 3000 });

    // When the exchange has nothing before the first stored bar (listed later), one request says so.
    ex.requests.length = 0;
    const again = await backfillKlines({ ...series, from: T0 - 100 * M, to: T0 + 3000 * M, fetch: ex.fetch, now: () => T0 + 1e9, ...wire(T0 - 100 * M, T0 + 3000 * M) });
    expect(again).toMatchObject({ saved: 0, pages: 1, stop: 'range-end' });
  });

  it('never saves a bar that is still forming, and stops there', async () => {
    const { j, series, wire } = journalTarget();
    const ex = fakeExchange(T0 + 50 * M); // the exchange has bars up to the one forming now
    const now = T0 + 49 * M + 30_000; // half way through bar 49
    const r = await backfillKlines({ ...series, from: T0, to: T0 + 1000 * M, fetch: ex.fetch, now: () => now, ...wire(T0, T0 + 1000 * M) });
    expect(r).toMatchObject({ saved: 49, stop: 'now', last: T0 + 48 * M });
    expect(j.klines.klineRange('BTCPHP', '1m')?.count).toBe(49);
  });

  it('walks over holes in the exchange data and stops when nothing is left', async () => {
    const { series, wire } = journalTarget();
    const ex = fakeExchange(T0 + 100 * M, (t) => t >= T0 + 10 * M && t < T0 + 20 * M);
    const r = await backfillKlines({ ...series, from: T0, to: T0 + 500 * M, fetch: ex.fetch, now: () => T0 + 1e9, limit: 30, ...wire(T0, T0 + 500 * M) });
    expect(r).toMatchObject({ saved: 90, stop: 'no-more-data' });
  });

  it('drops bars outside the range and keeps the last copy of a repeated open time', async () => {
    const { j, series, wire } = journalTarget();
    const from = T0 + 5 * M;
    const to = T0 + 8 * M;
    const fetch = async () => [barAt(T0 + 4 * M), barAt(from), { ...barAt(from), close: '1.0' }, barAt(T0 + 6 * M), barAt(T0 + 7 * M), barAt(to)];
    let calls = 0;
    const r = await backfillKlines({ ...series, from, to, fetch: async () => (calls++ === 0 ? fetch() : []), now: () => T0 + 1e9, ...wire(from, to) });
    expect(r.saved).toBe(3);
    expect(j.klines.klines('BTCPHP', '1m').map((k) => [(k.openTime - T0) / M, k.close])).toEqual([
      [5, '1.0'],
      [6, '106.5'],
      [7, '107.5'],
    ]);
  });

  it('refuses klines that go backwards within a page, and an empty range', async () => {
    const { series, wire } = journalTarget();
    const fetch = async () => [barAt(T0 + M), barAt(T0)];
    await expect(backfillKlines({ ...series, from: T0, to: T0 + 5 * M, fetch, now: () => T0 + 1e9, ...wire(T0, T0 + 5 * M) })).rejects.toThrow(/out of order/);
    await expect(backfillKlines({ ...series, from: T0, to: T0, fetch, now: () => 0, ...wire(T0, T0) })).rejects.toThrow(RangeError);
  });

  it('stops when aborted, reporting what was saved', async () => {
    const { series, wire } = journalTarget();
    const ex = fakeExchange(T0 + 10_000 * M);
    const ac = new AbortController();
    const err = await backfillKlines({
      ...series,
      from: T0,
      to: T0 + 5000 * M,
      fetch: ex.fetch,
      now: () => T0 + 1e9,
      ...wire(T0, T0 + 5000 * M),
      signal: ac.signal,
      onPage: (p) => p.pages === 2 && ac.abort(new Error('interrupted')),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackfillError);
    expect((err as BackfillError).result.saved).toBe(2000);
  });
});

describe('backfillKlines: spans (record\'s holes, kline-holes.ts)', () => {
  /** A journal holding minutes [0, 300) and [600, 900) of an exchange that has no bar in minutes 100-109, less minutes 200-209 (lost), stored as from a CSV. */
  function holed() {
    const { j, series, wire } = journalTarget();
    const ex = fakeExchange(T0 + 10_000 * M, (t) => t >= T0 + 100 * M && t < T0 + 110 * M);
    const keep = (i: number) => (i < 300 || i >= 600) && i < 900 && !(i >= 100 && i < 110) && !(i >= 200 && i < 210);
    const rows = Array.from({ length: 900 }, (_, i) => i).filter(keep).map((i) => ({ ...barAt(T0 + i * M), ...series, source: 'csv:x' }));
    j.klines.insertKlines(rows);
    const at = (m: number) => T0 + m * M;
    // What kline-holes.ts finds there: each hole, from just after the stored bar before it to the stored bar after it.
    const spans = [
      { start: at(99) + 1, end: at(110), beforeStored: true },
      { start: at(199) + 1, end: at(210), beforeStored: true },
      { start: at(299) + 1, end: at(600), beforeStored: true },
    ];
    return { j, series, wire, ex, spans, at };
  }
  const minutes = (t: number) => (t - T0) / M;

  it('asks for consecutive spans before stored bars in one request while they fit one page, saves only their bars, and reports what was answered', async () => {
    const { j, series, wire, ex, spans, at } = holed();
    const checked: [number, number][] = [];
    const r = await backfillKlines({ ...series, from: T0, to: at(900), fetch: ex.fetch, now: () => T0 + 1e9, ...wire(T0, at(900)), spans: () => spans, checked: (a, b) => checked.push([a, b]) });
    expect(ex.requests.map((q) => [minutes(q.startTime), minutes(q.endTime + 1)])).toEqual([[99 + 1 / M, 600]]);
    expect(r).toMatchObject({ saved: 310, pages: 1, first: at(200), last: at(599), stop: 'range-end' });
    expect(checked).toEqual([[at(99) + 1, at(600)]]);
    // The market's hole stays a hole; the stored bars between the spans were not written again.
    expect(j.klines.klineRange('BTCPHP', '1m')).toEqual({ first: T0, last: at(899), count: 890 });
    const sources = new Set(j.klines.klines('BTCPHP', '1m', at(110), at(200)).map((k) => k.source));
    expect(sources).toEqual(new Set(['csv:x']));
    expect(j.klines.klines('BTCPHP', '1m', at(200), at(210)).every((k) => k.source === 'rest')).toBe(true);
  });

  it('pages through a span longer than a page, reporting each answered stretch', async () => {
    const { series, wire, ex, spans, at } = holed();
    const checked: [number, number][] = [];
    const r = await backfillKlines({ ...series, from: T0, to: at(900), fetch: ex.fetch, now: () => T0 + 1e9, limit: 200, ...wire(T0, at(900)), spans: () => spans, checked: (a, b) => checked.push([a, b]) });
    expect(ex.requests.map((q) => [minutes(q.startTime), minutes(q.endTime + 1)])).toEqual([
      [99 + 1 / M, 210],
      [299 + 1 / M, 600],
      [499 + 1 / M, 600],
    ]);
    expect(r).toMatchObject({ saved: 310, pages: 3 });
    expect(checked).toEqual([
      [at(99) + 1, at(210)],
      [at(299) + 1, at(499) + 1],
      [at(499) + 1, at(600)],
    ]);
  });

  it('a hole the exchange answers empty is answered by one request, and is no stop; after the last stored bar, an empty answer checks nothing', async () => {
    const { series, wire, ex, at } = holed();
    const checked: [number, number][] = [];
    const spans = [
      { start: at(99) + 1, end: at(110), beforeStored: true },
      { start: at(899) + 1, end: at(2000), beforeStored: false },
    ];
    const quiet = fakeExchange(at(900), (t) => t >= at(100) && t < at(110));
    const r = await backfillKlines({ ...series, from: T0, to: at(2000), fetch: quiet.fetch, now: () => T0 + 1e9, ...wire(T0, at(2000)), spans: () => spans, checked: (a, b) => checked.push([a, b]) });
    expect(quiet.requests).toHaveLength(2);
    expect(r).toMatchObject({ saved: 0, pages: 2, stop: 'no-more-data' });
    expect(checked).toEqual([[at(99) + 1, at(110)]]);
    expect(ex.requests).toHaveLength(0);
  });
});
