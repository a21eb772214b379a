import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../journal/journal.ts';
import { runCommand } from '../test-support.ts';
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

  it('an unknown interval is refused by the parser', async () => {
    const r = await run(['import', join(dir, 'x.csv'), '--interval', '7m']);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/Invalid values?:[\s\S]*interval/);
  });
});
