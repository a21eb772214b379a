/**
 * `halyard import` stopped by SIGINT/SIGTERM (io.signal, aborted by main.ts): the read notices it
 * at its next pause (data/read-steps.ts) and the transaction is rolled back, whatever the file's
 * kind and at whatever stage (the first pass for the interval, the import, a dry run). The abort
 * is posted with setImmediate before the import starts, so it lands at the read's first turn of
 * the event loop: deterministic, and a file read to its end without a pause would import instead.
 * The real process and its exit code: test/import-signals.test.ts.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { zipFixture } from '../../../data/kline-files/zip-test-support.ts';
import { openJournal } from '../../../journal/journal.ts';
import type { CliIo } from '../../io.ts';
import { ImportStopped, importCommand, runImport } from './import.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-import-stop-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const M = 60_000;
const T = Date.UTC(2024, 2, 1);
/** `n` 12-column 1-minute bars: many pauses' worth (64 KB each) and several batches. */
function csv(n = 20_000): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = 61000 + (i % 113);
    lines.push(`${T + i * M},${p}.5,${p + 2}.25,${p - 1}.0,${p + 1}.75,${i % 13}.5,${T + i * M + M - 1},1234.5,${i % 50},6.1,610.5,0`);
  }
  return lines.join('\n') + '\n';
}

const SIGNALED = (signal: NodeJS.Signals) => Object.assign(new Error(`received ${signal}`), { signal });

/** An io whose signal aborts (as main.ts does on `signal`) at the first turn of the event loop from now. */
function stoppingIo(signal: NodeJS.Signals) {
  const out: string[] = [];
  const err: string[] = [];
  const stop = new AbortController();
  setImmediate(() => stop.abort(SIGNALED(signal)));
  const io: CliIo = { env: {}, out: (t) => out.push(t), err: (t) => err.push(t), signal: stop.signal };
  return { io, out, err };
}

const quiet: CliIo = { env: {}, out: () => {}, err: () => {} };

/** A journal holding 10 ETHUSDT bars (not the file's): what a stopped import must leave as it is. */
async function journalWithOtherBars(): Promise<string> {
  const journal = join(dir, 'j.db');
  const eth = join(dir, 'ETHUSDT-1m.csv');
  writeFileSync(eth, csv(10));
  await runImport(quiet, { file: eth, journal });
  return journal;
}

function bars(journal: string): Record<string, number> {
  const j = openJournal(journal, { readonly: true });
  try {
    const rows = j.db.prepare('SELECT symbol, count(*) AS n FROM klines GROUP BY symbol').all() as { symbol: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.symbol, r.n]));
  } finally {
    j.close();
  }
}

const NAME = 'BTCUSDT-1m-2024-03';
function files(): Record<string, string> {
  const text = csv();
  const plain = join(dir, `${NAME}.csv`);
  writeFileSync(plain, text);
  const gz = join(dir, `${NAME}.csv.gz`);
  writeFileSync(gz, gzipSync(text));
  const zip = join(dir, `${NAME}.zip`);
  writeFileSync(zip, zipFixture([{ name: `${NAME}.csv`, data: text }]));
  return { plain, gz, zip };
}

describe('halyard import stopped by a signal', () => {
  it('plain, .csv.gz, .zip: stops at the next pause, rolled back (the journal as it was), then imports whole when run again', async () => {
    const journal = await journalWithOtherBars();
    for (const [kind, file] of Object.entries(files())) {
      const { io } = stoppingIo('SIGINT');
      const stopped = await runImport(io, { file, journal }).catch((e: unknown) => e);
      expect(stopped, kind).toBeInstanceOf(ImportStopped);
      const named = kind === 'zip' ? `${file} (${NAME}.csv)` : file;
      expect((stopped as ImportStopped).message).toBe(`${named}: stopped by SIGINT; nothing was imported`);
      expect((stopped as ImportStopped).exitCode).toBe(130);
      expect(bars(journal), kind).toEqual({ ETHUSDT: 10 });
    }
    // Nothing held on: the lock is free and the same file imports.
    await runImport(quiet, { file: files().plain, journal });
    expect(bars(journal)).toEqual({ ETHUSDT: 10, BTCUSDT: 20_000 });
  });

  it('into a new journal: no file left; in the first pass (interval from the spacing) and in a dry run: stopped too', async () => {
    const { plain } = files();
    const fresh = join(dir, 'sub', 'new.db');
    expect(await runImport(stoppingIo('SIGTERM').io, { file: plain, journal: fresh }).catch((e: unknown) => e)).toMatchObject({ signal: 'SIGTERM', exitCode: 143 });
    expect(existsSync(fresh)).toBe(false);

    const unnamed = join(dir, 'bars.csv');
    writeFileSync(unnamed, csv());
    const journal = await journalWithOtherBars();
    expect(await runImport(stoppingIo('SIGINT').io, { file: unnamed, symbol: 'BTCUSDT', journal }).catch((e: unknown) => e)).toBeInstanceOf(ImportStopped);
    const dry = stoppingIo('SIGINT');
    expect(await runImport(dry.io, { file: plain, journal, dryRun: true }).catch((e: unknown) => e)).toBeInstanceOf(ImportStopped);
    expect(dry.out).toEqual([]);
    expect(bars(journal)).toEqual({ ETHUSDT: 10 });
  });

  it('the command prints why and exits 128 + the signal: 130 for SIGINT, 143 for SIGTERM', async () => {
    const { gz } = files();
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const { io, err, out } = stoppingIo(signal);
      let exit: number | undefined;
      const command = importCommand(io, (c) => (exit = c));
      await command.handler({ file: gz, journal: join(dir, 'cmd.db'), _: [], $0: 'halyard' } as Parameters<typeof command.handler>[0]);
      expect(exit).toBe(code);
      expect(err).toEqual([`error: ${gz}: stopped by ${signal}; nothing was imported`]);
      expect(out).toEqual([]);
      expect(existsSync(join(dir, 'cmd.db'))).toBe(false);
    }
  });
});
