/**
 * When an instant fault (a dropped socket, an expired listen key) took effect, for its heal time
 * (issue 22 deliverable 2: "the time each fault took to heal"). The injection is an instant, but the
 * bot's user stream leaves LIVE a moment later (it hears the close): measured from the injection
 * itself, the stream would still read LIVE and the heal would be 0. So such a fault ends at the
 * first stream-health change away from LIVE the journal holds within `withinMs` of it (or at the
 * injection, when the bot never left LIVE: then nothing needed healing).
 */
import type { JournalState } from '../input.ts';
import type { InjectedFault } from './injector.ts';

const INSTANT = new Set(['drop', 'listen-key']);

export function settleInstantFaults(faults: readonly InjectedFault[], health: JournalState['streamHealth'], withinMs = 10_000): void {
  const downs = health.filter((h) => h.to !== 'LIVE').map((h) => h.time);
  for (const f of faults) {
    if (!INSTANT.has(f.kind)) continue;
    const at = downs.find((t) => t >= f.start && t <= f.start + withinMs);
    if (at !== undefined) f.end = at;
  }
}
