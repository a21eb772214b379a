/**
 * `halyard import` reads its file in batches (IMPORT_BATCH) inside one transaction: what it writes
 * must not depend on the batch size, a bad row anywhere must roll back every batch before it, and
 * a dry run must leave the journal file as it was, even one of an older schema.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseKlineCsv } from '../../../data/kline-files/kline-csv.ts';
import { openDatabase } from '../../../journal/db.ts';
import { openJournal } from '../../../journal/journal.ts';
import { MIGRATIONS } from '../../../journal/migrations/index.ts';
import type { CliIo } from '../../io.ts';
import { runCommand } from '../../test-support.ts';
import { IMPORT_BATCH, importCommand, runImport } from './import.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-import-stream-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(importCommand, argv);
const H = 3_600_000;
const T = Date.UTC(2024, 0, 1);
const HEADER6 = 'timestamp,open,high,low,close,volume';
const HEADER12 = 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';
/** Hourly bar i: 6 columns, or 12 (`full`); `high` overrides its high. */
const row = (i: number, o: { full?: boolean; high?: string } = {}) => {
  const p = 100 + (i % 71);
  const base = [String(T + i * H), `${p}.5`, o.high ?? `${p + 2}.25`, `${p - 1}.0`, `${p + 1}.75`, `${i % 13}.5`];
  return (o.full ? [...base, String(T + i * H + H - 1), '1234.5', String(i % 50), '6.1', '610.5', '0'] : base).join(',');
};
/** Bars from..to-1 as a CSV file's text, a repeated row now and then and a few bars missing. */
const csv = (from: number, to: number, o: { full?: boolean; over?: Record<number, string> } = {}) => {
  const lines = [o.full ? HEADER12 : HEADER6];
  for (let i = from; i < to; i++) {
    if (i % 1000 === 500) continue;
    lines.push(o.over?.[i] ?? row(i, o));
    if (i % 777 === 0) lines.push(o.over?.[i] ?? row(i, o));
  }
  return lines.join('\n') + '\n';
};

function io() {
  const out: string[] = [];
  const cli: CliIo = { env: {}, out: (t) => out.push(t), err: () => {} };
  return { cli, out };
}

/** Everything an import leaves in the journal: the rows, the block cache, the exchangeInfo snapshots. */
function contents(journal: string) {
  const j = openJournal(journal, { readonly: true });
  try {
    return {
      klines: j.db.prepare('SELECT * FROM klines ORDER BY symbol, interval, open_time').raw(true).all(),
      blocks: j.db.prepare('SELECT symbol, interval, start, stop, count, data FROM kline_blocks ORDER BY symbol, interval, start').raw(true).all(),
      exchangeInfo: j.db.prepare('SELECT * FROM exchange_info').raw(true).all(),
    };
  } finally {
    j.close();
  }
}

describe('halyard import streams the file in batches', () => {
  it('writes exactly what one batch of the whole file writes: rows, block cache and summary, into an empty journal and over stored bars (--replace)', async () => {
    const base = join(dir, 'XRPUSDT-1h.csv');
    const text = csv(0, 3000);
    writeFileSync(base, text);
    // Bars 1000..3999 with every column: 1998 complete the stored ones but two that differ, 999 are new.
    const over = join(dir, 'XRPUSDT-1h-full.csv');
    writeFileSync(over, csv(1000, 4000, { full: true, over: { 1001: row(1001, { full: true, high: '999' }), 2999: row(2999, { full: true, high: '999' }) } }));

    const results = [];
    for (const batchSize of [Infinity, 333]) {
      const journal = join(dir, `j-${batchSize}.db`);
      const first = io();
      const summary = await runImport(first.cli, { file: base, journal }, { batchSize });
      expect(summary).toMatchObject({ rows: 3000 - 3 + 4, barCount: 3000 - 3, duplicates: 4, identicalDuplicates: 4, gapCount: 3, missing: 3 });
      const refused = await runImport(io().cli, { file: over, journal }, { batchSize }).catch((e: unknown) => e);
      expect(String(refused)).toMatch(/2 XRPUSDT 1h bar\(s\) differ .*nothing was imported/);
      const before = contents(journal);
      const second = io();
      await runImport(second.cli, { file: over, journal, replace: true }, { batchSize });
      results.push({ first: first.out.join('\n').replaceAll(journal, 'J'), second: second.out.join('\n').replaceAll(journal, 'J'), before, after: contents(journal) });
    }
    const [whole, ...batched] = results;
    expect(whole!.second).toMatch(/stored +1998 already stored: 1996 completed with the file's extra columns, 2 replaced by the file's \(--replace\); 999 new/);
    for (const r of batched) expect(r).toEqual(whole);
    // The rows are the file's bars, exact text, kept-last: what the whole-text parser reads.
    const parsed = parseKlineCsv(text, { fileName: base }).bars;
    expect(whole!.before.klines.map((r) => (r as unknown[]).slice(2, 9))).toEqual(parsed.map((b) => [b.openTime, b.open, b.high, b.low, b.close, b.volume, b.closeTime]));
    expect(whole!.before.blocks.length).toBe(Math.floor(parsed.length / 1024));
  }, 60_000);

  it('a bad row near the end rolls back every batch written before it; into a new journal it leaves no file', async () => {
    const journal = join(dir, 'j.db');
    const base = join(dir, 'XRPUSDT-1h.csv');
    writeFileSync(base, csv(0, 2000));
    expect((await run(['import', base, '--journal', journal])).code).toBe(0);
    const before = contents(journal);
    expect(before.blocks.length).toBe(1);
    const rules = join(dir, 'rules.json');
    writeFileSync(rules, JSON.stringify({ symbol: 'XRPUSDT', status: 'TRADING', baseAsset: 'XRP', baseAssetPrecision: 8, quoteAsset: 'USDT', quoteAssetPrecision: 8, filters: [] }));

    // More than two batches of the command's own size: bars 1000..9999 (999 stored, the rest new), line 8990 bad.
    const lines = csv(1000, 10_000).split('\n');
    expect(lines.length).toBeGreaterThan(2 * IMPORT_BATCH);
    const fields = lines[8989]!.split(',');
    fields[2] = '1.0';
    lines[8989] = fields.join(',');
    const bad = join(dir, 'XRPUSDT-1h-more.csv');
    writeFileSync(bad, lines.join('\n'));
    const r = await run(['import', bad, '--journal', journal, '--exchange-info', rules]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^error: .*XRPUSDT-1h-more\.csv:8990: high 1\.0 is below open [\d.]+\nnothing was imported$/);
    expect(contents(journal)).toEqual(before);

    // Found at the end of the file, after every batch: a last row off the grid. And a refusal
    // (a stored bar would change) found in the first batch, with new bars written after it.
    const late = join(dir, 'XRPUSDT-1h-late.csv');
    writeFileSync(late, csv(1000, 4000) + `${T + 4000 * H + 1},1,1,1,1,1\n`);
    await expect(runImport(io().cli, { file: late, journal }, { batchSize: 500 })).rejects.toThrow(/XRPUSDT-1h-late\.csv:\d+: open time .* is not on the 1h grid/);
    const changed = join(dir, 'XRPUSDT-1h-changed.csv');
    writeFileSync(changed, csv(1000, 4000, { over: { 1001: row(1001, { high: '999' }) } }));
    await expect(runImport(io().cli, { file: changed, journal, exchangeInfo: rules }, { batchSize: 500 })).rejects.toThrow(/1 XRPUSDT 1h bar\(s\) differ .*\(998 identical, 1998 new\); nothing was imported/);
    expect(contents(journal)).toEqual(before);

    // Into a journal that did not exist: the journal created for the import is removed again.
    const fresh = join(dir, 'fresh.db');
    await expect(runImport(io().cli, { file: late, journal: fresh }, { batchSize: 500 })).rejects.toThrow(/not on the 1h grid/);
    expect(readdirSync(dir).filter((f) => f.startsWith('fresh'))).toEqual([]);
  }, 60_000);

  it('--dry-run on a journal of an older schema leaves the file byte for byte as it was and says a real import would upgrade it', async () => {
    const journal = join(dir, 'old.db');
    const old = openDatabase(journal, { migrations: MIGRATIONS.slice(0, 1) }).db;
    const ins = old.prepare('INSERT INTO klines (symbol, interval, open_time, open, high, low, close, volume, close_time, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const stored = parseKlineCsv(csv(0, 1200), { fileName: 'XRPUSDT-1h.csv' }).bars;
    for (const b of stored) ins.run('XRPUSDT', '1h', b.openTime, b.open, b.high, b.low, b.close, b.volume, b.closeTime, 'old');
    old.close();
    const bytes = readFileSync(journal);
    const mtime = statSync(journal).mtimeMs;

    // Bars 1100..1299: 100 stored, 1 of them different, 100 new.
    const file = join(dir, 'XRPUSDT-1h.csv');
    writeFileSync(file, csv(1100, 1300, { over: { 1150: row(1150, { high: '999' }) } }));
    const dry = await run(['import', file, '--journal', journal, '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.out).toMatch(/^Checked XRPUSDT 1h in .* \(dry run, nothing written\)\n/);
    expect(dry.out).toMatch(/\n {2}stored +100 already stored: 99 identical \(left as they are\), 1 different \(refused without --replace\); 100 new\n/);
    expect(dry.out).toContain(`\n  schema      the journal is at schema version 1: a real import would first upgrade it to version ${MIGRATIONS.length} (left as it is now)`);
    expect(dry.err).toMatch(/1 XRPUSDT 1h bar\(s\) differ .*\(99 identical, 100 new\); the import would be refused/);
    const dryReplace = await run(['import', file, '--journal', journal, '--dry-run', '--replace']);
    expect(dryReplace.code).toBe(0);
    expect(dryReplace.out).toMatch(/stored +100 already stored: 99 identical \(left as they are\), 1 would be replaced by the file's \(--replace\); 100 new/);
    expect(readFileSync(journal).equals(bytes)).toBe(true);
    expect(statSync(journal).mtimeMs).toBe(mtime);
    // SQLite's read-only connection may leave its WAL side files, with nothing in them.
    if (existsSync(`${journal}-wal`)) expect(statSync(`${journal}-wal`).size).toBe(0);
    const raw = openDatabase(journal, { readonly: true, olderAsIs: true });
    expect(raw.version).toBe(1);
    raw.db.close();

    // The real import upgrades it, then imports.
    expect((await run(['import', file, '--journal', journal, '--replace'])).code).toBe(0);
    const j = openJournal(journal, { readonly: true });
    expect(j.schemaVersion).toBe(MIGRATIONS.length);
    expect(j.klines.klineRange('XRPUSDT', '1h')?.count).toBe(stored.length + 100);
    expect(j.klines.klines('XRPUSDT', '1h', T + 1150 * H, T + 1151 * H)[0]).toMatchObject({ high: '999' });
    j.close();
  });
});
