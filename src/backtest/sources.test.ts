import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseInstrument } from '../core/market/instrument.ts';
import { openJournal } from '../journal/journal.ts';
import type { Journal } from '../journal/journal.ts';
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

  it('takes the instrument from the exchangeInfo snapshot in force at the start, else the fallback, else says what to do', () => {
    const fallback = parseInstrument(symbolInfo('BTCPHP', '0.5'));
    expect(instrumentAt(j, 'BTCPHP', T0, fallback)).toEqual({ instrument: fallback, source: 'fallback' });
    expect(() => instrumentAt(j, 'BTCPHP', T0)).toThrow(/no exchange rules for BTCPHP/);
    j.exchangeInfo.save(T0 - 1000, { symbols: [symbolInfo('BTCPHP', '0.01')] });
    j.exchangeInfo.save(T0 + 1000, { symbols: [symbolInfo('BTCPHP', '0.1')] });
    const at = instrumentAt(j, 'BTCPHP', T0, fallback);
    expect([at.source, at.takenAt, at.instrument.filter('PRICE_FILTER')?.tickSize.toFixed()]).toEqual(['journal', T0 - 1000, '0.01']);
    expect(instrumentAt(j, 'BTCPHP', T0 - 5000).instrument.filter('PRICE_FILTER')?.tickSize.toFixed()).toBe('0.1'); // only later rules known: the newest
  });

  it('generates a synthetic series', () => {
    const s = syntheticBars({ seed: 2, segments: [{ regime: 'flat', bars: 10 }] });
    expect([...s]).toHaveLength(10);
  });
});
