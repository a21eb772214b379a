/**
 * The bot as a child process for a `--kill` run: `halyard run --config <file>` through the bin a
 * user runs (bin/halyard.mjs: dist/ when it is up to date, else the sources through tsx), its log (pino JSON lines on stderr) kept, so the
 * parent can wait for what it says and read the fills its strategies were told of. A SIGKILL is
 * the child's own (HALYARD_KILL_AT, live/kill-points.ts) or the parent's when the point was never
 * reached.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KILL_ENV } from '../../live/kill-points.ts';

const BIN = fileURLToPath(new URL('../../../bin/halyard.mjs', import.meta.url));

export interface BotExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface BotProcess {
  readonly proc: ChildProcess;
  readonly exit: Promise<BotExit>;
  /** stderr so far (the pino log lines). */
  err(): string;
  out(): string;
  /** True once the process has exited. */
  exited(): boolean;
  /** Resolves when `pred(stderr)` holds; rejects when the process exits first or after `wallMs`. */
  until(pred: (err: string) => boolean, wallMs: number, what: string): Promise<void>;
}

export interface SpawnBotOptions {
  readonly configFile: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** `<point>:<n>`: the child kills itself there. */
  readonly killAt?: string;
}

export function spawnBot(o: SpawnBotOptions): BotProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', HALYARD_API_KEY: o.apiKey, HALYARD_API_SECRET: o.apiSecret };
  delete env[KILL_ENV];
  delete env['HALYARD_LOG_LEVEL'];
  if (o.killAt !== undefined) env[KILL_ENV] = o.killAt;
  const proc = spawn(process.execPath, [BIN, 'run', '--config', o.configFile], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  let done = false;
  const exit = new Promise<BotExit>((resolve) =>
    proc.on('close', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  return {
    proc,
    exit,
    err: () => err,
    out: () => out,
    exited: () => done,
    async until(pred, wallMs, what) {
      const end = Date.now() + wallMs;
      while (!pred(err)) {
        if (done) throw new Error(`${what}: the bot exited first (${describeExit(await exit)}); stderr tail:\n${err.slice(-2000)}`);
        if (Date.now() > end) throw new Error(`${what}: not seen within ${wallMs} ms; stderr tail:\n${err.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

export function describeExit(e: BotExit): string {
  return e.signal !== null ? `signal ${e.signal}` : `exit code ${e.code}`;
}
