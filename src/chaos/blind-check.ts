/**
 * The longest time the bot traded blind (issue 22 deliverable 2: "stream not LIVE while an order was
 * open"). The user stream is how the bot learns of its fills (spec 6.2 user data stream); an order
 * is open from its `time` (spec 2.4) until its `updateTime` once it is in a final state (spec 3.1),
 * or until the run's end while NEW or PARTIALLY_FILLED. Blind time is expected under dropped and
 * stalled streams; it fails the run only past `maxBlindMs`.
 */
import type { ChaosRunInput } from './input.ts';
import { allLive, complement, intersect, union, type Interval } from './intervals.ts';
import type { ChaosReport } from './report.ts';

const ACTIVE = new Set(['NEW', 'PARTIALLY_FILLED', 'PENDING_NEW']);

export function orderOpenIntervals(input: ChaosRunInput): Interval[] {
  return union(input.venue.orders.map((o) => ({ start: Math.max(o.time, input.start), end: Math.min(ACTIVE.has(o.status) ? input.end : o.updateTime, input.end) })));
}

export function checkBlind(input: ChaosRunInput): ChaosReport['blind'] {
  const stream = input.options?.userStream ?? 'user';
  const notLive = complement(allLive(input.journal.streamHealth, new Set([stream]), input.start, input.end), input.start, input.end);
  const blind = intersect(notLive, orderOpenIntervals(input));
  let longest: ChaosReport['blind']['longest'] = null;
  let totalMs = 0;
  for (const iv of blind) {
    const ms = iv.end - iv.start;
    totalMs += ms;
    if (longest === null || ms > longest.ms) longest = { start: iv.start, end: iv.end, ms };
  }
  return { longest, totalMs, limitMs: input.options?.maxBlindMs ?? null };
}
