/**
 * A wait on the injected RxJS scheduler (design rule 8), so retries and pacing move with virtual
 * time in tests. Rejects with the signal's reason when aborted (the pipeline is closing).
 */
import type { SchedulerLike } from 'rxjs';

export function schedulerDelay(scheduler: SchedulerLike, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      sub.unsubscribe();
      reject(signal?.reason as Error);
    };
    const sub = scheduler.schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
