/** What a CLI command may touch: its output streams and the environment. Injected, so tests capture it. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM); long-running commands end cleanly. */
  signal?: AbortSignal;
  /** Whether `out` / `err` write to a terminal; absent: the process's stdout / stderr say (`isTerminal`). Tests pin it. */
  tty?: { readonly out?: boolean; readonly err?: boolean };
}

/** Whether the command's `out` or `err` is a terminal: `io.tty` when it says, else the process's stream. */
export function isTerminal(io: CliIo, stream: 'out' | 'err'): boolean {
  return io.tty?.[stream] ?? (stream === 'out' ? process.stdout : process.stderr).isTTY === true;
}

/**
 * Whether to colour what goes to `stream`: never with NO_COLOR set to anything but ''
 * (https://no-color.org), always with FORCE_COLOR set to anything but '0' or 'false' (Node's off
 * values), else only on a terminal: a pipe or a file gets plain text. NO_COLOR wins when both are
 * set, as it does in vitest's colour library (`halyard test` prints through it); Node's own
 * console lets FORCE_COLOR win.
 */
export function useColor(io: CliIo, stream: 'out' | 'err'): boolean {
  const no = io.env['NO_COLOR'];
  if (no !== undefined && no !== '') return false;
  const force = io.env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return isTerminal(io, stream);
}

/** Exit codes: 0 ok, 1 the exchange or the run failed, 2 bad input (arguments, config, parameters). */
export const EXIT = { ok: 0, failed: 1, badInput: 2 } as const;

/** Resolves when `signal` aborts (SIGINT/SIGTERM: main.ts); never without one. What a command that runs until stopped awaits. */
export function stopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return new Promise<void>(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** JSON for humans: 2-space indent; ids are already strings, so nothing is lost. */
export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}
