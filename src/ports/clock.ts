/**
 * Time is injected (design rule 8): core and engine code take a `Clock`, never `Date.now()`, so
 * tests and backtests run on virtual time.
 */
export interface Clock {
  /** Milliseconds since the epoch, on this clock's timeline. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
