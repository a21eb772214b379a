import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../journal/journal.ts';
import type { KlineInput } from '../../../journal/klines/kline-store.ts';
import { runCommand } from '../../test-support.ts';
import { dataCommand } from './data.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-data-cmd-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[]) => runCommand(dataCommand, argv);
const T = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;

/** Hourly bars of `symbol` at the given hour offsets from T. */
function bars(symbol: string, interval: string, step: number, hours: readonly number[]): KlineInput[] {
  return hours.map((h) => ({ symbol, interval, openTime: T + h * step, closeTime: T + (h + 1) * step - 1, open: '1', high: '2', low: '0.5', close: '1.5', volume: '10', source: 'test' }));
}

function journalWith(rows: KlineInput[], snapshotAt?: number): string {
  const file = join(dir, 'j.db');
  const j = openJournal(file);
  j.klines.insertKlines(rows);
  if (snapshotAt !== undefined) j.exchangeInfo.save(snapshotAt, { symbols: [] });
  j.close();
  return file;
}

describe('halyard data', () => {
  it('lists every series with its bars, range and missing bars, and the exchangeInfo snapshots', async () => {
    const hours = [0, 1, 2, 5, 6, 9];
    const file = journalWith([...bars('ETHUSDT', '1h', HOUR, hours), ...bars('BTCUSDT', '1d', 24 * HOUR, [0, 1, 2])], T);
    const r = await run(['data', '--journal', file]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(`Journal ${file}`);
    expect(lines[1]).toMatch(/symbol +interval +bars +first \(open, UTC\) +last \(open, UTC\) +missing/);
    expect(lines.find((l) => l.includes('ETHUSDT'))).toMatch(/ETHUSDT +1h +6 +2024-01-01T00:00Z +2024-01-01T09:00Z +4$/);
    expect(lines.find((l) => l.includes('BTCUSDT'))).toMatch(/BTCUSDT +1d +3 +2024-01-01T00:00Z +2024-01-03T00:00Z +0$/);
    expect(r.out).toMatch(/rules: 1 exchangeInfo snapshot, the latest in force from 2024-01-01T00:00Z/);
    expect(r.out).not.toMatch(/gap/);
  });

  it('--gaps says where the bars are missing; --symbol and --interval pick the series', async () => {
    const file = journalWith([...bars('ETHUSDT', '1h', HOUR, [0, 1, 2, 5, 6, 9]), ...bars('BTCUSDT', '1h', HOUR, [0, 1])]);
    const r = await run(['data', '--journal', file, '--gaps', '--symbol', 'ETHUSDT', '--interval', '1h']);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/BTCUSDT/);
    expect(r.out).toMatch(/ETHUSDT 1h: 2 gaps \(4 bars missing\)\n {4}2024-01-01T03:00Z \.\. 2024-01-01T04:00Z \(2\)\n {4}2024-01-01T07:00Z \.\. 2024-01-01T08:00Z \(2\)/);
    expect(r.out).toMatch(/rules: no exchangeInfo snapshot/);
    const all = await run(['data', '--journal', file, '--gaps']);
    expect(all.out).toMatch(/BTCUSDT 1h: no gaps/);
    // A lower-case symbol is the symbol, as import, record and backtest read it.
    const lower = await run(['data', '--journal', file, '--symbol', 'ethusdt']);
    expect(lower.code).toBe(0);
    expect(lower.out).toMatch(/ETHUSDT +1h +6 /);
  });

  it('--gaps tells a gap record found empty at the exchange (no trades) from data missing', async () => {
    const file = journalWith(bars('ETHUSDT', '1h', HOUR, [0, 1, 2, 5, 6, 9]));
    const j = openJournal(file);
    // record asked for 00:00-07:00 and the exchange had nothing at 03:00-04:00; 07:00-08:00 was never asked.
    j.klineChecked.add('ETHUSDT', '1h', T, T + 7 * HOUR);
    j.close();
    const r = await run(['data', '--journal', file, '--gaps']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ETHUSDT 1h: 2 gaps \(4 bars missing; 1 with no trades at the exchange \(2 bars: record asked and got none\)\)\n {4}2024-01-01T03:00Z \.\. 2024-01-01T04:00Z \(2, no trades\)\n {4}2024-01-01T07:00Z \.\. 2024-01-01T08:00Z \(2\)\n/);
    const json = await run(['data', '--journal', file, '--gaps', '--json']);
    expect((JSON.parse(json.out) as { series: { gaps: { noTrades: boolean }[] }[] }).series[0]!.gaps.map((g) => g.noTrades)).toEqual([true, false]);
  });

  it('--json prints the report with epoch-ms times and the gaps', async () => {
    const file = journalWith(bars('ETHUSDT', '1h', HOUR, [0, 2]));
    const r = await run(['data', '--journal', file, '--json', '--gaps']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      journal: file,
      series: [{ symbol: 'ETHUSDT', interval: '1h', bars: 2, first: T, last: T + 2 * HOUR, missing: 1, gaps: [{ from: T + HOUR, to: T + HOUR, missing: 1, noTrades: false }] }],
      exchangeInfoSnapshots: [],
    });
  });

  it('an empty journal says so and how to fill it', async () => {
    const file = journalWith([]);
    const r = await run(['data', '--journal', file]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/holds no klines: import some with `halyard import FILE.csv` or `halyard record`/);
  });

  it('bad input exits 2 with the reason: no journal, not a journal, a symbol it does not hold', async () => {
    const missing = await run(['data', '--journal', join(dir, 'none.db')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no journal at .*none\.db: fill it with `halyard import FILE\.csv` or `halyard record`/);

    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database at all');
    const notJournal = await run(['data', '--journal', text]);
    expect(notJournal.code).toBe(2);
    expect(notJournal.err).toMatch(/notes\.txt: not a SQLite database/);

    const file = journalWith(bars('ETHUSDT', '1h', HOUR, [0, 1]));
    const other = await run(['data', '--journal', file, '--symbol', 'XRPUSDT']);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/holds no klines for XRPUSDT: it holds ETHUSDT 1h/);
  });

  it('a journal path that is a directory is a usage error naming where the path came from', async () => {
    const r = await run(['data', '--journal', dir]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`error: --journal ${dir} is a directory: name the journal file (e.g. ${join(dir, 'halyard.db')})`);
  });
});

