/**
 * The market-data pipeline against the in-memory venue (testing/fake-venue.ts) on virtual time:
 * one venue subscription per series, closed bars only, in order and once each across drops, gaps,
 * duplicates and REST failures; polling while the stream is down and the hand-back; journal
 * recording; warm-up; the weight share.
 */
import { describe, expect, it } from 'vitest';
import { VirtualTime } from '../../exchange/ws/testing/virtual-time.ts';
import type { KlineInput, KlineRecord } from '../../journal/klines/kline-store.ts';
import { createMarketData } from './market-data.ts';
import { fakeKline, FakeVenue, wireKline } from './testing/fake-venue.ts';
import type { ClosedBar, MarketDataJournal, MarketDataLogEntry, MarketDataOptions } from './types.ts';

const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const MIN = 60_000;

class MemoryJournal implements MarketDataJournal {
  readonly rows: KlineInput[] = [];
  insertKlines(rows: readonly KlineInput[]): number {
    for (const r of rows) {
      const i = this.rows.findIndex((x) => x.symbol === r.symbol && x.interval === r.interval && x.openTime === r.openTime);
      if (i >= 0) this.rows[i] = r;
      else this.rows.push(r);
    }
    return rows.length;
  }
  klines(symbol: string, interval: string, from = -Infinity, to = Infinity): KlineRecord[] {
    return this.rows
      .filter((r) => r.symbol === symbol && r.interval === interval && r.openTime >= from && r.openTime < to)
      .sort((a, b) => a.openTime - b.openTime)
      .map((r) => ({ quoteVolume: null, trades: null, takerBuyBaseVolume: null, takerBuyQuoteVolume: null, ...r }));
  }
}

function rig(symbols = ['BTCUSDT'], opts: Partial<MarketDataOptions> & { ipLimit?: number } = {}) {
  const vt = new VirtualTime(T0);
  const venue = new FakeVenue(vt.scheduler, { symbols, interval: '1m', ...(opts.ipLimit ? { ipLimit: opts.ipLimit } : {}) });
  const logs: MarketDataLogEntry[] = [];
  const journal = new MemoryJournal();
  const md = createMarketData({
    client: venue.client,
    wsUrl: 'ws://unused',
    connection: venue.connection,
    journal,
    scheduler: vt.scheduler,
    now: () => vt.now(),
    log: (e) => logs.push(e),
    ...opts,
  });
  venue.run();
  return { vt, venue, md, logs, journal };
}

function collect(source: { subscribe(o: (b: ClosedBar) => void): unknown }): ClosedBar[] {
  const out: ClosedBar[] = [];
  source.subscribe((b) => out.push(b));
  return out;
}

const opens = (bars: readonly ClosedBar[]) => bars.map((b) => (b.candle.openTime - T0) / MIN);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('market data: closed bars', () => {
  it('one venue subscription however many subscribers; closed events only; each bar once, in order, equal to REST', async () => {
    const { vt, venue, md, journal } = rig();
    venue.connection.open();
    const a = collect(md.closedBars('BTCUSDT', '1m'));
    const b = collect(md.closedBars('btcusdt', '1m'));
    // Updates of the bar in progress (x: false) are not bars.
    venue.connection.push('btcusdt@kline_1m', wireKline('BTCUSDT', '1m', fakeKline('BTCUSDT', '1m', T0), false, T0 + 2000));
    await vt.advance(10 * MIN + 5000);
    expect(venue.connection.subscribeCalls).toEqual(['btcusdt@kline_1m']);
    expect(opens(a)).toEqual(range(0, 10));
    expect(b).toEqual(a);
    expect(a.every((x) => x.source === 'stream')).toBe(true);
    for (const x of a) expect(x.candle.exact).toEqual(expect.objectContaining({ open: fakeKline('BTCUSDT', '1m', x.candle.openTime).open, close: fakeKline('BTCUSDT', '1m', x.candle.openTime).close }));
    expect(venue.restCalls).toHaveLength(0);
    expect(journal.rows.map((r) => [r.openTime, r.source])).toEqual(a.map((x) => [x.candle.openTime, 'live:stream']));
    await md.close();
  });

  it('the venue subscription ends with the last subscriber and comes back with the next', async () => {
    const { vt, venue, md } = rig();
    venue.connection.open();
    const s1 = md.closedBars('BTCUSDT', '1m').subscribe();
    const s2 = md.closedBars('BTCUSDT', '1m').subscribe();
    s1.unsubscribe();
    expect(venue.connection.unsubscribeCalls).toEqual([]);
    s2.unsubscribe();
    expect(venue.connection.unsubscribeCalls).toEqual(['btcusdt@kline_1m']);
    expect(md.health().streams).toEqual([]);
    const again = collect(md.closedBars('BTCUSDT', '1m'));
    await vt.advance(2 * MIN + 5000);
    expect(venue.connection.subscribeCalls).toEqual(['btcusdt@kline_1m', 'btcusdt@kline_1m']);
    expect(opens(again)).toEqual([0, 1]);
    await md.close();
  });

  it('a duplicate or late closed event is dropped with a log line', async () => {
    const { vt, venue, md, logs } = rig();
    venue.connection.open();
    venue.duplicatePushes = true;
    const bars = collect(md.closedBars('BTCUSDT', '1m'));
    await vt.advance(3 * MIN + 5000);
    venue.connection.push('btcusdt@kline_1m', wireKline('BTCUSDT', '1m', fakeKline('BTCUSDT', '1m', T0), true, vt.now()));
    await vt.advance(0);
    expect(opens(bars)).toEqual([0, 1, 2]);
    expect(logs.filter((l) => l.topic === 'duplicate')).toHaveLength(3);
    expect(logs.filter((l) => l.topic === 'late')).toHaveLength(1);
    await md.close();
  });

  it('a dropped socket: REST polling delivers the bars of the outage, the stream takes over again without duplicates', async () => {
    const { vt, venue, md } = rig();
    venue.connection.open();
    const bars = collect(md.closedBars('BTCUSDT', '1m'));
    const modes: string[] = [];
    md.health$.subscribe((h) => {
      const m = h.streams[0] ? `${h.streams[0].state}/${h.streams[0].mode}` : 'none';
      if (modes[modes.length - 1] !== m) modes.push(m);
    });
    await vt.advance(2 * MIN + 5000);
    venue.connection.drop();
    await vt.advance(5 * MIN);
    // Polling: the bars that closed while the socket was down arrived from REST, about 1.5 s after each close.
    expect(opens(bars)).toEqual(range(0, 7));
    expect(bars.slice(2).every((b) => b.source === 'rest')).toBe(true);
    venue.connection.reopen();
    await vt.advance(5 * MIN);
    expect(opens(bars)).toEqual(range(0, 12));
    expect(modes).toEqual(['LIVE/stream', 'DOWN/polling', 'RESYNCING/polling', 'LIVE/stream']);
    await md.close();
  });

  it('a reconnect after a short drop fills the missed bar from REST before the next stream bar', async () => {
    const { vt, venue, md } = rig();
    venue.connection.open();
    const bars = collect(md.closedBars('BTCUSDT', '1m'));
    await vt.advance(MIN + 30_000);
    venue.connection.drop();
    await vt.advance(31_200); // the bar 1 x:true push (at 2:01) is lost; no poll yet (due 2:01.5)
    expect(opens(bars)).toEqual([0]);
    venue.connection.reopen();
    await vt.advance(3 * MIN);
    expect(opens(bars)).toEqual(range(0, 5));
    expect(bars.map((b) => b.source)).toEqual(['stream', 'rest', 'stream', 'stream', 'stream']);
    expect(venue.restCalls).toHaveLength(1);
    await md.close();
  });

  it('a closed event lost while the socket stays open: REST is asked after the grace', async () => {
    const { vt, venue, md } = rig(['BTCUSDT'], { streamGraceMs: 10_000 });
    venue.connection.open();
    const bars = collect(md.closedBars('BTCUSDT', '1m'));
    await vt.advance(MIN + 5000);
    venue.connection.subscribed.delete('btcusdt@kline_1m'); // the venue silently stops pushing
    await vt.advance(MIN + 4000); // 2:09: bar 1 closed at 2:00, its push was lost
    expect(opens(bars)).toEqual([0]);
    await vt.advance(2000);
    expect(opens(bars)).toEqual([0, 1]);
    expect(bars[1]!.source).toBe('rest');
    expect(venue.restCalls).toHaveLength(1);
  });

  it('a stream bar that jumps over expected bars waits for REST to fill the range, retried while REST fails', async () => {
    const { vt, venue, md, logs } = rig(['BTCUSDT'], { streamGraceMs: 50 * MIN });
    venue.connection.open();
    const bars = collect(md.closedBars('BTCUSDT', '1m'));
    await vt.advance(MIN + 5000);
    venue.connection.subscribed.delete('btcusdt@kline_1m');
    await vt.advance(3 * MIN);
    venue.connection.subscribed.add('btcusdt@kline_1m');
    venue.restDown = true;
    await vt.advance(MIN); // bar 4 arrives at 5:01 and jumps over 1..3; REST fails
    expect(opens(bars)).toEqual([0]);
    expect(logs.some((l) => l.topic === 'rest' && l.level === 'warn')).toBe(true);
    venue.restDown = false;
    await vt.advance(MIN);
    expect(opens(bars)).toEqual(range(0, 6));
    expect(bars.map((b) => b.source)).toEqual(['stream', 'rest', 'rest', 'rest', 'stream', 'stream']);
  });

  it('a refused stream is polled over REST for good', async () => {
    const { vt, venue, md } = rig();
    venue.connection.refuse.add('btcusdt@kline_1m');
    venue.connection.open();
    const bars = collect(md.closedBars('BTCUSDT', '1m'));
    await vt.advance(4 * MIN + 5000);
    expect(opens(bars)).toEqual(range(0, 4));
    expect(md.health().streams[0]).toMatchObject({ state: 'DOWN', mode: 'polling' });
    await md.close();
  });

  it('a late subscriber asking for bars after its warm-up gets the recent ones replayed', async () => {
    const { vt, venue, md } = rig();
    venue.connection.open();
    const first = collect(md.closedBars('BTCUSDT', '1m'));
    await vt.advance(3 * MIN + 5000);
    const late = collect(md.closedBars('BTCUSDT', '1m', { after: T0 }));
    await vt.advance(MIN);
    expect(opens(first)).toEqual(range(0, 4));
    expect(opens(late)).toEqual(range(1, 4));
    const plain = collect(md.closedBars('BTCUSDT', '1m'));
    await vt.advance(MIN);
    expect(opens(plain)).toEqual([4]);
  });
});

describe('market data: warm-up, weight, trades and book tops', () => {
  it('warm-up reads the journal, tops up from REST, records what REST gave', async () => {
    const { vt, md, journal, venue } = rig();
    await vt.advance(30 * MIN + 20_000);
    // The journal holds bars 0..19 (a previous run); 20..29 are missing.
    journal.insertKlines(range(0, 20).map((i) => ({ symbol: 'BTCUSDT', interval: '1m', ...fakeKline('BTCUSDT', '1m', T0 + i * MIN), source: 'live:stream' })));
    const p = md.warmup('BTCUSDT', '1m', 25);
    await vt.advance(0);
    const bars = await p;
    expect(bars.map((c) => (c.openTime - T0) / MIN)).toEqual(range(5, 30));
    expect(venue.restCalls).toHaveLength(1);
    expect(venue.restCalls[0]!.params).toMatchObject({ startTime: T0 + 20 * MIN, endTime: T0 + 30 * MIN - 1 });
    expect(journal.rows.filter((r) => r.source === 'rest').map((r) => (r.openTime - T0) / MIN)).toEqual(range(20, 30));
    await md.close();
  });

  it('polling stays inside its weight share: many series during an outage wait for room instead of taking the pool', async () => {
    const symbols = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF'];
    // IP 20/min, share 0.2: the pipeline may take 4 per minute, six series want 6.
    const { vt, venue, md } = rig(symbols, { ipLimit: 20, pollWeightShare: 0.2 });
    const all = symbols.map((s) => collect(md.closedBars(s, '1m')));
    await vt.advance(30 * MIN);
    for (let t = T0; t <= vt.now(); t += 1000) {
      const inWindow = venue.restCalls.filter((c) => c.at > t - MIN && c.at <= t).length;
      expect(inWindow).toBeLessThanOrEqual(4);
    }
    // Nothing lost, nothing twice: the waiting series catch up with fewer, wider calls.
    for (const bars of all) expect(opens(bars)).toEqual(range(0, opens(bars).length));
    expect(Math.min(...all.map((b) => b.length))).toBeGreaterThanOrEqual(25);
    await md.close();
  });

  it('trades and book tops: one venue subscription per symbol, shared', async () => {
    const { venue, md } = rig();
    venue.connection.open();
    const t1: string[] = [];
    const t2: string[] = [];
    const tops: string[] = [];
    const s1 = md.trades('BTCUSDT').subscribe((t) => t1.push(`${t.id}@${t.price}`));
    md.trades('BTCUSDT').subscribe((t) => t2.push(t.id));
    md.bookTops('BTCUSDT').subscribe((b) => tops.push(`${b.bidPrice}/${b.askPrice}`));
    venue.connection.push('btcusdt@trade', { e: 'trade', E: T0, s: 'BTCUSDT', t: 12345678901234567890n.toString(), p: '100.5', q: '0.1', b: 1, a: 2, T: T0, m: true, M: true });
    venue.connection.push('btcusdt@bookTicker', { u: 7, s: 'BTCUSDT', b: '100.4', B: '1', a: '100.6', A: '2' });
    expect(venue.connection.subscribeCalls).toEqual(['btcusdt@trade', 'btcusdt@bookTicker']);
    expect(t1).toEqual(['12345678901234567890@100.5']);
    expect(t2).toEqual(['12345678901234567890']);
    expect(tops).toEqual(['100.4/100.6']);
    s1.unsubscribe();
    expect(venue.connection.unsubscribeCalls).toEqual([]);
    await md.close();
  });
});
