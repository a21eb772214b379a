/**
 * Sub-account response codecs (spec 2.12; deposit shapes of spec 2.8 for the sub-account wallet
 * endpoints of spec 4.9).
 */
import { z } from 'zod';
import { zBool, zDec, zIdText, zNum, obj } from './common.ts';

export const zSubAccount = obj({
  /** ms; a string in the list sample, a number in the create answer. */
  createTime: zNum,
  email: z.string(),
  isFreeze: zBool,
});
export type SubAccount = z.infer<typeof zSubAccount>;

export const zSubAccountList = obj({ subAccounts: z.array(zSubAccount), total: zNum });

export const zBalance = obj({ asset: z.string(), free: zDec, locked: zDec });
export const zSubAccountAssets = obj({ balances: z.array(zBalance) });

/** `result` true means the transfer succeeded. */
export const zTransferAck = obj({ clientTransferId: zIdText, result: zBool });

export const SUB_TRANSFER_STATUSES = ['success', 'pending', 'failed'] as const;

export const zSubTransfer = obj({
  clientTranId: zIdText,
  fromEmail: z.string(),
  toEmail: z.string(),
  asset: z.string(),
  amount: zDec,
  createdAt: zNum,
  status: z.enum(SUB_TRANSFER_STATUSES),
});
export type SubTransfer = z.infer<typeof zSubTransfer>;

export const zSubTransferList = obj({ result: z.array(zSubTransfer), total: zNum });

/** Role codes (spec 5.1.4): 0 READ_ONLY, 2 TRADE_ONLY, 3 CONVERT_ONLY, 4 CRYPTO_WALLET_ONLY, 5 FIAT_ONLY, 6 ACCOUNT_ONLY. */
export const zIpRestriction = obj({
  apikey: z.string(),
  ipList: z.array(z.string()),
  ipRestrict: zBool,
  /** Comma-separated role codes, e.g. "2,3,4,5,6". */
  role: z.string(),
  updateTime: zNum,
});
export type IpRestriction = z.infer<typeof zIpRestriction>;

/** Sub-account deposit addresses and records have the wallet's shapes (spec 2.8). */
export { zDepositAddress, zDepositRecord } from './wallet.ts';

export const COLLECTION_STATUSES = ['INIT', 'SUCCESS', 'PARTIAL_SUCCESS', 'PROCESSING', 'FAILED'] as const;

export const zFundCollection = obj({
  clientRequestId: z.string(),
  status: z.enum(COLLECTION_STATUSES),
  comment: z.string().nullish(),
});
export type FundCollection = z.infer<typeof zFundCollection>;

export const zAssetTransaction = obj({
  txId: z.string(),
  /** e.g. CHAIN_WITHDRAWAL. */
  bizSubject: z.string(),
  tokenId: z.string(),
  status: z.string(),
  /** Signed balance change. */
  changed: zDec,
  time: zNum,
});

export const zAssetTransactionPage = obj({
  transfers: z.array(zAssetTransaction),
  meta: obj({ has_next: zBool, next_page: zNum.nullish(), previous_page: zNum.nullish() }),
});
