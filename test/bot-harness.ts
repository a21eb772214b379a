/**
 * What the bot's end-to-end tests share: a sandbox on 127.0.0.1 (ephemeral port, a VirtualClock),
 * the bot started against it in-process (startBot, the composition `halyard run` uses) with its
 * timers on an RxJS VirtualTimeScheduler, a journal in a temporary folder, its log lines captured,
 * and the fixture strategies of this folder found by name.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBot, type Bot, type BotOptions } from '../src/bot/run-bot.ts';
import type { BotConfigInput } from '../src/bot/config.ts';
import { VirtualTime } from '../src/exchange/ws/testing/virtual-time.ts';
import { QUIET_TIMINGS } from '../src/live/venue/testing/live-harness.ts';
import { createLogger } from '../src/log/logger.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';

export const T0 = Date.parse('2024-03-13T10:00:00Z');
export const FIXTURES = fileURLToPath(new URL('./bot-fixtures/', import.meta.url));

export type Defer = (close: () => Promise<void> | void) => void;

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export async function testSandbox(defer: Defer): Promise<SandboxHandle> {
  const s = await startSandbox({ clock: new VirtualClock(T0), config: { admin: { enabled: true } } });
  defer(() => s.close());
  return s;
}

export function tempDir(defer: Defer): string {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-bot-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface TestBot {
  readonly bot: Bot;
  readonly vt: VirtualTime;
  readonly lines: LogLine[];
}

/** The bot on `s`, journal `journal`; stopped after the test if the test did not stop it. */
export async function testBot(defer: Defer, s: SandboxHandle, journal: string, config: Partial<BotConfigInput> & Pick<BotConfigInput, 'strategies'>, options: Partial<BotOptions> = {}): Promise<TestBot> {
  const vt = new VirtualTime(T0);
  const lines: LogLine[] = [];
  const logger = createLogger({ level: 'debug' }, { write: (l: string) => void lines.push(JSON.parse(l) as LogLine) });
  const bot = await startBot({
    config: { venue: 'sandbox', journal, stream: { ...QUIET_TIMINGS }, exchange: { retry: { maxAttempts: 1 } }, ...config },
    sandbox: s,
    scheduler: vt.scheduler,
    clock: vt,
    logger,
    env: {},
    strategiesDir: FIXTURES,
    ...options,
  });
  defer(async () => void (await bot.stop()));
  return { bot, vt, lines };
}

/** Polls `pred` between event-loop turns (real I/O), up to `wallMs`. */
export async function waitFor(pred: () => boolean, wallMs = 5000, what = 'condition'): Promise<void> {
  const end = performance.now() + wallMs;
  while (!pred()) {
    if (performance.now() > end) throw new Error(`waitFor: ${what} not met within ${wallMs} ms`);
    await new Promise<void>((resolve) => setTimeout(resolve, 3));
  }
}
