/**
 * A bot that could not start (issue 21, acceptance "Bad input": a venue unreachable at start, a
 * key the venue refuses, a symbol it does not list): the message names the problem, the CLI exits
 * non-zero (1; config problems are ConfigErrors, exit 2), and nothing is left half-started.
 */
export class BotStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BotStartError';
  }
}

/** An error's message, or the text of a thrown non-error. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
