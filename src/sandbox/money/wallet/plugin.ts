/**
 * The sandbox wallet (issue "Sandbox exchange" deliverable 8; spec 4.2, notes 6): coin
 * configuration, deposit addresses, admin-driven deposits, whitelisted withdrawals and both
 * histories. Services: `services.wallet` (wallet-service.ts), `services.moneyLedger`
 * (../ledger/money-ledger.ts), `services.accountLimits` (../account/limits.ts).
 * Admin routes: admin-routes.ts.
 */
import type { SandboxPlugin } from '../../http/plugin.ts';
import { walletAdminRoutes } from './admin-routes.ts';
import { walletHandlers } from './wallet-handlers.ts';
import { walletOf } from './wallet-service.ts';

export function walletPlugin(): SandboxPlugin {
  return {
    name: 'wallet',
    handlers: walletHandlers,
    adminRoutes: walletAdminRoutes,
    setup({ state }) {
      walletOf(state);
    },
  };
}
