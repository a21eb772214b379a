/**
 * Wallet response codecs (spec 2.8, 4.2; notes 5.6, notes 6).
 *
 * Deposit ids are opaque text such as `d_769800519366885376` (notes 5.6), so they use `zIdText`.
 * Amounts, fees and limits are decimal strings; times and confirmation counts numbers.
 */
import { z } from 'zod';
import { zBool, zDec, zIdText, zNum, obj } from './common.ts';

/** Spec 3.2 deposit states (int). */
export const DEPOSIT_STATUS = { PROCESSING: 0, SUCCESS: 1, FAILED: 2, NEED_FILL_DATA: 3 } as const;
/** Spec 3.2 withdrawal states (int). */
export const WITHDRAW_STATUS = { PROCESSING: 0, SUCCESS: 1, FAILED: 2 } as const;

export const zNetwork = obj({
  addressRegex: z.string(),
  memoRegex: z.string(),
  network: z.string(),
  name: z.string(),
  depositEnable: zBool,
  minConfirm: zNum,
  unLockConfirm: zNum,
  withdrawDesc: z.string(),
  withdrawEnable: zBool,
  withdrawFee: zDec,
  withdrawIntegerMultiple: zDec,
  withdrawMax: zDec,
  withdrawMin: zDec,
  sameAddress: zBool,
});
export type Network = z.infer<typeof zNetwork>;

export const zCoinConfig = obj({
  coin: z.string(),
  name: z.string(),
  depositAllEnable: zBool,
  withdrawAllEnable: zBool,
  free: zDec,
  locked: zDec,
  legalMoney: zBool,
  networkList: z.array(zNetwork),
  // Notes 6 extras; their types are unknown (notes 10), read as numeric strings.
  transferPrecision: zDec.optional(),
  transferMinQuantity: zDec.optional(),
});
export type CoinConfig = z.infer<typeof zCoinConfig>;

export const zDepositAddress = obj({ coin: z.string(), address: z.string(), addressTag: z.string() });
export type DepositAddress = z.infer<typeof zDepositAddress>;

export const zWithdrawApplied = obj({ id: zIdText });

export const zDepositRecord = obj({
  id: zIdText,
  amount: zDec,
  coin: z.string(),
  network: z.string(),
  status: zNum,
  address: z.string(),
  addressTag: z.string(),
  txId: z.string(),
  insertTime: zNum,
  confirmNo: zNum,
});
export type DepositRecord = z.infer<typeof zDepositRecord>;

export const zWithdrawRecord = obj({
  id: zIdText,
  amount: zDec,
  transactionFee: zDec,
  coin: z.string(),
  status: zNum,
  address: z.string(),
  addressTag: z.string(),
  txId: z.string(),
  applyTime: zNum,
  network: z.string(),
  withdrawOrderId: z.string(),
  info: z.string(),
  confirmNo: zNum,
});
export type WithdrawRecord = z.infer<typeof zWithdrawRecord>;

/** Notes 6 withdraw address whitelist entry: withdraw apply accepts only listed combinations. */
export const zWhitelistedAddress = obj({
  address: z.string(),
  addressName: z.string(),
  addressTag: z.string(),
  coin: z.string(),
  network: z.string(),
});
export type WhitelistedAddress = z.infer<typeof zWhitelistedAddress>;
