/**
 * The venue's rejection texts, verbatim: spec 7.4 (matching engine, with -1010/-2010/-2011) and
 * 7.5 (filter failures). Kept as data so the sandbox emits exactly what pre-trade checks predict.
 */

/** Spec 7.5. MAX_NUM_ALGO_ORDERS fails with the text `MAX_ALGO_ORDERS`, not its filterType. */
export const FILTER_FAILURE = {
  PRICE_FILTER: 'Filter failure: PRICE_FILTER',
  LOT_SIZE: 'Filter failure: LOT_SIZE',
  MIN_NOTIONAL: 'Filter failure: MIN_NOTIONAL',
  MAX_NUM_ORDERS: 'Filter failure: MAX_NUM_ORDERS',
  MAX_NUM_ALGO_ORDERS: 'Filter failure: MAX_ALGO_ORDERS',
  BROKER_MAX_NUM_ORDERS: 'Filter failure: BROKER_MAX_NUM_ORDERS',
  BROKER_MAX_ALGO_ORDERS: 'Filter failure: BROKER_MAX_ALGO_ORDERS',
  ICEBERG_PARTS: 'Filter failure: ICEBERG_PARTS',
} as const;

/** The 7.5 text for a filterType; filters without a listed text use `Filter failure: <FILTERTYPE>`. */
export function filterFailureMessage(filterType: string): string {
  // hasOwn, not `in` or a bare lookup: 'toString' must not find Object.prototype.
  const listed = Object.hasOwn(FILTER_FAILURE, filterType) ? (FILTER_FAILURE as Record<string, string>)[filterType] : undefined;
  return listed ?? `Filter failure: ${filterType}`;
}

/** Spec 7.4, verbatim (including the venue's own spacing and word order). */
export const ENGINE_MESSAGE = {
  unknownOrder: 'Unknown order sent.',
  duplicateOrder: 'Duplicate order sent.',
  marketClosed: 'Market is closed.',
  insufficientBalance: 'Account has insufficient balance for requested action.',
  marketNotSupported: 'Market orders are not supported for this symbol.',
  icebergNotSupported: 'Iceberg orders are not supported for this symbol.',
  stopLossNotSupported: 'Stop loss orders are not supported for this symbol.',
  stopLossLimitNotSupported: 'Stop loss limit orders are not supported for this symbol.',
  takeProfitNotSupported: 'Take profit orders are not supported for this symbol.',
  takeProfitLimitNotSupported: 'Take profit limit orders are not supported for this symbol.',
  priceQtyZero: 'Price* QTY is zero or less.',
  icebergExceedsQty: 'IcebergQty exceeds QTY.',
  actionDisabled: 'This action disabled is on this account.',
  unsupportedCombination: 'Unsupported order combination',
  wouldTriggerImmediately: 'Order would trigger immediately.',
  cancelInvalid: 'Cancel order is invalid. Check origClOrdId and orderId.',
  wouldMatchAndTake: 'Order would immediately match and take.',
} as const;
