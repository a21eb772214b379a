/**
 * Public surface of core/orders (pure): deterministic client order ids, the order-state reducer
 * (spec 3.1 plus the manager's local states), pre-trade checks, and the synchronous,
 * venue-agnostic OrderManager shared by backtest, sandbox and live.
 */
export { CLIENT_ORDER_ID_PREFIX, ClientOrderIds, MAX_CLIENT_ORDER_ID_LENGTH, clientOrderId, fnv1a32, parseClientOrderId, runKey } from './client-order-id.ts';
export type { ClientOrderIdParts } from './client-order-id.ts';
export { ORDER_STATES, TERMINAL_STATES, isTerminal, reduceOrder, visibleStatus } from './order-state.ts';
export type { OrderProgress, OrderState, OrderTrigger, Reduction } from './order-state.ts';
export { CAPITAL_MESSAGE, preTradeCheck, violationText } from './pre-trade/pre-trade.ts';
export type { Approved, CapitalLimit, Denied, PreTradeContext, PreTradeResult, PreTradeViolation } from './pre-trade/pre-trade.ts';
export { remainingReserve, reserveOf } from './pre-trade/reserve.ts';
export type { Reserve } from './pre-trade/reserve.ts';
export { AccountState } from './account.ts';
export type { FillEffect } from './account.ts';
export { ManagedOrder } from './managed-order.ts';
export { OrderRegistry } from './order-registry.ts';
export { OrderManager } from './order-manager.ts';
export type { AdoptableState, AdoptOrder, AdoptResult } from './adopt.ts';
export { CapitalLedgers } from './capital/capital.ts';
export type { OverAllocation, StrategyCapital } from './capital/capital.ts';
export type { Denial, MarketRefs, OrderManagerOptions, SubmitResult } from './order-manager.ts';
export type { ApplyResult, OrderIssue } from './apply-venue-events.ts';
export type * from './types.ts';
export type * from './venue-messages.ts';
