/** What the engine's internal functions share: injected dependencies and the order index. */
import type { Balances } from '../portfolio/balances.ts';
import type { OrderIndex } from './order-index.ts';

export interface EngineState {
  readonly balances: Balances;
  readonly feeAccountId: string;
  readonly nextOrderId: () => string;
  readonly nextTradeId: () => string;
  /** Every order still retained, by order id. */
  readonly ordersById: OrderIndex;
  /** Arrival counter (time priority of stops, ordering of queries). */
  seq: number;
}
