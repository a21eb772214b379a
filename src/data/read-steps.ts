/**
 * A long synchronous read cut into steps, so that it can run either straight through (`runSteps`)
 * or giving the event loop a turn between steps (`runStepsAsync`), where a SIGINT/SIGTERM handler
 * gets to run and a stop is noticed: one reading code for both.
 *
 * Why: the kline reader is synchronous (file-lines.ts, inflated-chunks.ts), and a signal handler
 * runs only once the synchronous code it interrupts returns to the event loop. `halyard import`
 * read a whole file without returning to it, so Ctrl-C waited for the end of the file (issue 24).
 * The reader now yields every PAUSE_CHARS characters of text read, and after each batch it
 * hands on (kline-csv.ts): a generator
 * step, nothing between steps but `setImmediate`, so reading straight through costs what it did.
 */

/** A read that pauses with `yield` (no value) where it may be stopped, and returns its result. */
export type ReadSteps<T> = Generator<void, T, undefined>;

/**
 * Characters of text read between two pauses: one read chunk, about 700 rows of a 12-column file,
 * ten or so milliseconds of reading and checking, so that a stop is seen well within a second even
 * on a loaded machine, while the 1,500 turns of the event loop in a 100 MB file cost nothing
 * measurable (a turn is microseconds; the import of such a file takes tens of seconds).
 */
export const PAUSE_CHARS = 1 << 16;

/** Thrown by `runStepsAsync` when its signal aborts: the read was stopped, `reason` says why (the signal's reason). */
export class ReadStopped extends Error {
  readonly reason: unknown;
  constructor(reason: unknown) {
    super(`stopped${reason instanceof Error ? ` (${reason.message})` : ''}`);
    this.name = 'ReadStopped';
    this.reason = reason;
  }
}

/** The read run straight through, its pauses ignored. */
export function runSteps<T>(steps: ReadSteps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * The read run with a turn of the event loop at each pause. Once `signal` aborts, it throws
 * ReadStopped at the next pause, having ended the read there (its `finally` blocks run: the file
 * is closed, a decompression worker ended), so the caller can roll back what it wrote.
 */
export async function runStepsAsync<T>(steps: ReadSteps<T>, signal?: AbortSignal): Promise<T> {
  try {
    for (;;) {
      if (signal?.aborted) throw new ReadStopped(signal.reason);
      const r = steps.next();
      if (r.done) return r.value;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    // Ends a read stopped at a pause; a read that returned or threw has ended already.
    steps.return(undefined as T);
  }
}
