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
 * Transfers, collection tasks and the keys' IP-restriction update times are persistent parts
 * (`sub-account.*`): with `--state` they survive a restart.
 * No admin routes of its own: sub-accounts can also be made with the admin `POST /accounts`.
 */
import { z } from 'zod';
import { reservedIds } from '../../exchange-core/ids.ts';
import type { SandboxPlugin } from '../../http/plugin.ts';
import type { Handler, HandlerMap } from '../../http/route-types.ts';
import { persistentPartsOf } from '../../persistence/persistent-parts.ts';
import { zTime } from '../../persistence/schema-kit.ts';
import { moneyLedgerOf } from '../ledger/money-ledger.ts';
import { accountHandlers } from './account-handlers.ts';
import type { SubAccountArea } from './area-state.ts';
import { collectionHandlers, sweepInto } from './collection-handlers.ts';
import { COLLECTIONS_STATE, CollectionStore } from './collection-store.ts';
import { depositHandlers } from './deposit-handlers.ts';
import { historyHandlers } from './history-handlers.ts';
import { ipRestrictionHandlers } from './ip-restriction-handlers.ts';
import { transferHandlers } from './transfer-handlers.ts';
import { SUB_TRANSFERS_STATE, SubTransferStore } from './transfer-store.ts';

const KEY_TIMES_STATE = z.object({ times: z.array(z.tuple([z.string(), zTime])) });

export function subAccountPlugin(): SandboxPlugin {
  return {
    name: 'sub-account',
    setup({ state, registerHandlers }) {
      const area: SubAccountArea = { transfers: new SubTransferStore(reservedIds(state.services, 'sub-account.transfers', { first: BigInt(Math.floor(state.clock.now())) * 1_000_000n })), collections: new CollectionStore(), keyUpdateTimes: new Map() };
      state.services.subAccounts = area;
      const parts = persistentPartsOf(state.services);
      parts.register('sub-account.transfers', SUB_TRANSFERS_STATE, area.transfers);
      parts.register('sub-account.collections', COLLECTIONS_STATE, area.collections);
      parts.register('sub-account.key-times', KEY_TIMES_STATE, {
        dumpState: () => ({ times: [...area.keyUpdateTimes] }),
        restoreState: (data) => {
          area.keyUpdateTimes.clear();
          for (const [key, time] of data.times) area.keyUpdateTimes.set(key, time);
        },
      });
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
