/**
 * `npm start` (`halyard start`) is the bot, live on the embedded sandbox (issue 21 deliverable 5 and
 * its first acceptance item), its stdout not a terminal (pino JSON lines: status and log). Checked:
 * the user stream LIVE, bars arriving, at least one order placed and filled within the first
 * minute, exit 0 with the summary and the backtest commands, the live bars in the journal (the
 * `--duration` run, in-process through runCli: a child's start-up costs 10-15 s on a loaded
 * machine); and a real SIGINT (Ctrl-C) to the command as a child process, as a user runs it,
 * mid-run: it stops cleanly with exit 0 and the summary. The market runs at --speed 20 (a market
 * minute in 3 s) so each run takes seconds; the two run side by side.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.ts';
import { openJournal } from '../src/journal/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'halyard.mjs');

interface StatusLine {
  msg: string;
  time: number;
  userStream: { state: string } | null;
  counts: { orders: number; fills: number; bars: number | null };
}

interface Child {
  readonly lines: string[];
  readonly started: number;
  /** Resolves with the exit code. */
  readonly exit: Promise<number | null>;
  /** Resolves once a line satisfies `test`. */
  waitFor(test: (line: string) => boolean): Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

/** A folder with the example bot config, its status every second so a short run shows several; the command's arguments. */
function setUp(args: readonly string[]): { dir: string; argv: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-start-live-'));
  const example = JSON.parse(readFileSync(join(ROOT, 'config', 'bot.example.json'), 'utf8')) as Record<string, unknown>;
  const bot = join(dir, 'bot.json');
  writeFileSync(bot, JSON.stringify({ ...example, status: { everyMs: 1000 } }));
  return { dir, argv: ['start', '--speed', '20', '--bot', bot, '--journal', join(dir, 'start.db'), ...args] };
}

function start(args: string[]): Child {
  const { dir, argv } = setUp(args);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('HALYARD_')));
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: dir, env: { ...env, NO_COLOR: '1' } });
  const lines: string[] = [];
  const waiters: { test: (l: string) => boolean; resolve: () => void }[] = [];
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const l of parts) {
      lines.push(l);
      for (const w of waiters.filter((x) => x.test(l))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  const errors: string[] = [];
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => errors.push(c));
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (rest) lines.push(rest);
      if (errors.length > 0) lines.push(`[stderr] ${errors.join('')}`);
      resolve(code);
    }),
  );
  return {
    lines,
    started: Date.now(),
    exit,
    waitFor: (test) => (lines.some(test) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve }))),
    kill: (signal) => child.kill(signal),
  };
}

function statuses(lines: readonly string[]): StatusLine[] {
  return lines.filter((l) => l.startsWith('{') && l.includes('"msg":"status"')).map((l) => JSON.parse(l) as StatusLine);
}

const filled = (l: string) => l.includes('"msg":"status"') && (JSON.parse(l) as StatusLine).counts.fills > 0;

describe.concurrent('halyard start: the bot live on the embedded sandbox', () => {
  it('--duration: stream LIVE, bars arriving, an order placed and filled within the first minute, exit 0 with the summary', { timeout: 60_000 }, async () => {
    const { argv } = setUp(['--duration', '10s']);
    const lines: string[] = [];
    const started = Date.now();
    const code = await runCli(argv, { env: {}, tty: { out: false, err: false }, out: (t) => lines.push(...t.split('\n')), err: (t) => lines.push(`[stderr] ${t}`) });
    const c = { lines, started };
    const out = c.lines.join('\n');
    expect(code, out).toBe(0);
    const seen = statuses(c.lines);
    expect(seen.length, out).toBeGreaterThanOrEqual(3);
    expect(seen.some((s) => s.userStream?.state === 'LIVE'), out).toBe(true);
    // Bars arrive while it runs (a market minute every 3 s): more at the end than at the first status.
    const bars = seen.map((s) => s.counts.bars ?? 0);
    expect(bars[bars.length - 1]!, out).toBeGreaterThan(bars[0]!);
    const firstFill = seen.find((s) => s.counts.fills > 0);
    expect(firstFill, out).toBeDefined();
    expect(firstFill!.counts.orders).toBeGreaterThan(0);
    expect(firstFill!.time - c.started).toBeLessThan(60_000);
    // The summary: orders, fills, PnL per strategy, the journal, and the backtest commands.
    const summary = /Run (\S+) stopped \(duration 10000 ms\): (\d+) orders, (\d+) fills/.exec(out);
    expect(summary, out).not.toBeNull();
    expect(Number(summary![3])).toBeGreaterThan(0);
    expect(out).toMatch(/ {2}sma-btc \[BTCPHP\]: \d+ orders, \d+ fills.*realised PnL -?[\d.]+/);
    expect(out).toMatch(/ {2}mm-eth \[ETHPHP\]: \d+ orders, \d+ fills.*realised PnL -?[\d.]+/);
    const journal = /^Journal: (.+)$/m.exec(out)![1]!;
    expect(out).toContain('Backtest the same strategies on the bars this run recorded:');
    expect(out).toMatch(new RegExp(`npx halyard backtest --strategy sma-crossover --symbol BTCPHP --interval 1m --journal ${journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --from \\S+ --to \\S+ --param fast=3 --param slow=8`));
    // The live bars are in the journal (with the warm-up read through REST before them).
    const j = openJournal(journal, { readonly: true });
    try {
      expect(j.klines.klineRange('BTCPHP', '1m')?.count ?? 0).toBeGreaterThan(8);
      expect(j.klines.klineRange('ETHPHP', '1m')?.count ?? 0).toBeGreaterThan(1);
    } finally {
      j.close();
    }
  });

  it('Ctrl-C (SIGINT) mid-run stops it cleanly: exit 0 and the summary', { timeout: 60_000 }, async () => {
    const c = start([]);
    await Promise.race([c.waitFor(filled), c.exit]);
    c.kill('SIGINT');
    const code = await c.exit;
    const out = c.lines.join('\n');
    expect(code, out).toBe(0);
    expect(out).toMatch(/Run \S+ signal \(SIGINT\): \d+ orders, [1-9]\d* fills/);
    expect(out).toMatch(/^Journal: .+start\.db$/m);
    expect(out).toContain('npx halyard backtest --strategy market-maker --symbol ETHPHP');
  });
});
