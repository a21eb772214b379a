/**
 * A progress bar for the runs of a sweep or a walk-forward (cli-progress, as `halyard record`
 * shows its pages): drawn on a terminal only, cleared when the work is done so the ranked table
 * follows on a clean screen. Off a terminal (a pipe, CI, the tests) it draws nothing.
 */
import { SingleBar } from 'cli-progress';

export interface RunProgress {
  /** `done` of `total` runs finished; `label` says which part of the work (a walk-forward's fold). */
  update(done: number, total: number, label?: string): void;
  stop(): void;
}

const NONE: RunProgress = { update: () => undefined, stop: () => undefined };

/** `tty` and `stream` default to the process's stdout (the tests pass their own). */
export function runProgress(tty: boolean = process.stdout.isTTY === true, stream: NodeJS.WritableStream = process.stdout): RunProgress {
  if (!tty) return NONE;
  const bar = new SingleBar({ format: '{label}[{bar}] {value}/{total} runs | {duration_formatted}', hideCursor: true, clearOnComplete: true, stream, noTTYOutput: true });
  let started = false;
  return {
    update(done, total, label) {
      const payload = { label: label === undefined ? '' : `${label} ` };
      if (!started) {
        bar.start(total, done, payload);
        started = true;
        return;
      }
      if (bar.getTotal() !== total) bar.setTotal(total);
      bar.update(done, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
