/**
 * V8's young generation for the long-running bot commands (`halyard run`, `halyard start`), set by
 * tune-jit.ts with the tiering flags, before the rest of the process is evaluated.
 *
 * Why: issue 21's target is the bot's RSS at most 150 MB (3 strategies on 5 symbols for an hour).
 * Measured (`npm run bench -- bot-live`, BENCHMARKS.md "Live bot"): compiled, the bot sits at
 * 142 MB after a GC and peaks at 157 MB; most of what separates it from the target is the young
 * generation's semi-spaces, which V8 grows under the start-up's allocation (up to 16 MB each, 32 MB
 * of new space) and keeps committed for the rest of the run. Capped (`--max-semi-space-size=1`):
 * 121 MB after a GC, 146 MB peak, with no measurable CPU cost per bar. That flag only takes effect
 * on the command line (V8 sizes the heap once, before any script runs; set later it is ignored),
 * but `--semi-space-growth-factor=1` can be set from inside: the new space then never grows past
 * its initial 1 MB semi-spaces (measured: 32 MB of new space -> 2 MB on an allocation loop).
 *
 * Only for the bot: a backtest is a short batch job that allocates per bar and is better served by
 * a large nursery. `HALYARD_BOT_HEAP=0` leaves V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

export const BOT_HEAP_FLAGS: readonly string[] = ['--semi-space-growth-factor=1'];

const BOT_COMMANDS = new Set(['run', 'start']);

/** Whether the argv's first word names a bot command (options written before the command are not looked through: the defaults apply then). */
export function isBotCommand(args: readonly string[]): boolean {
  const first = args[0];
  return first !== undefined && BOT_COMMANDS.has(first);
}

/** The flags for a bot child process's command line (benches): none when turned off. */
export function botHeapExecArgv(env: Readonly<Record<string, string | undefined>>): string[] {
  return env.HALYARD_BOT_HEAP === '0' ? [] : [...BOT_HEAP_FLAGS];
}

/** Sets the flags in this process when it runs a bot command; true when set. */
export function tuneBotHeap(args: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  if (!isBotCommand(args)) return false;
  const flags = botHeapExecArgv(env);
  for (const flag of flags) setFlagsFromString(flag);
  return flags.length > 0;
}
