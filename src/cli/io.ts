/** What a CLI command may touch: its output streams and the environment. Injected, so tests capture it. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM); long-running commands end cleanly. */
  signal?: AbortSignal;
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
