/**
 * `halyard import` as a process (bin/halyard.mjs), on the inputs that once ran away (issue 24,
 * defect 7): a file of one 100 MiB line (plain and gzip'd) fails within seconds with a short
 * message naming the line, where it took minutes and gigabytes; and SIGINT or SIGTERM during the
 * import of a large file (plain, .csv.gz, .zip) ends the process within a second, exit 130 or 143,
 * with nothing stored, where the signal was ignored until the whole file was read.
 *
 * The files are generated here. An import has begun once its process has opened the journal
 * (made beforehand, holding other bars, and closed: its `-wal` file appears when a process opens
 * it); the signal is sent shortly after, while the bars are being read and written.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../src/cli/commands/data/import.ts';
import { zipFixture } from '../src/data/kline-files/zip-test-support.ts';
import { openJournal } from '../src/journal/journal.ts';

const BIN = fileURLToPath(new URL('../bin/halyard.mjs', import.meta.url));
/** From the signal to the process's exit: the acceptance bound. */
const STOP_MS = 1000;
/** A 100 MiB line refused, the process's start (tsx compiling the CLI) included: "within a few seconds". */
const LONG_LINE_MS = 10_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-import-signals-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  err: string;
  /** ms from the start, or from the signal when one was sent, to the exit. */
  ms: number;
}

/** Runs `halyard import ...args`; `signalWhen` returns the signal to send once it is time (polled every 20 ms). */
function halyardImport(args: string[], signalWhen?: () => NodeJS.Signals | undefined): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'import', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    let from = performance.now();
    const poll = signalWhen
      ? setInterval(() => {
          const signal = signalWhen();
          if (signal === undefined) return;
          clearInterval(poll);
          from = performance.now();
          child.kill(signal);
        }, 20)
      : undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`halyard import ${args.join(' ')} still running after 60 s\n${err.slice(0, 2000)}`));
    }, 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, signal, err, ms: performance.now() - from });
    });
  });
}

describe('halyard import of a file with one 100 MiB line', () => {
  const reason = 'longer than 4096 bytes; a kline row is about 50 to 200 (open_time,open,high,low,close,volume,...): is this a kline CSV, one row a line?';
  beforeAll(() => {
    const line = Buffer.alloc(100 << 20, 0x31);
    writeFileSync(join(dir, 'BTCUSDT-1m.csv'), line);
    writeFileSync(join(dir, 'BTCUSDT-1m.csv.gz'), gzipSync(line, { level: 1 }));
  });

  for (const name of ['BTCUSDT-1m.csv', 'BTCUSDT-1m.csv.gz']) {
    it(`${name}: fails within seconds, exit 2, naming line 1 in a short message; no journal made`, async () => {
      const file = join(dir, name);
      const journal = join(dir, `long-${name}.db`);
      const r = await halyardImport([file, '--journal', journal]);
      expect(r.err).toBe(`error: ${file}:1: ${reason}\nnothing was imported\n`);
      expect(r.code).toBe(2);
      expect(r.ms).toBeLessThan(LONG_LINE_MS);
      expect(existsSync(journal)).toBe(false);
    }, 60_000);
  }
});

describe('halyard import stopped by a signal', () => {
  const NAME = 'BTCUSDT-1m-2024-03';
  const files: Record<string, string> = {};
  beforeAll(() => {
    // 400,000 12-column bars (38 MB): an import of many seconds.
    const lines: string[] = [];
    const T = Date.UTC(2023, 0, 1);
    for (let i = 0; i < 400_000; i++) {
      const p = 20000 + (i % 997);
      lines.push(`${T + i * 60_000},${p}.5,${p + 2}.25,${p - 1}.0,${p + 1}.75,${i % 13}.5,${T + i * 60_000 + 59_999},1234.5,${i % 50},6.1,610.5,0\n`);
    }
    const text = Buffer.from(lines.join(''));
    files['plain'] = join(dir, `${NAME}.csv`);
    writeFileSync(files['plain'], text);
    files['gz'] = join(dir, `${NAME}.csv.gz`);
    writeFileSync(files['gz'], gzipSync(text, { level: 1 }));
    files['zip'] = join(dir, `${NAME}.zip`);
    writeFileSync(files['zip'], zipFixture([{ name: `${NAME}.csv`, data: text }]));
  }, 60_000);

  for (const kind of ['plain', 'gz', 'zip']) {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      it(`${kind}, ${signal}: exits ${code} within ${STOP_MS} ms of the signal, the journal as it was`, async () => {
        const journal = join(dir, `${kind}-${signal}.db`);
        const eth = join(dir, 'ETHUSDT-1m.csv');
        writeFileSync(eth, `${Date.UTC(2023, 0, 1)},1.5,2,1,1.5,10\n`);
        await runImport({ env: {}, out: () => {}, err: () => {} }, { file: eth, journal });
        expect(existsSync(`${journal}-wal`)).toBe(false);

        let openedAt: number | undefined;
        const r = await halyardImport([files[kind]!, '--journal', journal], () => {
          if (openedAt === undefined && existsSync(`${journal}-wal`)) openedAt = performance.now();
          return openedAt !== undefined && performance.now() - openedAt >= 300 ? signal : undefined;
        });
        const named = kind === 'zip' ? `${files[kind]} (${NAME}.csv)` : files[kind];
        expect(r.err).toBe(`error: ${named}: stopped by ${signal}; nothing was imported\n`);
        expect(r.code).toBe(code);
        expect(r.ms).toBeLessThan(STOP_MS);
        const j = openJournal(journal, { readonly: true });
        try {
          expect(j.db.prepare('SELECT symbol, count(*) AS n FROM klines GROUP BY symbol').all()).toEqual([{ symbol: 'ETHUSDT', n: 1 }]);
        } finally {
          j.close();
        }
      }, 60_000);
    }
  }
});
