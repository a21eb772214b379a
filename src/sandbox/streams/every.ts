/**
 * A periodic task on the injected clock (design rule 8): on a `VirtualClock` tests drive it with
 * `advance`, on the system clock it is a timer that the abort signal clears, so nothing keeps the
 * process alive once the stream server is closed.
 */
import type { Clock } from '../../ports/clock.ts';

export function every(clock: Clock, ms: number, signal: AbortSignal, task: () => void, onError: (err: unknown) => void): void {
  const loop = async () => {
    while (!signal.aborted) {
      if (!(await sleep(clock, ms, signal))) return;
      try {
        task();
      } catch (err) {
        onError(err);
      }
    }
  };
  void loop();
}

/**
 * One sleep on a signal of its own, linked to `signal` only while it lasts: a clock that leaves its
 * abort listener behind after a normal wake-up (VirtualClock does) would otherwise pile listeners
 * on the long-lived signal. False when aborted.
 */
async function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  const one = new AbortController();
  const onAbort = () => one.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await clock.sleep(ms, one.signal);
    return !signal.aborted;
  } catch {
    return false;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
