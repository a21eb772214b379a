/**
 * `halyard start` (`npm start`), the main job (issue 21 deliverable 5): the bot, live, on the
 * embedded sandbox, over HTTP and WebSocket exactly as against the real venue.
 *
 *   1. the sandbox starts in-process with its seeded synthetic market on every symbol, in real time
 *      (`--speed` to accelerate its clock), with `--history` bars of market behind it, so the
 *      strategies' warm-up comes at once through REST klines (sandbox/agents/history.ts);
 *   2. the bot (src/bot runBot) runs the example config (config/bot.example.json: the SMA crossover
 *      and the market maker on two symbols, each with its capital) against it, its status on the
 *      terminal (a block redrawn in place) or as pino JSON lines on stdout when not a terminal;
 *   3. at Ctrl-C (SIGINT/SIGTERM) or after `--duration` it stops (open orders cancelled, journal
 *      flushed), and the summary is printed: orders, fills and PnL per strategy, the journal, and
 *      the commands that backtest the same strategies on the bars this run recorded.
 *
 * The journal is replaced at every start: it records a session of a sandbox that ends with the run
 * (its orders exist nowhere else), so a next start must not reconcile against it. `halyard run`
 * keeps its journal across restarts; `halyard demo` is the backtest demo `npm start` used to be.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Argv } from 'yargs';
import { loadBotConfig, type BotConfig } from '../../../bot/config.ts';
import { runBot } from '../../../bot/run-bot.ts';
import { StatusOutput } from '../../../bot/status/status-output.ts';
import { summaryLines, type BotSummary } from '../../../bot/summary.ts';
import { loadConfig } from '../../../config/load.ts';
import type { Pool } from '../../../exchange/endpoints/types.ts';
import { DEFAULT_POOLS } from '../../../exchange/rate/pool-config.ts';
import { humanLine } from '../../../log/human-lines.ts';
import { createLogger } from '../../../log/logger.ts';
import { startSandbox } from '../../../sandbox/server.ts';
import { UsageError } from '../../errors.ts';
import { isTerminal, type CliIo } from '../../io.ts';
import { numberFlag } from '../../options.ts';
import { ioStep, isDirectory } from '../../paths.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';
import { DEFAULT_HISTORY_BARS, DEFAULT_START_JOURNAL, parseStartOptions, type StartOptions } from './start-options.ts';
import { backtestCommands } from './start-summary.ts';

/**
 * The sandbox's clocks run `--speed` times faster than the bot's timers (wall time): its listen key
 * lives 60 minutes of sandbox time (notes 4.1), kept alive every half of that, and it closes a
 * socket idle for 5 minutes of sandbox time, pinged every 2.
 */
const KEEPALIVE_SANDBOX_MS = 30 * 60_000;
const PING_SANDBOX_MS = 2 * 60_000;

interface StartArgs extends GlobalArgs {
  speed?: string | number;
  duration?: string | number;
  history?: string | number;
  bot?: string;
  journal?: string;
}

export function startCommand(io: CliIo) {
  return {
    ...COMMANDS.start,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('speed', numberFlag('sandbox clock speed: 1 is real time (the default), 60 a market minute per second'))
        .option('duration', { type: 'string', describe: 'stop after this long, e.g. 90s, 10m, 2h (default: run until Ctrl-C)' })
        .option('history', numberFlag(`bars of market history the sandbox starts with, so strategies are warm at once (default ${DEFAULT_HISTORY_BARS})`))
        .option('bot', { type: 'string', describe: 'bot config (JSON, as `halyard run --config`; default config/bot.example.json); its venue must be "sandbox"' })
        .option('journal', { type: 'string', describe: `journal file of this run, replaced at every start (default ${DEFAULT_START_JOURNAL})` }),
    handler: async (args: StartArgs): Promise<void> => {
      await runStart(io, args);
    },
  };
}

export async function runStart(io: CliIo, args: StartArgs): Promise<BotSummary> {
  const opts = parseStartOptions(args);
  const bot = botConfigFor(opts);
  const settings = loadConfig(args.config as string | undefined);
  if (isDirectory(opts.journal)) throw new UsageError(`--journal ${opts.journal} is a directory: name the journal file`);
  for (const suffix of ['', '-wal', '-shm']) await ioStep('remove the previous start journal', opts.journal + suffix, () => rm(opts.journal + suffix, { force: true }));

  const tty = isTerminal(io, 'out');
  const level = args.logLevel ?? bot.log.level;
  const status = new StatusOutput({ tty, write: (t) => io.out(t.endsWith('\n') ? t.slice(0, -1) : t), env: io.env, logger: jsonLines(io, 'info') });
  // On a terminal (as `halyard run`): the block redrawn in place on stdout, readable log lines on
  // stderr, each pushing the next block below it. Otherwise pino JSON lines on stdout for both.
  const logger = tty ? createLogger({ level }, humanLog(io, () => status.release())) : jsonLines(io, level);

  io.out(`Starting the embedded sandbox exchange: a synthetic market on every symbol, ${opts.historyBars} bars of history, clock ${opts.speed === 1 ? 'in real time' : `x${opts.speed}`}...`);
  const sandbox = await startSandbox({
    config: {
      ...settings.sandbox,
      listen: { host: '127.0.0.1', port: 0 },
      clock: { ...settings.sandbox.clock, speed: opts.speed },
      market: { ...settings.sandbox.market, enabled: true, historyBars: opts.historyBars },
    },
    logger: createLogger({ level: 'silent' }),
  });
  let summary: BotSummary;
  try {
    io.out(`  sandbox at ${sandbox.baseUrl} (WebSocket ${sandbox.wsUrl})`);
    io.out(`  bot: ${bot.strategies.map((s) => `${s.name ?? s.strategy} on ${symbolsOf(s).join(', ')}`).join('; ')} (${opts.botConfigFile})`);
    io.out(`  journal: ${opts.journal}`);
    io.out(opts.durationMs === undefined ? '  running until Ctrl-C' : `  running for ${opts.durationMs / 1000} s (Ctrl-C stops it sooner)`);
    status.release();
    summary = await runBot({
      config: bot,
      configSource: opts.botConfigFile,
      // The embedded sandbox's own demo key: keys for a real venue in the environment are not for it.
      env: {},
      sandbox,
      ...(io.signal ? { signal: io.signal } : {}),
      ...(opts.durationMs !== undefined ? { durationMs: opts.durationMs } : {}),
      onStatus: (s) => status.show(s, sandbox.clock.now()),
      logger,
    });
  } finally {
    await sandbox.close();
  }
  status.release();
  io.out('');
  for (const line of summaryLines(summary)) io.out(line);
  io.out('');
  io.out('Backtest the same strategies on the bars this run recorded:');
  for (const line of backtestCommands(bot, summary)) io.out(`  ${line}`);
  io.out('');
  io.out('Compare this live run with its backtest, trade by trade (terminal and HTML report):');
  io.out(`  npx halyard compare-live --journal ${summary.journal}`);
  return summary;
}

/** The bot config file, its venue the embedded sandbox, its journal this run's, its listen key kept alive on the sandbox's clock. */
function botConfigFor(opts: StartOptions): BotConfig {
  const config = loadBotConfig(opts.botConfigFile);
  if (config.venue !== 'sandbox') {
    throw new UsageError(`--bot ${opts.botConfigFile}: its venue is ${config.venue.baseUrl}; \`halyard start\` runs on the embedded sandbox (venue "sandbox"): run \`halyard run --config ${opts.botConfigFile}\` for that venue`);
  }
  const keepalive = Math.max(1000, Math.floor(KEEPALIVE_SANDBOX_MS / opts.speed));
  const ping = Math.max(1000, Math.floor(PING_SANDBOX_MS / opts.speed));
  const stream = {
    ...config.stream,
    keepaliveMs: Math.min(config.stream.keepaliveMs ?? keepalive, keepalive),
    pingIntervalMs: Math.min(config.stream.pingIntervalMs ?? ping, ping),
  };
  return { ...config, journal: path.normalize(opts.journal), stream, exchange: { ...config.exchange, pools: poolsOnSandboxTime(config, opts.speed) } };
}

/**
 * The client's weight budget, on the sandbox clock when it runs fast (src/bot stamps requests on
 * it), counts windows `speed` times longer so that they stay the sandbox rate limiter's windows,
 * which are wall time (sandbox/rate-limit): else the client would send 20 times what the sandbox
 * lets through, and take 429s.
 */
function poolsOnSandboxTime(config: BotConfig, speed: number): BotConfig['exchange']['pools'] {
  if (speed <= 1) return config.exchange.pools;
  const defaults = DEFAULT_POOLS[config.exchange.weightProfile];
  const scaled = (name: Pool) => {
    const p = config.exchange.pools[name];
    return { limit: p?.limit ?? defaults[name].limit, windowMs: Math.round((p?.windowMs ?? defaults[name].windowMs) * speed) };
  };
  return { IP: scaled('IP'), UID: scaled('UID'), ORDERS: scaled('ORDERS') };
}

function symbolsOf(s: BotConfig['strategies'][number]): string[] {
  if (s.symbols !== undefined) return s.symbols;
  const p = s.params as { symbol?: unknown; symbols?: unknown };
  if (typeof p.symbol === 'string') return [p.symbol];
  return Array.isArray(p.symbols) ? p.symbols.map(String) : ['its default symbol'];
}

/** pino JSON lines on the command's stdout. */
function jsonLines(io: CliIo, level: string): Logger {
  return createLogger({ level }, { write: (t: string) => io.out(t.endsWith('\n') ? t.slice(0, -1) : t) });
}

/** Each pino line as a readable one on the command's stderr. */
function humanLog(io: CliIo, written: () => void): { write(line: string): void } {
  return {
    write(line: string) {
      io.err(humanLine(line.endsWith('\n') ? line.slice(0, -1) : line));
      written();
    },
  };
}
