/** Public surface of core/portfolio: exact balances (free/locked per account per asset). */
export { AMOUNT_ONE, AMOUNT_SCALE, formatAmount, parseAmount } from './amount.ts';
export { BalanceEntry, Balances, InsufficientBalanceError } from './balances.ts';
export type { AssetBalance, BalanceSide, BalanceView } from './balances.ts';
export { AmountRangeError, LimbAmount } from './limb-amount.ts';
