import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db.ts';
import { openJournal, type Journal } from '../journal.ts';
import { BLOCK_ROWS, decodeBlock, encodeBlock, firstAtOrAfter } from './kline-blocks.ts';
import type { KlineInput, KlineStore } from './kline-store.ts';
import { MIGRATIONS } from '../migrations/index.ts';

const MIN = 60_000;
/** Texts of every shape the venue sends: trailing zeros, no fraction, long fractions, big and tiny values. */
function bar(i: number, symbol = 'BTCUSDT'): KlineInput {
  const p = 60_000 + ((i * 7919) % 5000);
  return {
    symbol,
    interval: '1m',
    openTime: i * MIN,
    closeTime: i * MIN + MIN - 1,
    open: `${p}.${String(i % 100).padStart(2, '0')}`,
    high: i % 3 === 0 ? `${p + 10}` : `${p + 10}.50000000`,
    low: `${p - 10}.1`,
    close: `${p}.${i % 10}${i % 7}`,
    volume: i % 5 === 0 ? '0.00000001' : `${(i % 1000) / 8}`,
    source: 'test',
  };
}

/** Every block of a series decoded, checked against the TEXT rows of its range: texts equal, numbers Number(text). */
function checkBlocks(store: KlineStore, symbol: string, interval = '1m'): number {
  let n = 0;
  for (let b = store.blockAfter(symbol, interval, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER); b; b = store.blockAfter(symbol, interval, b.stop, Number.MAX_SAFE_INTEGER)) {
    const block = decodeBlock(b.data)!;
    const rows = store.klines(symbol, interval, b.start, b.stop);
    expect(block.count).toBe(rows.length);
    expect(b.count).toBe(rows.length);
    const all = block.textRows(0, block.count);
    const into = { open: '', high: '', low: '', close: '', volume: '' };
    rows.forEach((r, i) => {
      const texts = all.slice(i * 5, i * 5 + 5);
      expect(block.textRows(i, i + 1)).toEqual(texts);
      block.rowTexts(i, into);
      expect([into.open, into.high, into.low, into.close, into.volume]).toEqual(texts);
      expect(texts).toEqual([r.open, r.high, r.low, r.close, r.volume]);
      const nums = [block.open[i], block.high[i], block.low[i], block.close[i], block.volume[i]];
      expect(nums).toEqual(texts.map(Number));
      expect([block.openTime[i], block.closeTime[i]]).toEqual([r.openTime, r.closeTime]);
    });
    n++;
  }
  return n;
}

let dir: string;
let j: Journal;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-blocks-'));
  j = openJournal(join(dir, 'j.db'));
});
afterEach(() => {
  j.close();
  rmSync(dir, { recursive: true, force: true });
});

const blockCount = (jj: Journal) => jj.db.prepare('SELECT count(*) FROM kline_blocks').pluck().get() as number;

describe('kline blocks', () => {
  it('encodes and decodes the exact texts and their numbers', () => {
    const rows = Array.from({ length: 50 }, (_, i) => {
      const b = bar(i);
      return [b.openTime, b.open, b.high, b.low, b.close, b.volume, b.closeTime] as [number, string, string, string, string, string, number];
    });
    const block = decodeBlock(encodeBlock(rows))!;
    expect(block.count).toBe(50);
    expect(block.textRows(0, 2)).toEqual([...rows[0]!.slice(1, 6), ...rows[1]!.slice(1, 6)]);
    expect(block.textRows(49, 50)).toEqual(rows[49]!.slice(1, 6));
    expect(block.volume[5]).toBe(Number(rows[5]![5]));
    expect(firstAtOrAfter(block, 10 * MIN)).toBe(10);
    expect(firstAtOrAfter(block, 10 * MIN + 1)).toBe(11);
    expect(firstAtOrAfter(block, 1e15)).toBe(50);
    // Not plain decimal text: refused (the schema's CHECK refuses it in the rows too).
    expect(() => encodeBlock([[0, '1e5', '1', '1', '1', '1', 1]])).toThrow(/plain decimal/);
    // Row by row, in any order (across the text windows, backwards too).
    const into = { open: '', high: '', low: '', close: '', volume: '' };
    const rowTexts = (i: number) => {
      block.rowTexts(i, into);
      return [into.open, into.high, into.low, into.close, into.volume];
    };
    for (const i of [49, 0, 1, 1, 48, 25, 0]) expect(rowTexts(i)).toEqual(rows[i]!.slice(1, 6));
    expect(() => block.rowTexts(50, into)).toThrow(RangeError);
    expect(() => block.rowTexts(-1, into)).toThrow(RangeError);
    // Another format: not read.
    const other = Buffer.from(encodeBlock(rows));
    other.writeUInt32LE(99, 0);
    expect(decodeBlock(other)).toBeUndefined();
    expect(decodeBlock(encodeBlock(rows).subarray(0, 100))).toBeUndefined();
  });

  it('reads the texts of any row of a full block, window by window, in any order, and says when they are damaged', () => {
    const rows = Array.from({ length: BLOCK_ROWS }, (_, i) => {
      const b = bar(i);
      return [b.openTime, b.open, b.high, b.low, b.close, b.volume, b.closeTime] as [number, string, string, string, string, string, number];
    });
    const data = encodeBlock(rows);
    const block = decodeBlock(data)!;
    const into = { open: '', high: '', low: '', close: '', volume: '' };
    const order = [...Array.from({ length: BLOCK_ROWS }, (_, i) => i), ...Array.from({ length: BLOCK_ROWS }, (_, i) => BLOCK_ROWS - 1 - i), 300, 5, 1000, 256, 255, 511, 512];
    for (const i of order) {
      block.rowTexts(i, into);
      expect([into.open, into.high, into.low, into.close, into.volume]).toEqual(rows[i]!.slice(1, 6));
    }
    // A separator lost or one too many in a row's text: refused, not misread.
    const textAt = 8 + BLOCK_ROWS * 7 * 8 + (BLOCK_ROWS + 1) * 4;
    const lost = Buffer.from(data);
    lost[data.indexOf(10, textAt)] = 0x30;
    expect(() => decodeBlock(lost)!.rowTexts(0, into)).toThrow(/damaged/);
    const extra = Buffer.from(data);
    extra[textAt + 1] = 10;
    expect(() => decodeBlock(extra)!.rowTexts(0, into)).toThrow(/damaged/);
    expect(decodeBlock(extra)!.rowTexts(1, into)).toBeUndefined();
    expect(into.open).toBe(rows[1]![1]);
  });

  it('packs full blocks as klines are written, in any batch size, and leaves the rest as rows', () => {
    const n = 2 * BLOCK_ROWS + 1000;
    for (let i = 0; i < n; i += 3000) j.klines.insertKlines(Array.from({ length: Math.min(3000, n - i) }, (_, k) => bar(i + k)));
    expect(checkBlocks(j.klines, 'BTCUSDT')).toBe(2);
    expect(blockCount(j)).toBe(2);
  });

  it('drops a block when a row in its range changes, by upsert, raw SQL or delete, and packs it again on the next write', () => {
    j.klines.insertKlines(Array.from({ length: 2 * BLOCK_ROWS }, (_, i) => bar(i)));
    expect(blockCount(j)).toBe(2);
    // An upsert replaces a row inside the first block: repacked with the new text in the same write.
    j.klines.insertKlines([{ ...bar(10), close: '1.5' }]);
    expect(checkBlocks(j.klines, 'BTCUSDT')).toBe(2);
    expect(decodeBlock(j.klines.blockAfter('BTCUSDT', '1m', 0, 1e15)!.data)!.textRows(10, 11)[3]).toBe('1.5');
    // Raw SQL: the trigger drops the block; the rows are the truth meanwhile.
    j.db.prepare("UPDATE klines SET close = '2.25' WHERE open_time = ?").run(20 * MIN);
    expect(blockCount(j)).toBe(1);
    expect(checkBlocks(j.klines, 'BTCUSDT')).toBe(1);
    j.db.prepare('DELETE FROM klines WHERE open_time = ?').run(BLOCK_ROWS * MIN + 5 * MIN);
    expect(blockCount(j)).toBe(0);
    // A gap filled inside a block's range drops it too.
    j.klines.insertKlines(Array.from({ length: BLOCK_ROWS }, (_, i) => bar(3 * BLOCK_ROWS + 2 * i)));
    j.klines.insertKlines([bar(3 * BLOCK_ROWS + 1)]);
    expect(checkBlocks(j.klines, 'BTCUSDT')).toBeGreaterThan(0);
    // deleteKlines drops the block around what it removed; the 3996 rows left there are short of a block: rows only.
    const before = checkBlocks(j.klines, 'BTCUSDT');
    j.klines.deleteKlines('BTCUSDT', '1m', 100 * MIN, 200 * MIN);
    expect(checkBlocks(j.klines, 'BTCUSDT')).toBe(before - 1);
    expect(j.klines.blockAfter('BTCUSDT', '1m', 0, 1)).toBeUndefined();
  });

  it('keeps series apart', () => {
    j.klines.insertKlines([...Array.from({ length: BLOCK_ROWS }, (_, i) => bar(i, 'A')), ...Array.from({ length: BLOCK_ROWS }, (_, i) => bar(i, 'B'))]);
    j.klines.insertKlines([{ ...bar(7, 'A'), close: '3' }]);
    expect(checkBlocks(j.klines, 'A')).toBe(1);
    expect(checkBlocks(j.klines, 'B')).toBe(1);
    expect(blockCount(j)).toBe(2);
  });

  it('a journal upgraded from schema 1 has its klines packed once', () => {
    const file = join(dir, 'old.db');
    const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) }).db;
    const ins = old.prepare('INSERT INTO klines (symbol, interval, open_time, open, high, low, close, volume, close_time, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < BLOCK_ROWS + 10; i++) {
      const b = bar(i);
      ins.run(b.symbol, b.interval, b.openTime, b.open, b.high, b.low, b.close, b.volume, b.closeTime, b.source);
    }
    old.close();
    const up = openJournal(file);
    expect(up.schemaVersion).toBe(MIGRATIONS.length);
    expect(checkBlocks(up.klines, 'BTCUSDT')).toBe(1);
    up.close();
  });

  it('a schema-1 journal opened read-only (a backtest) is upgraded first, then read', () => {
    const file = join(dir, 'old-ro.db');
    const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) }).db;
    const ins = old.prepare('INSERT INTO klines (symbol, interval, open_time, open, high, low, close, volume, close_time, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < BLOCK_ROWS + 10; i++) {
      const b = bar(i);
      ins.run(b.symbol, b.interval, b.openTime, b.open, b.high, b.low, b.close, b.volume, b.closeTime, b.source);
    }
    old.close();
    const ro = openJournal(file, { readonly: true });
    expect(ro.schemaVersion).toBe(MIGRATIONS.length);
    expect(checkBlocks(ro.klines, 'BTCUSDT')).toBe(1);
    expect(() => ro.klines.insertKlines([bar(BLOCK_ROWS + 10)])).toThrow();
    ro.close();
  });
});
