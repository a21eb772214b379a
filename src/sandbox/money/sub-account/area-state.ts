/**
 * The sub-account area's own state, created per sandbox by the plugin and also published as
 * `services.subAccounts` so other areas can read transfers and collection tasks. Deposits are the
 * wallet's (`services.wallet`, money/wallet/wallet-service.ts).
 */
import type { CollectionStore } from './collection-store.ts';
import type { SubTransferStore } from './transfer-store.ts';

export interface SubAccountArea {
  transfers: SubTransferStore;
  collections: CollectionStore;
  /** Last change of each key's IP restriction (spec 2.12 `updateTime`); the key's createdAt before. */
  keyUpdateTimes: Map<string, number>;
}

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    subAccounts?: SubAccountArea;
  }
}
