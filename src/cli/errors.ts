/**
 * Turns any error a command raises into a clear message and an exit code. An ExchangeError's
 * details follow its message: as short `key: value` lines at a terminal (error-details.ts), as
 * the JSON of `toJSON()` when stderr is a pipe or a file (what a script reads).
 */
// The class's own light module, not load.ts: every command loads this file, and load.ts brings zod
// and the config schemas (about 240 modules) that `halyard --help` has no use for.
import { ConfigError } from '../config/errors.ts';
import { ExchangeError, ParameterError } from '../exchange/errors/errors.ts';
import { MissingCredentialsError } from '../exchange/client/request-builder.ts';
import { exchangeErrorLines } from './error-details.ts';
import { EXIT, isTerminal, type CliIo } from './io.ts';

/** An error in what the user typed; the message is enough. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function reportError(io: CliIo, error: unknown): number {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof MissingCredentialsError) {
    io.err(`error: ${error.message}`);
    return EXIT.badInput;
  }
  if (error instanceof ParameterError) {
    io.err(`error: ${error.message} (venue code ${error.venueCode} for the same mistake)`);
    return EXIT.badInput;
  }
  if (error instanceof ExchangeError) {
    io.err(`error: ${error.message}`);
    if (!isTerminal(io, 'err')) io.err(JSON.stringify(error.toJSON(), null, 2));
    else {
      const lines = exchangeErrorLines(error);
      if (lines.length > 0) io.err(lines.join('\n'));
    }
    return EXIT.failed;
  }
  io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.failed;
}
