/**
 * Account and transfer response codecs (spec 2.7, 2.9, 4.3; notes 6 account extras and api-keys).
 */
import { z } from 'zod';
import { zBool, zDec, zIdText, zNum, obj } from './common.ts';

/** Cash-in / cash-out / withdraw limits of one period (spec 2.7), all decimal strings. */
export const zPeriodLimits = obj({
  cashInLimit: zDec,
  cashInRemaining: zDec,
  cashOutLimit: zDec,
  cashOutRemaining: zDec,
  totalWithdrawLimit: zDec,
  totalWithdrawRemaining: zDec,
});
export type PeriodLimits = z.infer<typeof zPeriodLimits>;

export const zBalance = obj({ asset: z.string(), free: zDec, locked: zDec });
export type Balance = z.infer<typeof zBalance>;

export const zAccount = obj({
  accountType: z.string(),
  canDeposit: zBool,
  canTrade: zBool,
  canWithdraw: zBool,
  balances: z.array(zBalance),
  token: z.string(),
  daily: zPeriodLimits,
  monthly: zPeriodLimits,
  annually: zPeriodLimits,
  updateTime: zNum,
  // Notes 6 extras of the real service.
  email: z.string().optional(),
  enableWithdrawWhitelist: zBool.optional(),
  p2pDaily: zPeriodLimits.optional(),
  p2pMonthly: zPeriodLimits.optional(),
  p2pAnnually: zPeriodLimits.optional(),
});
export type Account = z.infer<typeof zAccount>;

export const zCryptoAccount = obj({
  id: zIdText,
  name: z.string(),
  currency: z.string(),
  balance: zDec,
  pending_balance: zDec,
});
export const zCryptoAccounts = obj({ 'crypto-accounts': z.array(zCryptoAccount) });
export type CryptoAccount = z.infer<typeof zCryptoAccount>;

/** Spec 3.2 transfer v3 states. */
export const TRANSFER_STATUSES = ['pending', 'success', 'failed'] as const;

/** Create-transfer result (spec 2.9). Optional text members may be null when unset. */
export const zCreatedTransfer = obj({
  id: zIdText,
  status: z.string(),
  account: z.string(),
  target_address: z.string(),
  amount: zDec,
  // Meaning not shown in the spec: kept as sent.
  exchange: z.unknown(),
  payment: z.unknown(),
  client_transfer_id: z.string().nullish(),
  message: z.string().nullish(),
  // Failure text, only when status is failed.
  errorMessage: z.string().nullish(),
  customSenderName: z.string().nullish(),
});
export const zCreateTransferResponse = obj({ transfer: zCreatedTransfer });
export type CreatedTransfer = z.infer<typeof zCreatedTransfer>;

export const zTransfer = obj({
  id: zIdText,
  client_transfer_id: z.string().nullish(),
  account: z.string(),
  amount: zDec,
  fee_amount: zDec,
  currency: z.string(),
  sourceAddress: z.string(),
  target_address: z.string(),
  payment: z.unknown(),
  /** 1 transfer in, 2 transfer out. */
  type: zNum,
  status: z.string(),
  message: z.string().nullish(),
  /** ISO 8601 text (spec 1.3 exception), not ms. */
  created_at: z.string(),
});
export type Transfer = z.infer<typeof zTransfer>;

export const zTransferList = obj({
  transfers: z.array(zTransfer),
  meta: obj({
    total_count: zNum,
    // Spec 2.9: ints (the sandbox sends page + 1 and page - 1); null is tolerated, as elsewhere.
    next_page: zNum.nullish(),
    previous_page: zNum.nullish(),
  }),
});
export type TransferList = z.infer<typeof zTransferList>;

/** Notes 6 api-keys entry; `apiType` holds notes 8 labels such as "Enable Spot". */
export const zApiKeyInfo = obj({
  apiKey: z.string(),
  apiName: z.string(),
  apiType: z.array(z.string()),
  createTime: zNum,
  ipAccessRestrictions: z.array(z.string()),
  status: z.string(),
});
export type ApiKeyInfo = z.infer<typeof zApiKeyInfo>;
