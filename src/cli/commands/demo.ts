/**
 * `halyard demo`: the backtest demo on the embedded sandbox (what `npm start` was before the live
 * bot, which `halyard start` now runs): the whole data path, every step through the code a user
 * runs:
 *
 *   1. start the sandbox exchange in-process with its seeded synthetic market, its clock running
 *      fast (an hour of market per second by default), so agents trade a day in seconds;
 *   2. record the klines the sandbox derived from those trades over HTTP into a fresh journal
 *      (`halyard record`'s code: the client, its weight budget, the backfill);
 *   3. backtest the SMA crossover strategy on them (`halyard backtest`'s code: the strategy runner,
 *      the order manager, the filters and the same matching engine as the sandbox);
 *   4. print the summary and where the HTML report and JSON are.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Argv } from 'yargs';
import { loadConfig } from '../../config/load.ts';
import { createLogger } from '../../log/logger.ts';
import { startSandbox, type SandboxHandle } from '../../sandbox/server.ts';
import { UsageError } from '../errors.ts';
import { numberFlag, numberOption } from '../options.ts';
import { checkOutputDir, ioStep, isDirectory } from '../paths.ts';
import type { CliIo } from '../io.ts';
import type { GlobalArgs } from '../with-client.ts';
import { runBacktestCommand } from './backtest/backtest.ts';
import { runRecord } from './data/record.ts';
import { COMMANDS } from './catalog.ts';

const MINUTE = 60_000;

interface DemoArgs extends GlobalArgs {
  symbol?: string;
  hours?: string | number;
  speed?: string | number;
  outDir?: string;
}

export function demoCommand(io: CliIo) {
  return {
    ...COMMANDS.demo,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('symbol', { type: 'string', default: 'BTCPHP', describe: 'sandbox symbol to trade' })
        .option('hours', { ...numberFlag('hours of market to generate and backtest (1 to 72)'), default: 12 })
        .option('speed', { ...numberFlag('sandbox clock speed (3600: an hour per second)'), default: 3600 })
        .option('out-dir', { type: 'string', default: 'backtest/out', describe: 'folder for the demo journal, report and JSON' }),
    handler: (args: DemoArgs) => runDemo(io, args),
  };
}

export async function runDemo(io: CliIo, args: DemoArgs): Promise<void> {
  const hours = numberOption('--hours', args.hours ?? 12, 'a number of hours from 1 to 72', (n) => n >= 1 && n <= 72) as number;
  const speed = numberOption('--speed', args.speed ?? 3600, 'a clock speed from 1 to 100000', (n) => n >= 1 && n <= 100_000) as number;
  const config = loadConfig(args.config as string | undefined);
  const symbol = (args.symbol ?? 'BTCPHP').toUpperCase();
  if (!config.sandbox.symbols.some((s) => s.symbol === symbol)) {
    throw new UsageError(`--symbol ${symbol} is not a sandbox symbol (${config.sandbox.symbols.map((s) => s.symbol).join(', ')})`);
  }
  const outDir = args.outDir ?? 'backtest/out';
  checkOutputDir(outDir, '--out-dir');
  const journal = path.join(outDir, 'demo-journal.db');
  if (isDirectory(journal)) throw new UsageError(`--out-dir ${outDir}: ${journal} is a directory, where the demo writes its journal file; choose another --out-dir`);
  for (const suffix of ['', '-wal', '-shm']) await ioStep('remove the old demo journal file', journal + suffix, () => rm(journal + suffix, { force: true }));

  io.out(`Starting the embedded sandbox exchange with a synthetic market (clock x${speed})...`);
  const sandbox = await startSandbox({
    config: { ...config.sandbox, listen: { host: '127.0.0.1', port: 0 }, clock: { ...config.sandbox.clock, speed }, market: { ...config.sandbox.market, enabled: true } },
    logger: createLogger({ level: 'silent' }),
  });
  let from: number;
  try {
    io.out(`  sandbox at ${sandbox.baseUrl}; generating ${hours} h of ${symbol} trading`);
    from = Math.ceil(sandbox.clock.now() / MINUTE) * MINUTE;
    await waitForMarket(io, sandbox, from + hours * 60 * MINUTE, io.signal);
    await runRecord(
      io,
      { symbol, interval: '1m', from: String(from), to: String(from + hours * 60 * MINUTE), journal, baseUrl: sandbox.baseUrl, config: args.config },
      { tty: false, linesEvery: 1000, now: () => sandbox.clock.now() },
    );
  } finally {
    await sandbox.close();
  }
  io.out('');
  const files = await runBacktestCommand(io, { strategy: 'sma-crossover', symbol, interval: '1m', journal, outDir, param: ['fast=10', 'slow=30'], config: args.config });
  // A file URL: most terminals open it with a click.
  const open = files === undefined ? 'the report' : pathToFileURL(path.resolve(files.report)).href;
  io.out(`\nOpen ${open} in a browser. Next: \`npx halyard --help\` and docs/getting-started.md (a first strategy of your own).`);
}

/** Wait until the sandbox clock passes `until` (plus a minute, so the last bar has closed). */
async function waitForMarket(io: CliIo, sandbox: SandboxHandle, until: number, signal?: AbortSignal): Promise<void> {
  let lastReport = Date.now();
  while (sandbox.clock.now() < until + MINUTE) {
    if (signal?.aborted) throw new UsageError('stopped');
    await new Promise((r) => setTimeout(r, 100));
    if (Date.now() - lastReport >= 2000) {
      lastReport = Date.now();
      const left = Math.max(0, Math.ceil((until + MINUTE - sandbox.clock.now()) / (60 * MINUTE)));
      const trades = sandbox.services.marketAgents?.status().reduce((n, m) => n + m.trades, 0);
      io.out(`  ${left} h of market to go${trades ? `, ${trades} trades so far` : ''}`);
    }
  }
}
