/**
 * Spec 4.9 collect-from-sub-account (master; JSON body) and get-fund-record (any account; a
 * sub-account has no tasks of its own, so it sees an empty list). Rule 6: while one of the master's
 * tasks is INIT a new submission answers -10324 "Request repeated"; a `clientRequestId` used
 * before answers the same whatever that task's state (it is unique, spec 4.9). Task life and the
 * sweep: collection-store.ts. Records list oldest first (spec 1.2; 4.9 names no other order),
 * `size` per page (default 100).
 */
import { D } from '../../../core/money/decimal.ts';
import type { SandboxAccount } from '../../contracts.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { defineHandlers } from '../../http/route-types.ts';
import { param, requireMaster } from './access.ts';
import type { SubAccountArea } from './area-state.ts';
import { taskView, type CollectionTask, type SweepOutcome } from './collection-store.ts';
import { subAccountErrors } from './errors.ts';
import { moveFunds } from './move-funds.ts';
import { pageOf } from './window.ts';

/** Moves every sub-account's free balances to the master; reports what stayed behind. */
export function sweepInto(state: SandboxState, master: SandboxAccount, task: CollectionTask, now: number): SweepOutcome {
  const balances = state.services.balances;
  if (!balances) return { moved: 0, leftBehind: ['no balance service'] };
  let moved = 0;
  const leftBehind: string[] = [];
  for (const sub of state.accounts.subAccountsOf(master.id)) {
    for (const b of balances.all(sub.id)) {
      const free = new D(b.free);
      const locked = new D(b.locked);
      if (sub.frozen) {
        if (!free.plus(locked).isZero()) leftBehind.push(`${sub.email} ${b.asset} ${free.plus(locked).toFixed()} (frozen)`);
        continue;
      }
      if (free.gt(0)) {
        moveFunds(state, { from: sub, to: master, asset: b.asset, amount: free, time: now, txId: task.clientRequestId });
        moved++;
      }
      if (locked.gt(0)) leftBehind.push(`${sub.email} ${b.asset} ${locked.toFixed()} (locked)`);
    }
  }
  return { moved, leftBehind };
}

export function collectionHandlers(area: SubAccountArea) {
  return defineHandlers({
    'subAccount.collectFromSubAccount': (ctx) => {
      const master = requireMaster(ctx);
      const clientRequestId = String(ctx.params['clientRequestId']);
      const tasks = area.collections.ofMaster(master.id);
      if (tasks.some((t) => t.status === 'INIT' || t.clientRequestId === clientRequestId)) throw subAccountErrors.repeated();
      const task = area.collections.add({ masterId: master.id, clientRequestId, status: 'INIT', comment: '', createdAt: ctx.now, remark: param<number>(ctx, 'remark') });
      return taskView(task);
    },
    'subAccount.getFundRecord': (ctx) => {
      const owner = ctx.account;
      const clientRequestId = param<string>(ctx, 'clientRequestId');
      const tasks = owner === undefined ? [] : area.collections.ofMaster(owner.id).filter((t) => clientRequestId === undefined || t.clientRequestId === clientRequestId);
      return pageOf(tasks, param<number>(ctx, 'page') ?? 1, param<number>(ctx, 'size') ?? 100).map(taskView);
    },
  });
}
