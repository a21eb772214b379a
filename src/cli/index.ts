/** The `halyard` command line (yargs): one file per command under `commands/`. */
import yargs from 'yargs';
import { apiCommand } from './commands/api.ts';
import { backtestCommand } from './commands/backtest.ts';
import { exchangeInfoCommand } from './commands/exchange-info.ts';
import { importCommand } from './commands/import.ts';
import { recordCommand } from './commands/record.ts';
import { sandboxCommand } from './commands/sandbox.ts';
import { startCommand } from './commands/start.ts';
import { strategiesCommand } from './commands/strategies.ts';
import { timeCommand } from './commands/time.ts';
import { reportError } from './errors.ts';
import { EXIT, type CliIo } from './io.ts';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const setExit = (code: number) => {
    exitCode = code;
  };
  let failure: unknown;
  const parser = yargs([...argv])
    .scriptName('halyard')
    .usage('$0 <command> [options]')
    .option('config', { type: 'string', describe: 'JSON config file (see config/example.json)' })
    .option('base-url', { type: 'string', describe: 'exchange REST base URL (overrides config)' })
    .option('log-level', { type: 'string', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] })
    .command(startCommand(io))
    .command(apiCommand(io, setExit))
    .command(timeCommand(io))
    .command(exchangeInfoCommand(io))
    .command(importCommand(io))
    .command(recordCommand(io))
    .command(backtestCommand(io))
    .command(strategiesCommand(io))
    .command(sandboxCommand(io, io.signal ? { signal: io.signal } : {}))
    // yargs calls middleware with the instance in the command's context as the second argument.
    .middleware(((argv: Record<string, unknown>, y: OptionsHolder) => refuseRepeatedOptions(argv, y)) as (argv: Record<string, unknown>) => void)
    .demandCommand(1, 'name a command; `halyard --help` lists them')
    .strict()
    .recommendCommands()
    .exitProcess(false)
    .showHelpOnFail(false)
    .wrap(Math.min(120, process.stdout.columns || 100))
    .fail((msg, err) => {
      // Throw, not just record: yargs would otherwise still run the command after a strict-mode error.
      throw err ?? new UsageErrorLike(msg);
    })
    .help()
    .version(false);

  try {
    const output = await new Promise<string>((resolve, reject) => {
      parser.parseAsync([...argv], {}, (err, _argv, text) => (err ? reject(err) : resolve(text))).catch(reject);
    });
    if (output) io.out(output);
  } catch (e) {
    failure ??= e;
  }
  if (failure !== undefined) {
    if (failure instanceof UsageErrorLike) {
      io.err(`error: ${failure.message}\n(see \`halyard --help\`)`);
      return EXIT.badInput;
    }
    return reportError(io, failure);
  }
  return exitCode;
}

/** yargs' own argument errors (unknown command, missing argument). */
class UsageErrorLike extends Error {}

/**
 * An option that takes one value, given more than once, is refused by name (yargs would hand the
 * command an array where it expects a string); the repeatable ones (`--param`, `--balance`,
 * `--sweep`) are declared as arrays and pass.
 */
interface OptionsHolder {
  getOptions(): { array: string[] };
}

function refuseRepeatedOptions(argv: Record<string, unknown>, y: OptionsHolder): void {
  const arrays = new Set(y.getOptions().array);
  for (const [key, value] of Object.entries(argv)) {
    if (key === '_' || key === '$0' || key.includes('-') || !Array.isArray(value) || arrays.has(key)) continue;
    const flag = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    throw new UsageErrorLike(`--${flag} was given ${value.length} times (${value.map(String).join(', ')}): give it once`);
  }
}

