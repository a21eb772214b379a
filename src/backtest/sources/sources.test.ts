import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseInstrument } from '../../core/market/instrument.ts';
import { openJournal } from '../../journal/journal.ts';
import { BLOCK_ROWS } from '../../journal/klines/kline-blocks.ts';
import type { Journal } from '../../journal/journal.ts';
import { keptText } from '../../core/indicators/candle.ts';
import type { Candle, CandleText } from '../../core/indicators/candle.ts';
import { instrumentAt, journalBars, syntheticBars } from './sources.ts';

let dir: string;
let j: Journal;
const T0 = Date.UTC(2024, 0, 1);
const symbolInfo = (symbol: string, tickSize: string) => ({
  symbol,
  status: 'TRADING',
  baseAsset: 'BTC',
  baseAssetPrecision: 8,
  quoteAsset: 'PHP',
  quoteAssetPrecision: 2,
  filters: [{ filterType: 'PRICE_FILTER', minPrice: tickSize, maxPrice: '1000000', tickSize }],
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-bt-src-'));
  j = openJournal(join(dir, 'j.db'));
  j.klines.insertKlines(
    Array.from({ length: 5 }, (_, i) => ({ symbol: 'BTCPHP', interval: '1m', openTime: T0 + i * 60_000, closeTime: T0 + (i + 1) * 60_000 - 1, open: `${100 + i}`, high: `${101 + i}.5`, low: `${99 + i}`, close: `${100.25 + i}`, volume: '3', source: 'test' })),
  );
});
afterEach(() => {
  j.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('backtest sources', () => {
  it('streams a series from the journal as candles, honouring [from, to)', () => {
    // the candle object is reused: read it as it comes
    const got: string[] = [];
    for (const c of journalBars(j, 'BTCPHP', '1m', T0 + 60_000, T0 + 240_000)) got.push(`${c.openTime - T0} ${c.exact.close} ${c.close}`);
    expect(got).toEqual(['60000 101.25 101.25', '120000 102.25 102.25', '180000 103.25 103.25']);
    const first = journalBars(j, 'BTCPHP', '1m').next().value;
    expect(first).toMatchObject({ openTime: T0, closeTime: T0 + 59_999, high: 101.5, exact: { high: '101.5', volume: '3' } });
  });

  it('reads kline blocks and rows alike: every bar equals the TEXT rows, over any range, with a block it cannot read', () => {
    const n = 3 * BLOCK_ROWS + 700;
    const rows = Array.from({ length: n }, (_, i) => {
      const t = T0 + (i + (i > 5000 ? 50 : 0)) * 60_000; // a gap in the series
      const p = 1000 + (i % 997);
      return { symbol: 'ETHPHP', interval: '1m', openTime: t, closeTime: t + 59_999, open: `${p}.5`, high: `${p + 1}.250`, low: `${p - 1}`, close: `${p}.0${i % 10}`, volume: `${i % 13}.000001`, source: 'test' };
    });
    j.klines.insertKlines(rows);
    // One block of an unknown format: read from the rows instead.
    j.db.prepare('UPDATE kline_blocks SET data = ? WHERE id = (SELECT max(id) FROM kline_blocks)').run(Buffer.from([9, 0, 0, 0, 0, 0, 0, 0]));
    expect(j.db.prepare('SELECT count(*) FROM kline_blocks').pluck().get()).toBe(3);
    const read = (from?: number, to?: number) => {
      const out: string[] = [];
      for (const c of journalBars(j, 'ETHPHP', '1m', from, to)) {
        const x = c.exact;
        expect([c.open, c.high, c.low, c.close, c.volume]).toEqual([x.open, x.high, x.low, x.close, x.volume].map(Number));
        out.push(`${c.openTime} ${c.closeTime} ${x.open} ${x.high} ${x.low} ${x.close} ${x.volume}`);
      }
      return out;
    };
    const truth = (from?: number, to?: number) => j.klines.klines('ETHPHP', '1m', from, to).map((r) => `${r.openTime} ${r.closeTime} ${r.open} ${r.high} ${r.low} ${r.close} ${r.volume}`);
    expect(read()).toEqual(truth());
    expect(read()).toHaveLength(n);
    const at = (i: number) => T0 + i * 60_000;
    for (const [a, b] of [[0, 1], [1, BLOCK_ROWS + 3], [BLOCK_ROWS - 1, BLOCK_ROWS + 1], [5000, 5060], [4000, 9000], [2 * BLOCK_ROWS + 17, n + 60], [n + 60, n + 70]] as const) {
      expect(read(at(a), at(b))).toEqual(truth(at(a), at(b)));
    }
    // Returned early, then read again: nothing is left over.
    const it = journalBars(j, 'ETHPHP', '1m');
    it.next();
    it.return?.();
    expect(it.next().done).toBe(true);
  });

  it('hints how many bars a range holds, from its packed blocks plus room for the rows not packed yet', () => {
    const n = 3 * BLOCK_ROWS + 700;
    j.klines.insertKlines(Array.from({ length: n }, (_, i) => ({ symbol: 'ETHPHP', interval: '1m', openTime: T0 + i * 60_000, closeTime: T0 + i * 60_000 + 59_999, open: '1', high: '1', low: '1', close: '1', volume: '1', source: 'test' })));
    const hint = journalBars(j, 'ETHPHP', '1m').sizeHint;
    expect(hint).toBeGreaterThanOrEqual(n);
    expect(hint).toBeLessThanOrEqual(n + BLOCK_ROWS);
    // A range within one block: that block's rows, plus the room.
    expect(journalBars(j, 'ETHPHP', '1m', T0, T0 + 60_000).sizeHint).toBe(BLOCK_ROWS + 1024);
  });

  it('hands out texts a consumer reads on any bar, as plain data (spread, JSON, keys), also of the last bar after the end', () => {
    const n = 2 * BLOCK_ROWS + 300;
    const rows = Array.from({ length: n }, (_, i) => {
      const t = T0 + i * 60_000;
      const p = 2000 + (i % 389);
      return { symbol: 'XPHP', interval: '1m', openTime: t, closeTime: t + 59_999, open: `${p}.${i % 100}`, high: `${p + 3}.000`, low: `${p - 2}`, close: `${p}.${i % 7}5`, volume: `0.${i}`, source: 'test' };
    });
    j.klines.insertKlines(rows);
    expect(j.db.prepare('SELECT count(*) FROM kline_blocks').pluck().get()).toBe(2);
    const texts = (r: (typeof rows)[number]) => ({ open: r.open, high: r.high, low: r.low, close: r.close, volume: r.volume });
    let i = 0;
    let last: Candle | undefined;
    for (const c of journalBars(j, 'XPHP', '1m')) {
      const r = rows[i]!;
      // Some bars' texts never read, some read in part, some read twice; the numbers always there.
      expect(c.close).toBe(Number(r.close));
      if (i % 3 === 0) expect(c.exact.close).toBe(r.close);
      if (i % 5 === 0) expect([c.exact.volume, c.exact.open, c.exact.volume]).toEqual([r.volume, r.open, r.volume]);
      if (i % 7 === 0) {
        expect({ ...c.exact }).toEqual(texts(r));
        expect(Object.keys(c.exact)).toEqual(['open', 'high', 'low', 'close', 'volume']);
        expect(JSON.parse(JSON.stringify(c))).toEqual({ openTime: r.openTime, closeTime: r.closeTime, open: Number(r.open), high: Number(r.high), low: Number(r.low), close: Number(r.close), volume: Number(r.volume), exact: texts(r) });
        expect(structuredClone(c.exact)).toEqual(texts(r));
      }
      last = c;
      i++;
    }
    expect(i).toBe(n);
    expect({ ...last!.exact }).toEqual(texts(rows[n - 1]!));
    // The range ends inside a block: its last bar's texts, unread until the iterator is done.
    for (const c of journalBars(j, 'XPHP', '1m', undefined, T0 + 1000 * 60_000)) last = c;
    expect(last!.openTime).toBe(T0 + 999 * 60_000);
    expect({ ...last!.exact }).toEqual(texts(rows[999]!));
  });

  it('keeps a bar\'s texts by reference (ReusedCandleText.keep): the row\'s own texts after the source moved on, read or not', () => {
    const n = BLOCK_ROWS + 500; // a block, then rows not packed yet
    const rows = Array.from({ length: n }, (_, i) => {
      const t = T0 + i * 60_000;
      return { symbol: 'KPHP', interval: '1m', openTime: t, closeTime: t + 59_999, open: `${500 + i}.1`, high: `${510 + i}`, low: `${490 + i}.25`, close: `${500 + (i % 17)}.${i % 10}`, volume: `${i}.5`, source: 'test' };
    });
    j.klines.insertKlines(rows);
    const kept: { i: number; text: CandleText }[] = [];
    let i = 0;
    for (const c of journalBars(j, 'KPHP', '1m')) {
      if (i % 3 === 0) expect(c.exact.close).toBe(rows[i]!.close); // some read before being kept, some after
      const k = keptText(c.exact);
      expect(k).toBeDefined();
      expect(keptText(c.exact)).toBe(k); // one object per bar
      if (i % 4 === 0) kept.push({ i, text: k! });
      i++;
    }
    expect(i).toBe(n);
    for (const { i: at, text } of kept) {
      const r = rows[at]!;
      expect([text.open, text.high, text.low, text.close, text.volume]).toEqual([r.open, r.high, r.low, r.close, r.volume]);
    }
    // Plain candles (the synthetic market, arrays) offer none: readers copy their strings.
    expect(keptText({ open: '1', high: '1', low: '1', close: '1', volume: '1' })).toBeUndefined();
  });

  it('takes the instrument from the exchangeInfo snapshot in force at the start, else the fallback, else says what to do', () => {
    const fallback = parseInstrument(symbolInfo('BTCPHP', '0.5'));
    expect(instrumentAt(j, 'BTCPHP', T0, fallback)).toEqual({ instrument: fallback, source: 'fallback' });
    expect(() => instrumentAt(j, 'BTCPHP', T0)).toThrow(/no exchange rules for BTCPHP/);
    j.exchangeInfo.save(T0 - 1000, { symbols: [symbolInfo('BTCPHP', '0.01')] });
    j.exchangeInfo.save(T0 + 1000, { symbols: [symbolInfo('BTCPHP', '0.1')] });
    const at = instrumentAt(j, 'BTCPHP', T0, fallback);
    expect([at.source, at.takenAt, at.instrument.filter('PRICE_FILTER')?.tickSize.toFixed()]).toEqual(['journal', T0 - 1000, '0.01']);
    expect(instrumentAt(j, 'BTCPHP', T0 - 5000).instrument.filter('PRICE_FILTER')?.tickSize.toFixed()).toBe('0.01'); // only later rules known: the first of them, nearest the bars
  });

  it("finds a symbol's rules in the last snapshot listing it, past a later snapshot of another symbol (record BTCPHP, then ETHPHP)", () => {
    j.exchangeInfo.save(T0 - 2000, { symbols: [symbolInfo('BTCPHP', '0.01')] });
    j.exchangeInfo.save(T0 - 1000, { symbols: [symbolInfo('ETHPHP', '0.5')] });
    const btc = instrumentAt(j, 'BTCPHP', T0);
    expect([btc.source, btc.takenAt, btc.instrument.filter('PRICE_FILTER')?.tickSize.toFixed()]).toEqual(['journal', T0 - 2000, '0.01']);
    expect(instrumentAt(j, 'ETHPHP', T0).takenAt).toBe(T0 - 1000);
    // Before any snapshot listing it: the first one that does.
    expect(instrumentAt(j, 'ETHPHP', T0 - 5000).takenAt).toBe(T0 - 1000);
  });

  it('generates a synthetic series', () => {
    const s = syntheticBars({ seed: 2, segments: [{ regime: 'flat', bars: 10 }] });
    expect([...s]).toHaveLength(10);
  });
});
