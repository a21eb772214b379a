/**
 * Crash points for the crash-recovery suite (issue 22 deliverable 3: "kills the bot (SIGKILL) at N
 * random points of the order flow (between journaling an intent and sending it, after sending and
 * before the answer, mid-fill, mid-resync, mid-reconciliation)"). A bot process started with
 * `HALYARD_KILL_AT=<point>:<n>` SIGKILLs itself at the n-th time it reaches that point, so a seed
 * picks the same place of the live code on every run instead of a wall-clock race.
 *
 * Off (the variable unset, as in every normal run), `killPoint` is a function that does nothing:
 * the check is made once, when this module loads. A bad value stops the process at start-up with
 * the reason, so a typo does not turn a kill run into a run without kills.
 */

export const KILL_POINTS = [
  /** A new order (place, cancelReplace) journaled as `sent`, its request not yet handed to the network. */
  'journaled-unsent',
  /** The venue answered a place / cancel / cancelReplace; the answer is neither journaled nor applied. */
  'answered-unjournaled',
  /** Inside the journal transaction of a fill: the fill row written, its order row not yet (rolled back by the kill). */
  'fill-half-written',
  /** A live resync's missed events delivered; its requests not resolved, its report not journaled. */
  'mid-resync',
  /** Start-up reconciliation: the venue's events delivered; pending requests not resolved, no report journaled. */
  'mid-reconcile',
  /**
   * A fill committed to the journal, the order manager and its strategy not yet told (the window
   * between the commit and `onFill`): the next start tells it once (bot/fill-tells.ts). Beyond the
   * issue's five ("mid-fill" from the strategy's side).
   */
  'fill-journaled-untold',
] as const;

export type KillPoint = (typeof KILL_POINTS)[number];
const ALL_POINTS: readonly string[] = KILL_POINTS;

export const KILL_ENV = 'HALYARD_KILL_AT';

/** `point:n` (n >= 1) -> the point and its occurrence; throws naming the variable and the reason. */
export function parseKillAt(text: string): { point: KillPoint; occurrence: number } {
  const m = /^([a-z-]+):(\d+)$/.exec(text);
  const point = m?.[1] as KillPoint | undefined;
  const occurrence = Number(m?.[2]);
  if (m === null || point === undefined || !ALL_POINTS.includes(point) || !Number.isSafeInteger(occurrence) || occurrence < 1) {
    throw new RangeError(`${KILL_ENV}=${JSON.stringify(text)}: expected <point>:<n> with n >= 1 and point one of ${ALL_POINTS.join(', ')}`);
  }
  return { point, occurrence };
}

function armed(text: string): (point: KillPoint) => void {
  const { point: at, occurrence } = parseKillAt(text);
  let seen = 0;
  return (point) => {
    if (point !== at || ++seen !== occurrence) return;
    process.stderr.write(`${KILL_ENV}: SIGKILL at ${point} #${occurrence}\n`);
    process.kill(process.pid, 'SIGKILL');
  };
}

const spec = typeof process === 'undefined' ? undefined : process.env[KILL_ENV];

/** Reached a point of the order flow: SIGKILL here when the process was started to die here. */
export const killPoint: (point: KillPoint) => void = spec === undefined || spec === '' ? () => {} : armed(spec);
