/**
 * The user data stream's payloads once decoded (protocol notes 4.1): readable names, amounts as
 * decimal strings exactly as sent (plain text), ids as decimal strings (order ids exceed 2^53,
 * notes 5.1), times in ms. The decoders (user-payloads.ts) turn a wire frame into one of these or
 * a DecodeError naming the field; everything downstream (the live venue, reconciliation) reads
 * only these types, never the wire's one-letter keys.
 */

/** Notes 4.1 execution types (`x`). */
export type ExecutionType = 'NEW' | 'CANCELED' | 'REJECTED' | 'TRADE' | 'EXPIRED';

/** Spec 3.1 order statuses as a report carries them (`X`). */
export type ReportOrderStatus =
  | 'NEW'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CANCELED'
  | 'PARTIALLY_CANCELED'
  | 'REJECTED'
  | 'EXPIRED';

/** `executionReport`: one order change, or one fill (`executionType` TRADE). */
export interface ExecutionReport {
  readonly eventType: 'executionReport';
  /** `E` */
  readonly eventTime: number;
  /** `s` */
  readonly symbol: string;
  /** `c` */
  readonly clientOrderId: string;
  /** `S` */
  readonly side: 'BUY' | 'SELL';
  /** `o` */
  readonly orderType: string;
  /** `f` */
  readonly timeInForce: string;
  /** `q` */
  readonly quantity: string;
  /** `p` */
  readonly price: string;
  /** `P` */
  readonly stopPrice: string;
  /** `x` */
  readonly executionType: ExecutionType;
  /** `X` */
  readonly orderStatus: ReportOrderStatus;
  /** `r` ('NONE' when none) */
  readonly rejectReason: string;
  /** `i`, lossless */
  readonly orderId: string;
  /** `l` */
  readonly lastQty: string;
  /** `z` */
  readonly cumulativeQty: string;
  /** `L` */
  readonly lastPrice: string;
  /** `n` */
  readonly commission: string;
  /** `N` (null before a fill) */
  readonly commissionAsset: string | null;
  /** `T` (-1 without a trade) */
  readonly transactionTime: number;
  /** `t` as a decimal string; undefined when the wire says -1 (no trade) */
  readonly tradeId: string | undefined;
  /** `w` */
  readonly working: boolean;
  /** `m` */
  readonly maker: boolean;
  /** `O` */
  readonly createdTime: number;
  /** `Z` */
  readonly cumulativeQuoteQty: string;
  /** `Y` */
  readonly lastQuoteQty: string;
  /** `Q` */
  readonly quoteOrderQty: string;
}

/** `outboundAccountPosition`: free and locked of assets that may have changed. */
export interface AccountPosition {
  readonly eventType: 'outboundAccountPosition';
  readonly eventTime: number;
  /** `u`: last account update time */
  readonly lastUpdateTime: number;
  readonly balances: readonly { readonly asset: string; readonly free: string; readonly locked: string }[];
  /** `em`: sub-account e-mail, when present */
  readonly email?: string | undefined;
}

/** `balanceUpdate`: a non-trading change of one asset (`BS`, or `bs` in late 2024). */
export interface BalanceUpdate {
  readonly eventType: 'balanceUpdate';
  readonly eventTime: number;
  readonly asset: string;
  /** `d`: signed delta */
  readonly delta: string;
  /** `T`: clear time */
  readonly clearTime: number;
  /** `BS` or `bs` */
  readonly businessType?: string | undefined;
  readonly email?: string | undefined;
  /** `BI` */
  readonly businessId?: string | undefined;
}

export type UserStreamEvent = ExecutionReport | AccountPosition | BalanceUpdate;
