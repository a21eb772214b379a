/**
 * Contracts between the sandbox's parts (HTTP server, matching/state, streams, agents), so they can
 * be built and tested apart. Payload shapes follow protocol notes section 4: ids, times and counts are
 * numbers (ids above 2^53 are carried as decimal strings here and written as bare JSON numbers by the
 * sandbox's serialiser), prices and quantities are decimal strings.
 */

/** A sandbox account (master or virtual sub-account, spec 4.9). `id` is the UID. */
export interface SandboxAccount {
  id: string;
  email: string;
  /** Set for sub-accounts: the master's id. */
  masterId?: string | undefined;
  createdAt: number;
  frozen: boolean;
}

/** Role codes of spec 5.1.4 / notes 8. */
export type ApiKeyRole = 0 | 2 | 3 | 4 | 5 | 6;

export interface ApiKeyRecord {
  apiKey: string;
  secret: string;
  accountId: string;
  name: string;
  /** Empty = every permission (spec 5.1.3: by default a key has access to all secure routes). */
  roles: ApiKeyRole[];
  /** IPs allowed; empty with `ipRestrict` false = any IP. */
  ipList: string[];
  ipRestrict: boolean;
  /** A key that must have a whitelist before use (-1023 when it has none). */
  requiresWhitelist: boolean;
  enabled: boolean;
  createdAt: number;
  /** Merchant keys sign with the merchant scheme (spec 5.4). */
  merchant: boolean;
}

// ---- Market stream events (notes 4). `stream` is the lower-case stream name, e.g. `btcphp@trade`.

export interface TradeEvent {
  e: 'trade';
  E: number;
  s: string;
  t: string;
  p: string;
  q: string;
  b: string;
  a: string;
  T: number;
  m: boolean;
  M: boolean;
}

export interface AggTradeEvent {
  e: 'aggTrade';
  E: number;
  s: string;
  a: string;
  p: string;
  q: string;
  f: string;
  l: string;
  T: number;
  m: boolean;
  M: boolean;
}

export interface KlinePayload {
  t: number;
  T: number;
  s: string;
  i: string;
  f: string;
  L: string;
  o: string;
  c: string;
  h: string;
  l: string;
  v: string;
  n: number;
  x: boolean;
  q: string;
  V: string;
  Q: string;
  B: string;
}

export interface KlineEvent {
  e: 'kline';
  E: number;
  s: string;
  k: KlinePayload;
}

// ---- User data stream events (notes 4.1).

export interface OutboundAccountPositionEvent {
  e: 'outboundAccountPosition';
  E: number;
  u: number;
  B: { a: string; f: string; l: string }[];
  em?: string;
}

export interface BalanceUpdateEvent {
  e: 'balanceUpdate';
  E: number;
  a: string;
  d: string;
  T: number;
  BS:
    | 'CHAIN_DEPOSIT'
    | 'FIAT_DEPOSIT'
    | 'TRADE'
    | 'FEE'
    | 'FIAT_WITHDRAWAL'
    | 'CHAIN_WITHDRAWAL'
    | 'CONVERT'
    | 'DISTRIBUTION'
    | 'P2P_TRANSFER'
    | 'SPOT_TO_CREDIT'
    | 'CREDIT_TO_SPOT'
    | 'VIRTUAL_DISTRIBUTE'
    | 'OTHERS';
  em?: string;
  BI?: string;
}

export interface ExecutionReportEvent {
  e: 'executionReport';
  E: number;
  s: string;
  c: string;
  S: 'BUY' | 'SELL';
  o: string;
  f: string;
  q: string;
  p: string;
  P: string;
  x: 'NEW' | 'CANCELED' | 'REJECTED' | 'TRADE' | 'EXPIRED';
  X: string;
  r: string;
  i: string;
  l: string;
  z: string;
  L: string;
  n: string;
  N: string | null;
  T: number;
  t: string;
  w: boolean;
  m: boolean;
  O: number;
  Z: string;
  Y: string;
  Q: string;
}

export type UserEvent = OutboundAccountPositionEvent | BalanceUpdateEvent | ExecutionReportEvent;

/**
 * Where the exchange core announces what happened; the stream server listens. Market events are
 * keyed by symbol (upper case), user events by account id.
 */
export interface SandboxEventSink {
  /** A public trade happened (one per fill). `aggregateId` groups the fills of one taker order. */
  trade(symbol: string, trade: { id: string; price: string; qty: string; buyerOrderId: string; sellerOrderId: string; time: number; buyerIsMaker: boolean; aggregateId: string }): void;
  /**
   * The book of `symbol` changed at these levels (absolute quantities; "0" removes the level).
   * `updateId`: the book's update id right after this change. An engine that reports several
   * changes of one operation after counting them all must pass it (the book already shows the
   * last id, so reading it would skip ids); without it the book's current id is read.
   */
  bookChanged(symbol: string, change: { bids: [string, string][]; asks: [string, string][]; time: number; updateId?: number | bigint | string }): void;
  user(accountId: string, event: UserEvent): void;
}

/** Listen keys of the user data stream (spec 4.7, notes 4.1): 60 minutes of life, extended by keepalive. */
export interface ListenKeyRegistry {
  /** A new key, or the account's active key extended (notes 4.1, inferred); null past the creation limit (-1026). */
  create(accountId: string, now: number): string | null;
  /** False when the key is unknown or expired (-1125). */
  keepalive(listenKey: string, now: number): boolean;
  close(listenKey: string): boolean;
  accountOf(listenKey: string, now: number): string | undefined;
  /** Fault injection: expire now. */
  expire(listenKey: string): boolean;
}
