import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../journal/klines/kline-blocks.ts';
import { openJournal } from '../../../journal/journal.ts';
import { runCommand } from '../../test-support.ts';
import { importCommand } from './import.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-import-cmd-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(importCommand, argv);

const T = Date.UTC(2024, 0, 1);
const csv = (n: number) => ['timestamp,open,high,low,close,volume', ...Array.from({ length: n }, (_, i) => `${T + i * 3_600_000},1.5,2.0,1.0,1.75,10`)].join('\n');

describe('halyard import (command)', () => {
  it('takes the file as a positional and --symbol/--interval/--journal options', async () => {
    const file = join(dir, 'prices.csv');
    writeFileSync(file, csv(4));
    const journal = join(dir, 'j.db');
    const r = await run(['import', file, '--symbol', 'XRPUSDT', '--interval', '1h', '--journal', journal]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Imported XRPUSDT 1h from .*prices\.csv/);
    expect(r.out).toMatch(/series +XRPUSDT 1h \(interval from the option\)/);
    const j = openJournal(journal);
    expect(j.klines.klineRange('XRPUSDT', '1h')?.count).toBe(4);
    j.close();
  });

  it('a bad file exits 2 with the line number and nothing imported', async () => {
    const file = join(dir, 'XRPUSDT-1h.csv');
    writeFileSync(file, csv(3) + '\n' + `${T + 3 * 3_600_000},1.5,1.0,1.0,1.75,10`);
    const journal = join(dir, 'j.db');
    const r = await run(['import', file, '--journal', journal]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/error: .*XRPUSDT-1h\.csv:5: high 1\.0 is below open 1\.5\nnothing was imported/);
  });

  it('--exchange-info saves the symbol\'s rules as the snapshot in force from the first bar; a file without them imports nothing', async () => {
    const file = join(dir, 'XRPUSDT-1h.csv');
    writeFileSync(file, csv(4));
    const rules = join(dir, 'rules.json');
    const xrp = { symbol: 'XRPUSDT', status: 'TRADING', baseAsset: 'XRP', baseAssetPrecision: 8, quoteAsset: 'USDT', quoteAssetPrecision: 8, filters: [{ filterType: 'LOT_SIZE', minQty: '0.1', maxQty: '1000', stepSize: '0.1' }] };
    writeFileSync(rules, JSON.stringify({ symbols: [xrp] }));
    const journal = join(dir, 'j.db');
    const r = await run(['import', file, '--journal', journal, '--exchange-info', rules]);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/rules +XRPUSDT from .*rules\.json, saved as the exchangeInfo snapshot in force from 2024-01-01T00:00Z/);
    const j = openJournal(journal);
    expect(j.exchangeInfo.at(T)?.body).toEqual({ symbols: [xrp] });
    j.close();

    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ ...xrp, symbol: 'ADAUSDT' }));
    const journal2 = join(dir, 'j2.db');
    const bad = await run(['import', file, '--journal', journal2, '--exchange-info', other]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/other\.json has no rules for XRPUSDT; it lists ADAUSDT\nnothing was imported/);
    expect(existsSync(journal2)).toBe(false);
  });

  describe('bars already in the journal (nothing is lost)', () => {
    const H = 3_600_000;
    /** n hourly bars from T; `over` replaces bar i's line. */
    const bars = (n: number, over: Record<number, string> = {}, from = 0) =>
      ['timestamp,open,high,low,close,volume', ...Array.from({ length: n }, (_, k) => over[from + k] ?? `${T + (from + k) * H},1.5,2.0,1.0,1.75,10`)].join('\n');
    /** More than one block of rows (kline-blocks BLOCK_ROWS = 1024), so packed blocks cover the bars compared. */
    const N = 1500;
    let journal: string;
    let base: string;
    beforeEach(async () => {
      journal = join(dir, 'j.db');
      base = join(dir, 'XRPUSDT-1h.csv');
      writeFileSync(base, bars(N));
      expect((await run(['import', base, '--journal', journal])).code).toBe(0);
    });
    const stored = (i: number) => {
      const j = openJournal(journal, { readonly: true });
      try {
        return j.klines.klines('XRPUSDT', '1h', T + i * H, T + i * H + 1)[0];
      } finally {
        j.close();
      }
    };
    /** Bar i as the journal's block cache holds it (what backtests read), or undefined when no block covers it. */
    const blockHigh = (i: number) => {
      const j = openJournal(journal, { readonly: true });
      try {
        const b = j.klines.blockAfter('XRPUSDT', '1h', T + i * H, T + i * H + 1);
        if (!b || b.start > T + i * H) return undefined;
        const block = decodeBlock(b.data)!;
        return block.textRows(i - (b.start - T) / H, i - (b.start - T) / H + 1)[1];
      } finally {
        j.close();
      }
    };

    it('importing the same file again is idempotent: "N already stored, identical", nothing written', async () => {
      const again = await run(['import', base, '--journal', journal]);
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/\n {2}stored +1500 already stored, identical \(left as they are\); 0 new\n/);
      expect(again.out).toMatch(/journal +XRPUSDT 1h now holds 1500 bars/);
      // Overlapping and extending: the stored ones identical, the rest new.
      const more = join(dir, 'XRPUSDT-1h-more.csv');
      writeFileSync(more, bars(20, {}, N - 10));
      const r = await run(['import', more, '--journal', journal]);
      expect(r.out).toMatch(/stored +10 already stored, identical \(left as they are\); 10 new/);
      expect(r.out).toMatch(/now holds 1510 bars/);
    });

    it('a bar that would change a stored one: exit 2, nothing written (not even the new bars or the rules), the first difference shown', async () => {
      const over = join(dir, 'XRPUSDT-1h-over.csv');
      // Bars 1495..1504: 1495..1499 stored (1497 and 1499 different), 1500..1504 new.
      writeFileSync(over, bars(10, { [1497]: `${T + 1497 * H},1.5,99999,1.0,1.75,10`, [1499]: `${T + 1499 * H},1.5,2.0,1.0,1.75,11` }, 1495));
      const rules = join(dir, 'rules.json');
      writeFileSync(rules, JSON.stringify({ symbols: [{ symbol: 'XRPUSDT', status: 'TRADING', baseAsset: 'XRP', baseAssetPrecision: 8, quoteAsset: 'USDT', quoteAssetPrecision: 8, filters: [] }] }));
      const r = await run(['import', over, '--journal', journal, '--exchange-info', rules]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toBe(
        [
          `error: ${over}: 2 XRPUSDT 1h bar(s) differ from the bars ${journal} holds at the same open times (3 identical, 5 new); nothing was imported`,
          '  first at 2024-03-03T09:00Z: high 2.0 -> 99999 (stored -> file)',
          "  pass --replace to overwrite the stored bars with the file's",
        ].join('\n'),
      );
      expect(stored(1497)).toMatchObject({ high: '2.0' });
      const j = openJournal(journal, { readonly: true });
      expect(j.klines.klineRange('XRPUSDT', '1h')?.count).toBe(N);
      expect(j.exchangeInfo.latest()).toBeUndefined();
      j.close();

      // --dry-run: the same counts and the same refusal, nothing written.
      const dry = await run(['import', over, '--journal', journal, '--dry-run']);
      expect(dry.code).toBe(2);
      expect(dry.out).toMatch(/stored +5 already stored: 3 identical \(left as they are\), 2 different \(refused without --replace\); 5 new/);
      expect(dry.err).toMatch(/2 XRPUSDT 1h bar\(s\) differ .*\(3 identical, 5 new\); the import would be refused/);
      const dryReplace = await run(['import', over, '--journal', journal, '--dry-run', '--replace']);
      expect(dryReplace.code).toBe(0);
      expect(dryReplace.out).toMatch(/stored +5 already stored: 3 identical \(left as they are\), 2 would be replaced by the file's \(--replace\); 5 new/);
      expect(stored(1497)).toMatchObject({ high: '2.0' });

      // --replace: written, in the rows and in the block cache backtests read, and reported.
      expect(blockHigh(1000)).toBe('2.0');
      const bigOver = join(dir, 'XRPUSDT-1h-deep.csv');
      writeFileSync(bigOver, bars(1, { [1000]: `${T + 1000 * H},1.5,77777,1.0,1.75,10` }, 1000));
      expect((await run(['import', bigOver, '--journal', journal])).code).toBe(2);
      const replaced = await run(['import', bigOver, '--journal', journal, '--replace']);
      expect(replaced.code).toBe(0);
      expect(replaced.out).toMatch(/stored +1 already stored: 1 replaced by the file's \(--replace\); 0 new/);
      expect(stored(1000)).toMatchObject({ high: '77777', source: 'csv:XRPUSDT-1h-deep.csv' });
      expect(blockHigh(1000)).toBe('77777');
      const r2 = await run(['import', over, '--journal', journal, '--replace']);
      expect(r2.code).toBe(0);
      expect(r2.out).toMatch(/stored +5 already stored: 3 identical \(left as they are\), 2 replaced by the file's \(--replace\); 5 new/);
      expect(stored(1497)).toMatchObject({ high: '99999' });
      expect(stored(1499)).toMatchObject({ volume: '11' });
    });

    it('a 12-column file over the same bars from a 6-column one completes them', async () => {
      const full = join(dir, 'XRPUSDT-1h-full.csv');
      const header = 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';
      writeFileSync(full, [header, ...[0, 1].map((i) => `${T + i * H},1.50,2.0,1.0,1.75,10,${T + i * H + H - 1},17.5,3,5,8.75,0`)].join('\n'));
      const r = await run(['import', full, '--journal', journal]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/stored +2 already stored: 2 completed with the file's extra columns; 0 new/);
      expect(stored(1)).toMatchObject({ open: '1.5', quoteVolume: '17.5', trades: 3 });
      // And the 6-column file again: identical, the extra columns kept.
      expect((await run(['import', base, '--journal', journal])).out).toMatch(/stored +1500 already stored, identical/);
      expect(stored(1)).toMatchObject({ quoteVolume: '17.5', trades: 3 });
    });
  });

  it('an unknown interval is refused by the parser', async () => {
    const r = await run(['import', join(dir, 'x.csv'), '--interval', '7m']);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/Invalid values?:[\s\S]*interval/);
  });
});
