/**
 * `halyard run` as a process (bin/halyard.mjs, the embedded sandbox started in the child): SIGINT
 * stops it cleanly with exit 0 and the summary (issue 21 deliverable 3: "It runs until SIGINT or
 * SIGTERM ... exit 0; a second signal exits at once"). Two signals in a row: it ends at once,
 * 128 + SIGINT, without waiting for the clean stop.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../src/journal/journal.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { FIXTURES, tempDir } from './bot-harness.ts';

const defer = closeAfterEach();
const BIN = fileURLToPath(new URL('../bin/halyard.mjs', import.meta.url));

interface Child {
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly out: () => string;
  readonly err: () => string;
  kill(signal: NodeJS.Signals): void;
  until(pred: (err: string) => boolean, wallMs: number, what: string): Promise<void>;
}

function halyardRun(dir: string, journal: string): Child {
  const file = join(dir, 'bot.json');
  writeFileSync(file, JSON.stringify({ strategies: [{ strategy: join(FIXTURES, 'timed-orders.ts') }], venue: 'sandbox', journal, onStop: 'cancel', status: { everyMs: 200 } }));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  delete env['HALYARD_API_KEY'];
  delete env['HALYARD_API_SECRET'];
  const proc = spawn(process.execPath, [BIN, 'run', '--config', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  defer(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exit;
  });
  return {
    exit,
    out: () => out,
    err: () => err,
    kill: (signal) => void proc.kill(signal),
    async until(pred, wallMs, what) {
      const end = Date.now() + wallMs;
      while (!pred(err)) {
        if (Date.now() > end || proc.exitCode !== null) throw new Error(`${what} not seen within ${wallMs} ms; stderr:\n${err}\nstdout:\n${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

describe('halyard run: signals', () => {
  it('SIGINT: a clean stop (orders cancelled, run ended `signal`), the summary, exit 0', async () => {
    const dir = tempDir(defer);
    const journal = join(dir, 'bot.db');
    const child = halyardRun(dir, journal);
    await child.until((e) => e.includes('the user stream is LIVE'), 60_000, 'the bot trading');
    await child.until((e) => /"msg":"status"/.test(e), 10_000, 'a status line');
    child.kill('SIGINT');
    const { code } = await child.exit;
    expect(code, child.err()).toBe(0);
    expect(child.out()).toMatch(/^Run bot-\S+ signal \(SIGINT\): 1 orders, 0 fills/m);
    expect(child.out()).toContain(`Journal: ${journal}`);
    const j = openJournal(journal);
    defer(() => j.close());
    const runs = j.liveRuns.list();
    expect(runs.map((r) => [r.kind, r.exitReason])).toEqual([['sandbox', 'signal']]);
    // The order it placed was cancelled at the stop (the journal has the venue's answer).
    expect(j.orders.byRun(runs[0]?.id ?? '').map((o) => o.status)).toEqual(['CANCELED']);
    const status = JSON.parse(child.err().split('\n').find((l) => l.includes('"msg":"status"')) ?? '{}') as { strategies?: { name: string; openOrders: number }[] };
    expect(status.strategies?.[0]).toMatchObject({ name: 'timed-orders', openOrders: 1 });
  }, 90_000);

  it('a second SIGINT while stopping ends the process at once (128 + 2), without the summary', async () => {
    const dir = tempDir(defer);
    const child = halyardRun(dir, join(dir, 'bot.db'));
    await child.until((e) => e.includes('the user stream is LIVE'), 60_000, 'the bot trading');
    child.kill('SIGINT');
    await child.until((e) => e.includes('stopping (SIGINT)'), 10_000, 'the stop begun');
    child.kill('SIGINT');
    const { code } = await child.exit;
    expect(code).toBe(130);
    expect(child.out()).not.toMatch(/^Run bot-/m);
  }, 90_000);
});
