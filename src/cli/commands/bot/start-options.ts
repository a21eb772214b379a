/**
 * `halyard start`'s options (issue 21 deliverable 5), read from their text as typed and refused
 * naming the flag, before anything starts: the sandbox clock's speed, how long to run, how much
 * market history the sandbox starts with, the bot config and the journal. Pure, so the CLI test
 * checks every refusal without starting a sandbox.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_HISTORY_BARS } from '../../../sandbox/agents/config.ts';
import { UsageError } from '../../errors.ts';
import { intOption, numberOption } from '../../options.ts';

/** The example bot config of this installation (the SMA crossover and the market maker on two symbols). */
export const EXAMPLE_BOT_CONFIG = fileURLToPath(new URL('../../../../config/bot.example.json', import.meta.url));
/** Replaced at every start: it records a sandbox session, and the next start's sandbox is a new one. */
export const DEFAULT_START_JOURNAL = path.join('data', 'halyard-start.db');
/**
 * 12 hours of 1-minute bars: every example strategy's warm-up (the SMA crossover's slow + 1) is in
 * it many times over, and a 1h strategy gets its first 12 bars.
 */
export const DEFAULT_HISTORY_BARS = 720;
export const MAX_SPEED = 1000;

export interface StartArgsInput {
  speed?: string | number | undefined;
  duration?: string | number | undefined;
  history?: string | number | undefined;
  bot?: string | undefined;
  journal?: string | undefined;
}

export interface StartOptions {
  /** Sandbox clock speed: 1 real time, 60 a market minute per second. */
  readonly speed: number;
  /** Wall ms to run; undefined: until Ctrl-C. */
  readonly durationMs: number | undefined;
  readonly historyBars: number;
  readonly botConfigFile: string;
  readonly journal: string;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseStartOptions(a: StartArgsInput): StartOptions {
  const speed = numberOption('--speed', a.speed, `a clock speed from 1 (real time) to ${MAX_SPEED}`, (n) => n >= 1 && n <= MAX_SPEED) ?? 1;
  const historyBars = intOption('--history', a.history, 0, `a whole number of bars from 0 to ${MAX_HISTORY_BARS}`) ?? DEFAULT_HISTORY_BARS;
  if (historyBars > MAX_HISTORY_BARS) throw new UsageError(`--history: expected a whole number of bars from 0 to ${MAX_HISTORY_BARS}, got '${String(a.history)}'`);
  const journal = a.journal ?? DEFAULT_START_JOURNAL;
  if (journal.trim() === '') throw new UsageError('--journal: expected a file name, got an empty text');
  const bot = a.bot ?? EXAMPLE_BOT_CONFIG;
  if (bot.trim() === '') throw new UsageError('--bot: expected a bot config file (JSON), got an empty text');
  return { speed, durationMs: parseDuration(a.duration), historyBars, botConfigFile: bot, journal };
}

/** `90`, `90s`, `1.5m`, `2h`, `500ms`: a positive wall time; undefined when not given. */
export function parseDuration(text: string | number | undefined): number | undefined {
  if (text === undefined) return undefined;
  const typed = String(text).trim();
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(typed);
  const ms = m ? Number(m[1]) * (UNIT_MS[m[2] ?? 's'] as number) : Number.NaN;
  if (!(ms >= 1) || !Number.isFinite(ms) || ms > 30 * 86_400_000) {
    throw new UsageError(`--duration: expected a time such as 90s, 10m or 2h (a bare number is seconds; at most 30 days), got '${String(text)}'`);
  }
  return Math.round(ms);
}
