/**
 * `halyard sandbox [--port N] [--config sandbox.json] [--state file.db] [--admin]`: runs the sandbox
 * exchange on 127.0.0.1, prints its base URL, WebSocket URL and the demo API key and secret, and
 * runs until stopped. Its settings are the `sandbox` section of the config file (`--config`).
 * `--state` keeps the whole paper account in SQLite across restarts: accounts, keys, balances, open
 * orders, order and trade history, and the money-flow records (docs/guides/sandbox.md).
 *
 * main.ts owns the process: it passes `signal` (aborted on SIGINT/SIGTERM); the handler resolves
 * after a graceful close, or after CLOSE_GRACE_MS if the close hangs. Without a signal the command
 * runs until the process ends.
 *
 * A port that cannot be bound (taken by another program, privileged) is refused as bad input,
 * exit 2, naming `--port` (or the config's `sandbox.listen.port`): the remedy is another port, or
 * 0 for any free one. startSandbox has then released everything it started, so the process ends.
 */
import path from 'node:path';
import type { Argv } from 'yargs';
import { createLogger } from '../../log/logger.ts';
import { SqliteStateStore, StateFileError } from '../../sandbox/accounts/sqlite-state-store.ts';
import { loadConfig } from '../../config/load.ts';
import { SandboxListenError, startSandbox, type SandboxHandle } from '../../sandbox/server.ts';
import { UsageError } from '../errors.ts';
import { numberFlag, numberOption } from '../options.ts';
import { isDirectory } from '../paths.ts';
import { stopped, type CliIo } from '../io.ts';
import type { GlobalArgs } from '../with-client.ts';
import { COMMANDS } from './catalog.ts';

export interface SandboxCommandOptions {
  /** Aborted when the process should stop (SIGINT/SIGTERM in main.ts). */
  signal?: AbortSignal;
  /** Called once the sandbox listens (tests). */
  onStarted?: (handle: SandboxHandle) => void;
}

interface SandboxArgs extends GlobalArgs {
  port?: string | number;
  state?: string;
  admin?: boolean;
  market?: boolean;
}

export function sandboxCommand(io: CliIo, options: SandboxCommandOptions = {}) {
  return {
    ...COMMANDS.sandbox,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('port', numberFlag('listen port (0: any free port)'))
        .option('state', { type: 'string', describe: 'SQLite file keeping the paper accounts (keys, balances, orders, trades, money flows) across restarts' })
        .option('admin', { type: 'boolean', describe: 'enable the admin API (/sandbox-admin/v1)' })
        .option('market', { type: 'boolean', describe: 'run the market agents (synthetic prices, liquidity); --no-market for none' }),
    handler: async (args: SandboxArgs) => {
      const port = numberOption('--port', args.port, 'a port number from 0 (any free port) to 65535', (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
      const base = loadConfig(args.config).sandbox;
      const config = {
        ...base,
        listen: { ...base.listen, ...(port === undefined ? {} : { port }) },
        admin: { ...base.admin, ...(args.admin === undefined ? {} : { enabled: args.admin }) },
        // A living market by default for a sandbox someone runs by hand; --no-market for a quiet one.
        market: { ...base.market, enabled: args.market ?? true },
      };
      if (args.state !== undefined && isDirectory(args.state)) throw new UsageError(`--state ${args.state} is a directory: name the state file (e.g. ${path.join(args.state, 'paper.db')})`);
      const stateStore = args.state ? stateFile(() => new SqliteStateStore(args.state as string)) : undefined;
      const logger = createLogger({ level: args.logLevel ?? 'warn' });
      let handle: SandboxHandle;
      try {
        handle = await startSandbox({ config, stateStore, logger });
      } catch (err) {
        if (err instanceof SandboxListenError) throw listenUsageError(err, args.port === undefined ? args.config : undefined);
        if (err instanceof StateFileError) throw new UsageError(`--state: ${err.message}`);
        throw err;
      }
      io.out(
        [
          `Halyard sandbox exchange listening.`,
          `  REST base URL:  ${handle.baseUrl}`,
          `  WebSocket URL:  ${handle.wsUrl}`,
          `  API key:        ${handle.apiKey}`,
          `  API secret:     ${handle.apiSecret}`,
          `  API key header: ${handle.config.variants.apiKeyHeader}`,
          handle.config.admin.enabled ? `  Admin API:      ${handle.baseUrl}${handle.config.admin.prefix} (GET /routes lists it)` : '  Admin API:      off (--admin enables it)',
          args.state ? `  State file:     ${args.state}` : '  State:          in memory (--state file.db keeps it across restarts)',
          'Stop with Ctrl-C.',
        ].join('\n'),
      );
      options.onStarted?.(handle);
      await stopped(options.signal);
      if (await closedWithin(handle, CLOSE_GRACE_MS)) io.out('sandbox stopped');
      else io.err(`sandbox did not close within ${String(CLOSE_GRACE_MS / 1000)} s (a connection still open?); stopping anyway`);
    },
  };
}

/** A --state file that is not a usable sandbox state file is bad input (exit 2), named by its option. */
function stateFile<T>(open: () => T): T {
  try {
    return open();
  } catch (err) {
    if (err instanceof StateFileError) throw new UsageError(`--state: ${err.message}`);
    throw err;
  }
}

/** How long a stop waits for open requests and streams to finish before giving up on them. */
const CLOSE_GRACE_MS = 5000;

async function closedWithin(handle: SandboxHandle, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([handle.close().then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The port (from --port, else the config file's sandbox.listen.port) cannot be used: the user picks another. */
function listenUsageError(err: SandboxListenError, configFile: string | undefined): UsageError {
  const field = configFile === undefined ? `--port ${String(err.port)}` : `sandbox.listen.port ${String(err.port)} (in ${configFile})`;
  if (err.code === 'EADDRNOTAVAIL') {
    return new UsageError(`sandbox.listen.host '${err.host}'${configFile === undefined ? '' : ` (in ${configFile})`}: ${err.message}; use 127.0.0.1`);
  }
  if (err.code === 'EADDRINUSE' || err.code === 'EACCES') {
    return new UsageError(`${field}: ${err.message}; choose another port with --port, or --port 0 for any free one`);
  }
  return new UsageError(`${field}: ${err.message}`);
}
