/** Public surface of core/portfolio: exact balances (free/locked per account per asset) and round trips from fills. */
export { AMOUNT_ONE, AMOUNT_SCALE, formatAmount, parseAmount } from './amount.ts';
export { BalanceEntry, Balances, InsufficientBalanceError } from './balances.ts';
export type { AssetBalance, BalanceSide, BalanceView } from './balances.ts';
export { AmountRangeError, LimbAmount } from './limb-amount.ts';
export { RoundTripBook } from './round-trips.ts';
export type { BookFill, OpenTripRecord, TripRecord } from './round-trips.ts';
