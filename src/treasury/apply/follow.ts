/**
 * Following a move the venue has not finished (spec 3.2: a withdrawal PROCESSING, a fiat order
 * PENDING, a collection task INIT or PROCESSING, a sub-account transfer pending) until its status
 * is final: a read every `pollMs` of the executor's clock, for at most `maxWaitMs`. A move still
 * unfinished then stays `pending` in the journal; the next apply of the plan follows it on.
 */
import type { ConvertMove, Move } from '../moves.ts';
import type { ApplyContext } from './context.ts';
import { findMove, type Found } from './lookups.ts';
import type { MoveEnd } from './types.ts';

export async function follow(ctx: ApplyContext, move: Exclude<Move, ConvertMove>, first: Found): Promise<MoveEnd> {
  let found = first;
  const started = ctx.now();
  if (found.state === 'pending') {
    await ctx.set(move, 'pending', { venueId: found.venueId, detail: { record: found.record } });
    while (found.state === 'pending' && ctx.now() - started < ctx.maxWaitMs) {
      await ctx.clock.sleep(ctx.pollMs);
      found = (await findMove(ctx.client, move)) ?? found;
    }
  }
  return endOf(found, ctx.now() - started);
}

/** A move's end from its venue record. */
export function endOf(found: Found, waitedMs: number): MoveEnd {
  const data = { record: found.record };
  switch (found.state) {
    case 'succeeded':
      return { state: 'succeeded', venueId: found.venueId, data, detail: found.note === undefined ? undefined : `succeeded: ${found.note}` };
    case 'failed':
      return { state: 'failed', venueId: found.venueId, data, detail: `the venue reports it failed${found.note === undefined ? '' : `: ${found.note}`}` };
    default:
      return { state: 'pending', venueId: found.venueId, data, detail: `still ${String(found.record['status'])} at the venue after ${Math.round(waitedMs / 1000)} s; the next apply follows it on` };
  }
}
