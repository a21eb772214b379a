/**
 * The root logger's lines survive the process: a child logs N lines through createLogger (its
 * default destination, as `halyard run` and the bot use it) and dies at once, by SIGKILL or an
 * uncaught error; every line must be on its stderr (a pipe, as under a supervisor or the chaos
 * suite). The control runs the same child on pino's asynchronous destination, which lost all but
 * the first line: the check can fail.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('./logger.ts', import.meta.url));
const N = 300;

interface Ended {
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly lines: { i?: number; msg?: string }[];
}

/** Runs `end` after N log lines in a child process (node + tsx, no waiting); its stderr's JSON lines. */
function child(end: string, destination = ''): Promise<Ended> {
  const code = [
    `const { createLogger } = await import(${JSON.stringify(LOGGER)});`,
    destination,
    `const log = createLogger({ level: 'info' }${destination ? ', dest' : ''});`,
    `for (let i = 0; i < ${N}; i++) log.info({ i, symbol: 'BTCPHP' }, 'bar closed');`,
    end,
  ].join('\n');
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: { ...process.env, NODE_OPTIONS: '', HALYARD_LOG_LEVEL: 'info' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) =>
    proc.on('close', (c, signal) =>
      resolve({ code: c, signal, lines: err.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { i?: number; msg?: string }) }),
    ),
  );
}

const indices = (e: Ended) => e.lines.filter((l) => l.msg === 'bar closed').map((l) => l.i);
const all = Array.from({ length: N }, (_, i) => i);

describe('log lines are durable at a crash', () => {
  it('a SIGKILL right after logging loses none of them, in order; pino\'s asynchronous destination lost them', async () => {
    const [killed, control] = await Promise.all([
      child(`process.kill(process.pid, 'SIGKILL');`),
      child(`process.kill(process.pid, 'SIGKILL');`, `const dest = (await import('pino')).pino.destination(2);`),
    ]);
    expect(killed.signal).toBe('SIGKILL');
    expect(indices(killed)).toEqual(all);
    expect(control.signal).toBe('SIGKILL');
    expect(indices(control).length).toBeLessThan(N);
  });

  it('an uncaught error after logging: every line, then the error, exit code 1', async () => {
    const crashed = await child(`throw new Error('boom');`);
    expect(crashed.code).toBe(1);
    expect(indices(crashed)).toEqual(all);
  });
});
