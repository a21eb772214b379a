/**
 * The sandbox's sub-account area (issue "Sandbox exchange", deliverable 8; spec 2.12, 3.2, 4.9,
 * 8.9-8.11, 7.3 -10324): list/create/asset, transfers and their histories, sub-account API-key IP
 * restrictions, sub-account deposit address and history, and fund collection.
 * `subAccount.assetTransactionHistory` is the money ledger's (money/ledger/asset-history.ts).
 *
 * Roles: access.ts / errors.ts (-1152 for a master-only endpoint called with a sub-account key and
 * vice versa). Fund collection tasks settle lazily on sandbox time (collection-store.ts): due
 * tasks are processed before every request this plugin serves and before every money-ledger read.
 * Deposits come from the wallet (money/wallet); its plugin is not required (the wallet service is
 * created on first use), but deposits are only created through the wallet's admin routes.
 * State is in memory (not in the `--state` snapshot, which holds accounts and keys only).
 * No admin routes of its own: sub-accounts can also be made with the admin `POST /accounts`.
 */
import type { SandboxPlugin } from '../../http/plugin.ts';
import type { Handler, HandlerMap } from '../../http/route-types.ts';
import { moneyLedgerOf } from '../ledger/money-ledger.ts';
import { accountHandlers } from './account-handlers.ts';
import type { SubAccountArea } from './area-state.ts';
import { collectionHandlers, sweepInto } from './collection-handlers.ts';
import { CollectionStore } from './collection-store.ts';
import { depositHandlers } from './deposit-handlers.ts';
import { historyHandlers } from './history-handlers.ts';
import { ipRestrictionHandlers } from './ip-restriction-handlers.ts';
import { transferHandlers } from './transfer-handlers.ts';
import { SubTransferStore } from './transfer-store.ts';

export function subAccountPlugin(): SandboxPlugin {
  return {
    name: 'sub-account',
    setup({ state, registerHandlers }) {
      const area: SubAccountArea = { transfers: new SubTransferStore(state.clock.now()), collections: new CollectionStore(), keyUpdateTimes: new Map() };
      state.services.subAccounts = area;
      const settle = (now: number) => area.collections.settleDue(now, (task) => sweepInto(state, state.accounts.require(task.masterId), task, now));
      moneyLedgerOf(state.services).beforeRead(settle);
      const handlers: HandlerMap = {
        ...accountHandlers,
        ...transferHandlers(area),
        ...historyHandlers(area),
        ...ipRestrictionHandlers(area),
        ...depositHandlers,
        ...collectionHandlers(area),
      };
      const settling = (h: Handler): Handler => (ctx) => {
        settle(ctx.now);
        return h(ctx);
      };
      registerHandlers(Object.fromEntries(Object.entries(handlers).map(([id, h]) => [id, settling(h)])));
    },
  };
}
