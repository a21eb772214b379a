/**
 * The executor (issue 23 deliverable 3): applies a plan's moves one at a time, in plan order.
 *
 * Each move is journaled (treasury_moves, schema 7) before anything is sent, its request as sent
 * before it leaves, and every state after; so a plan applied again resumes: a move that succeeded
 * is skipped, one sent, unknown or pending is looked up by its client id and followed (never sent
 * again), one refused (nothing was sent: no approval, a guard, a venue pre-check) is tried again.
 *
 * The plan stops at the first move that does not succeed (refused, failed, or still pending after
 * the follow-up window): the moves after it may need the money it was to move.
 * Used by `halyard treasury apply` and by the bot's rebalancer (which never passes `approve`).
 */
import type { Plan } from '../moves.ts';
import { openMoveStore, type MoveRow } from '../journal/move-store.ts';
import { ApplyContext } from './context.ts';
import { applyConvert } from './convert.ts';
import { dayStartOf, refuseOverLimit } from './limits.ts';
import { applyMoneyMove } from './money-moves.ts';
import type { ApplyOptions, ApplyResult, MoveEnd, MoveOutcome } from './types.ts';

export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  checkPlan(plan);
  const store = openMoveStore(options.journal);
  const ctx = new ApplyContext(options, store);
  const outcomes: MoveOutcome[] = [];
  for (const [seq, move] of plan.moves.entries()) {
    const { row } = store.record(move, { planId: plan.id, seq, runId: options.runId, now: ctx.now() });
    if (row.state === 'succeeded') {
      outcomes.push(outcomeOf(row, 'succeeded in an earlier apply'));
      continue;
    }
    if (row.state === 'failed') {
      outcomes.push(outcomeOf(row, row.error ?? 'failed in an earlier apply'));
      return { planId: plan.id, outcomes, stopped: `move ${seq} (${move.kind} ${move.clientId}) failed in an earlier apply: ${row.error ?? ''}; the moves after it were not applied` };
    }
    let end: MoveEnd;
    try {
      // A move not yet sent keeps to the caps (a move sent earlier is only looked up and followed).
      const overLimit = row.state === 'planned' || row.state === 'refused' ? refuseOverLimit(move, options.policy.limits, store.movedSince(dayStartOf(ctx.now()))) : undefined;
      if (overLimit !== undefined) end = { state: 'refused', detail: overLimit };
      else end = move.kind === 'convert' ? await applyConvert(ctx, move, row) : await applyMoneyMove(ctx, move, row);
    } catch (e) {
      // A read failed or something unforeseen: what was journaled stays (a sent move stays sent, to be looked up next time).
      const text = e instanceof Error ? e.message : String(e);
      const now = store.get(move.clientId)!;
      const state = now.state === 'planned' || now.state === 'refused' ? 'refused' : now.state;
      const after = store.update(move.clientId, ctx.now(), { state, error: text });
      ctx.log('error', 'treasury move stopped by an error', { clientId: move.clientId, state, error: text });
      outcomes.push(outcomeOf(after, text));
      return { planId: plan.id, outcomes, stopped: `move ${seq} (${move.kind} ${move.clientId}) stopped by an error while ${state}: ${text}` };
    }
    const ended = store.update(move.clientId, ctx.now(), {
      state: end.state,
      venueId: end.venueId,
      received: end.received,
      resolution: end.resolution,
      detail: { ...(end.data ?? {}), ...(end.detail === undefined ? {} : { summary: end.detail }) },
      error: end.state === 'failed' || end.state === 'refused' ? (end.detail ?? end.state) : null,
    });
    await ctx.emit({ kind: 'state', clientId: move.clientId, state: end.state });
    ctx.log(end.state === 'succeeded' ? 'info' : 'warn', `treasury ${move.kind} ${end.state}`, { clientId: move.clientId, venueId: ended.venueId, detail: end.detail });
    outcomes.push({ move, state: end.state, venueId: ended.venueId ?? undefined, detail: end.detail, resolution: ended.resolution ?? undefined });
    if (end.state !== 'succeeded') {
      return { planId: plan.id, outcomes, stopped: `move ${seq} (${move.kind} ${move.clientId}) ended ${end.state}: ${end.detail ?? ''}; the moves after it were not applied` };
    }
  }
  return { planId: plan.id, outcomes };
}

/** A plan the executor can journal: an id, and a client id used by one move only. */
function checkPlan(plan: Plan): void {
  if (typeof plan.id !== 'string' || plan.id === '') throw new TypeError('plan.id: a plan needs its id (client ids and the journal key on it)');
  const seen = new Map<string, number>();
  plan.moves.forEach((m, i) => {
    if (typeof m.clientId !== 'string' || m.clientId === '') throw new TypeError(`plan.moves[${i}].clientId: every move needs its client id`);
    const first = seen.get(m.clientId);
    if (first !== undefined) throw new TypeError(`plan.moves[${i}].clientId: ${m.clientId} is also moves[${first}]'s; a client id is used by one move only`);
    seen.set(m.clientId, i);
  });
}

function outcomeOf(row: MoveRow, detail: string): MoveOutcome {
  return { move: row.move, state: row.state, venueId: row.venueId ?? undefined, detail, resolution: row.resolution ?? undefined };
}
