/**
 * The bin when its reader stops early (`halyard backtest ... | head -1`): the output ends quietly
 * (no EPIPE stack trace), and the exit code does not claim a success the command never reached.
 * Run as a user runs it (the bin, in a child process: src/main.ts is the process's entry).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSeries } from '../src/core/synthetic/index.ts';
import { openJournal } from '../src/journal/journal.ts';

const BIN = fileURLToPath(new URL('../bin/halyard.mjs', import.meta.url));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'halyard-pipe-'));
  const j = openJournal(path.join(dir, 'j.db'));
  const series = generateSeries({ seed: 4, startTime: Date.UTC(2024, 0, 1), segments: [{ regime: 'slowUp', bars: 600 }] });
  j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
  j.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a reader that closes the pipe after the first line ends the command quietly, with 141 (SIGPIPE) rather than 0', async () => {
  const args = ['backtest', '--journal', path.join(dir, 'j.db'), '--symbol', 'BTCPHP', '--interval', '1m', '--strategy', 'sma-crossover,rsi-exits,dca', '--out-dir', path.join(dir, 'out')];
  const { NO_COLOR: _no, FORCE_COLOR: _force, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // As `head -1`: the first chunk read, the pipe closed.
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  expect(err).toBe('');
  // Cut short in the first run: the comparison's files were never written, so no success.
  expect(readdirSync(path.join(dir, 'out')).filter((f) => f.startsWith('compare-'))).toEqual([]);
  expect(code).toBe(141);
}, 60_000);
