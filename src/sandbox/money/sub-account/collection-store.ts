/**
 * Fund collection tasks (spec 2.12, 3.2, 4.9 rule 6): a submission creates a task in INIT; it is
 * processed once `SETTLE_DELAY_MS` of sandbox time has passed since the submission. Processing is
 * lazy and deterministic: due tasks are settled at the start of every sub-account request (and
 * nowhere else), so a client sees INIT until it asks again at least that much later. Nothing
 * moves before the task is processed; the sweep happens at processing time.
 *
 * The sweep moves every sub-account's whole free balance of every asset to the master. Outcome:
 *   SUCCESS          nothing was left behind (also when there was nothing to collect)
 *   PARTIAL_SUCCESS  something moved, but locked balances (open orders) or frozen sub-accounts kept some
 *   FAILED           something was left behind and nothing moved
 * `comment` says what was left. PROCESSING is never shown: processing is instantaneous.
 * A persistent part (`sub-account.collections`): with `--state` the tasks survive a restart, and
 * INIT ones are processed by the same rule afterwards.
 */
import { z } from 'zod';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';
import { zTime } from '../../persistence/schema-kit.ts';

export const SETTLE_DELAY_MS = 1000;

export type CollectionStatus = 'INIT' | 'SUCCESS' | 'PARTIAL_SUCCESS' | 'PROCESSING' | 'FAILED';

export interface CollectionTask {
  masterId: string;
  clientRequestId: string;
  status: CollectionStatus;
  comment: string;
  createdAt: number;
  remark?: number | undefined;
}

export interface SweepOutcome {
  moved: number;
  leftBehind: string[];
}

export interface CollectionsState {
  tasks: CollectionTask[];
}

export const COLLECTIONS_STATE: z.ZodType<CollectionsState> = z.object({
  tasks: z.array(
    z.object({
      masterId: z.string(),
      clientRequestId: z.string(),
      status: z.enum(['INIT', 'SUCCESS', 'PARTIAL_SUCCESS', 'PROCESSING', 'FAILED']),
      comment: z.string(),
      createdAt: zTime,
      remark: z.number().optional(),
    }),
  ),
});

export class CollectionStore implements Persistent<CollectionsState> {
  private readonly tasks: CollectionTask[] = [];

  dumpState(): CollectionsState {
    return { tasks: this.tasks.map((t) => ({ ...t })) };
  }

  restoreState(data: CollectionsState): void {
    refill(this.tasks, data.tasks);
  }

  /** The master's tasks in the order they were submitted (oldest first). */
  ofMaster(masterId: string): CollectionTask[] {
    return this.tasks.filter((t) => t.masterId === masterId);
  }

  find(masterId: string, clientRequestId: string): CollectionTask | undefined {
    return this.tasks.find((t) => t.masterId === masterId && t.clientRequestId === clientRequestId);
  }

  add(task: CollectionTask): CollectionTask {
    this.tasks.push(task);
    return task;
  }

  /** Processes every INIT task due at `now`, oldest first, with `sweep` doing the moves. */
  settleDue(now: number, sweep: (task: CollectionTask) => SweepOutcome): void {
    for (const task of this.tasks) {
      if (task.status !== 'INIT' || now < task.createdAt + SETTLE_DELAY_MS) continue;
      const { moved, leftBehind } = sweep(task);
      task.status = leftBehind.length === 0 ? 'SUCCESS' : moved > 0 ? 'PARTIAL_SUCCESS' : 'FAILED';
      task.comment = leftBehind.length === 0 ? '' : `not collected: ${leftBehind.join(', ')}`;
    }
  }
}

export const taskView = (t: CollectionTask) => ({ clientRequestId: t.clientRequestId, status: t.status, comment: t.comment });
