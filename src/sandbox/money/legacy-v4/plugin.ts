/**
 * The sandbox's legacy v4 sell-order area (issue "Sandbox exchange", deliverable 8; spec 2.14,
 * 4.11, notes 2.4): `startSandbox({ plugins: [legacyV4Plugin()] })`; orders are
 * `services.sellOrders`. No admin routes: orders complete after SELL_ORDER_SETTLE_MS of sandbox time.
 */
import type { SandboxPlugin } from '../../http/plugin.ts';
import { persistentPartsOf } from '../../persistence/persistent-parts.ts';
import { moneyLedgerOf } from '../ledger/money-ledger.ts';
import { legacyV4Handlers } from './handlers.ts';
import { SELL_ORDERS_STATE, SellOrderBook } from './sell-orders.ts';

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    sellOrders?: SellOrderBook;
  }
}

export function legacyV4Plugin(): SandboxPlugin {
  return {
    name: 'legacy-v4',
    setup({ state, registerHandlers }) {
      const book = new SellOrderBook(moneyLedgerOf(state.services));
      state.services.sellOrders = book;
      persistentPartsOf(state.services).register('legacy-v4.sell-orders', SELL_ORDERS_STATE, book);
      registerHandlers(legacyV4Handlers(book));
    },
  };
}
