/**
 * For the CLI command tests: parse argv as src/cli/index.ts does (strict yargs, the command
 * registered, parse failures thrown) and report errors through reportError, collecting what the
 * command wrote. Not part of the public surface.
 */
import yargs, { type CommandModule } from 'yargs';
import { reportError } from './errors.ts';
import type { CliIo } from './io.ts';
import type { GlobalArgs } from './with-client.ts';

export interface CommandRun {
  /** The exit code: 0, or what reportError chose. */
  code: number;
  out: string;
  err: string;
}

/** Runs one command; `config` adds the global --config option the command reads. */
export async function runCommand<A>(make: (io: CliIo) => CommandModule<GlobalArgs, A>, argv: string[], options: { config?: boolean } = {}): Promise<CommandRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env: {}, out: (t) => out.push(t), err: (t) => err.push(t) };
  let code = 0;
  try {
    const base = options.config === true ? yargs(argv).option('config', { type: 'string' }) : yargs(argv);
    await base
      .command(make(io))
      .strict()
      .exitProcess(false)
      .fail((msg, e) => {
        throw e ?? new Error(msg);
      })
      .parseAsync();
  } catch (e) {
    code = reportError(io, e);
  }
  return { code, out: out.join('\n'), err: err.join('\n') };
}
