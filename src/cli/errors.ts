/** Turns any error a command raises into a clear message and an exit code. */
import { ConfigError } from '../config/load.ts';
import { ExchangeError, ParameterError } from '../exchange/errors/errors.ts';
import { MissingCredentialsError } from '../exchange/client/request-builder.ts';
import { EXIT, type CliIo } from './io.ts';

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
    io.err(JSON.stringify(error.toJSON(), null, 2));
    return EXIT.failed;
  }
  io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.failed;
}
