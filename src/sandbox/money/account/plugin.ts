/**
 * Accounts' money (issue "Sandbox exchange" deliverable 8; spec 4.3 without payment requests,
 * notes 6): account information with limits, crypto accounts, transfers v3/v4 and their query,
 * and `asset/transaction/history` (spec 4.9; it reads the money ledger). `moneyCorePlugin()` is
 * this plus the wallet in one plugin.
 */
import type { SandboxPlugin } from '../../http/plugin.ts';
import { assetHistoryHandlers } from '../ledger/asset-history.ts';
import { moneyLedgerOf } from '../ledger/money-ledger.ts';
import { walletPlugin } from '../wallet/plugin.ts';
import { accountHandlers } from './account-handlers.ts';
import { accountMoneyAdminRoutes } from './admin-routes.ts';
import { contactsOf } from './contacts.ts';
import { accountLimitsOf } from './limits.ts';
import { transferHandlers } from './transfer-handlers.ts';
import { transfersOf } from './transfers.ts';

export function accountPlugin(): SandboxPlugin {
  return {
    name: 'account-money',
    handlers: { ...accountHandlers, ...transferHandlers, ...assetHistoryHandlers },
    adminRoutes: accountMoneyAdminRoutes,
    setup({ state }) {
      moneyLedgerOf(state.services);
      accountLimitsOf(state);
      contactsOf(state);
      transfersOf(state);
    },
  };
}

/** Wallet and account money as one plugin. */
export function moneyCorePlugin(): SandboxPlugin {
  const parts = [walletPlugin(), accountPlugin()];
  return {
    name: 'money-core',
    async setup(ctx) {
      for (const p of parts) {
        if (p.handlers) ctx.registerHandlers(p.handlers);
        if (p.adminRoutes) ctx.registerAdminRoutes(p.adminRoutes);
        await p.setup?.(ctx);
      }
    },
  };
}
