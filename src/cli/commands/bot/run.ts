/**
 * `halyard run --config bot.json [--duration S]` (issue 21 deliverable 3): the bot process. The
 * config is the bot's own (src/bot/config.ts: strategies, venue, onStop, journal, ...), checked
 * strictly with every problem at once; the API key and secret come from HALYARD_API_KEY and
 * HALYARD_API_SECRET only. It runs until SIGINT or SIGTERM (main.ts aborts `io.signal`; a second
 * signal ends the process at once) or `--duration`, then stops cleanly (open orders cancelled or
 * left per `onStop`, listen key closed, the run ended in the journal) and prints the summary:
 * exit 0. A start that fails exits non-zero naming the problem (2: the config, the environment,
 * a strategy or its params; 1: the venue), with nothing left started.
 *
 * What the operator sees while it runs: on a terminal the status block (src/bot/status/),
 * redrawn every `status.everyMs`, and log lines on stderr; otherwise pino JSON lines for both.
 */
import type { Argv } from 'yargs';
import { runBot } from '../../../bot/run-bot.ts';
import { StatusOutput } from '../../../bot/status/status-output.ts';
import { summaryLines } from '../../../bot/summary.ts';
import { humanLines } from '../../../log/human-lines.ts';
import { createLogger } from '../../../log/logger.ts';
import { loadBotConfig } from '../../../bot/config.ts';
import { UsageError } from '../../errors.ts';
import { isTerminal, type CliIo } from '../../io.ts';
import { numberFlag, numberOption } from '../../options.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';

interface RunArgs extends GlobalArgs {
  duration?: string | number;
}

export function runCommand(io: CliIo) {
  return {
    ...COMMANDS.run,
    builder: (y: Argv<GlobalArgs>) => y.option('duration', numberFlag('stop after this many seconds (default: run until SIGINT/SIGTERM)')),
    handler: (args: RunArgs) => runBotCommand(io, args),
  };
}

export async function runBotCommand(io: CliIo, args: RunArgs): Promise<void> {
  if (typeof args.config !== 'string') throw new UsageError('--config: give the bot config file (JSON: strategies, venue, onStop, journal; see config/bot.example.json)');
  // The venue's URLs are the bot config's `venue`; a global --base-url would be silently ignored.
  if (args.baseUrl !== undefined) throw new UsageError(`--base-url: \`halyard run\` takes the venue from its config file's "venue" ({ "baseUrl": ..., "wsUrl": ... } or "sandbox"), not from --base-url`);
  const seconds = numberOption('--duration', args.duration, 'a number of seconds > 0', (n) => n > 0);
  const config = loadBotConfig(args.config);
  const tty = isTerminal(io, 'out');
  const level = args.logLevel ?? config.log.level;
  const status = new StatusOutput({ tty, write: (t) => io.out(t.endsWith('\n') ? t.slice(0, -1) : t), env: io.env });
  // On a terminal, readable log lines on stderr; a line written there pushes the next block below it.
  const logger = tty
    ? createLogger(
        { level },
        (() => {
          const human = humanLines(process.stderr);
          return {
            write(line: string) {
              human.write(line);
              status.release();
            },
          };
        })(),
      )
    : createLogger({ level });
  const output = tty ? status : new StatusOutput({ tty: false, logger });
  const summary = await runBot({
    config,
    configSource: args.config,
    env: io.env,
    logger,
    ...(io.signal ? { signal: io.signal } : {}),
    ...(seconds !== undefined ? { durationMs: Math.round(seconds * 1000) } : {}),
    onStatus: (s) => output.show(s, Date.now()),
  });
  status.release();
  for (const line of summaryLines(summary)) io.out(line);
}
