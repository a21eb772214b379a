/**
 * What the checks after a chaos run read (issue 22 deliverable 2, "The checks after each run"):
 *
 * > orders sent vs orders the venue holds (duplicates: any two venue orders from one intent), fills
 * > the venue made vs fills the journal and the strategies saw (lost, doubled), final balances of
 * > journal vs venue, bans earned, process crashes, the longest time the bot traded blind (stream
 * > not LIVE while an order was open), and the time each fault took to heal.
 *
 * The venue side is shaped after the client's REST answers (spec 2.4 Order from allOrders /
 * historyOrders / openOrders, spec 2.5 Account trade from myTrades, spec 2.7 Account balances),
 * with ids kept as decimal strings (they exceed 2^53 on the real service) and money as decimal
 * strings. The journal side is the journal's own record types (src/journal), narrowed to the
 * fields a check reads, so the runner can hand over store rows as they are. Times are ms.
 */
import type { AssetBalance } from '../journal/balance-store.ts';
import type { FillRecord } from '../journal/fill-store.ts';
import type { OrderRecord } from '../journal/order-store.ts';
import type { RequestRecord } from '../journal/request-store.ts';
import type { StreamHealthChange } from '../journal/runs/stream-health-store.ts';

/** Spec 2.4, from allOrders/historyOrders/openOrders: `time` is when it was placed, `updateTime` its last change. */
export interface VenueOrder {
  symbol: string;
  orderId: string;
  clientOrderId: string;
  status: string;
  time: number;
  updateTime: number;
}

/** Spec 2.5, from myTrades: `id` is the trade id, `orderId` the order it filled. */
export interface VenueTrade {
  symbol: string;
  id: string;
  orderId: string;
  price: string;
  qty: string;
  isBuyer: boolean;
  time: number;
}

export interface VenueState {
  orders: readonly VenueOrder[];
  trades: readonly VenueTrade[];
  /** Spec 2.7 `balances`: `{asset, free, locked}`, decimal strings. */
  balances: readonly AssetBalance[];
}

export interface JournalState {
  /** Every order and cancel request (request-store); a place/cancelReplace client id is one intent. */
  requests: readonly Pick<RequestRecord, 'clientOrderId' | 'kind' | 'attempt' | 'state'>[];
  orders: readonly Pick<OrderRecord, 'clientOrderId' | 'exchangeOrderId' | 'status'>[];
  /** Fills as the run applied them: store rows, or every fill event the run wrote (a doubled write shows here). */
  fills: readonly Pick<FillRecord, 'symbol' | 'tradeId' | 'clientOrderId' | 'exchangeOrderId' | 'side'>[];
  /** The last balance snapshot's lines. */
  balances: readonly AssetBalance[];
  streamHealth: readonly Pick<StreamHealthChange, 'time' | 'stream' | 'to'>[];
}

/** A fill as a strategy was told of it. */
export interface StrategyFill {
  orderId: string;
  tradeId: string;
}

export interface StrategyFills {
  strategy: string;
  fills: readonly StrategyFill[];
}

/** One injected fault: `end` is when the injection stopped (null: still on at the end of the run). */
export interface FaultRecord {
  kind: string;
  start: number;
  end: number | null;
}

/** An HTTP answer the bot got (its status), so 418s can be counted. */
export interface Outcome {
  time: number;
  status: number;
}

export interface ChaosRunInput {
  seed: string;
  /** The run's interval: streams are blind before their first LIVE, orders still open are open until `end`. */
  start: number;
  end: number;
  venue: VenueState;
  journal: JournalState;
  strategies: readonly StrategyFills[];
  faults: readonly FaultRecord[];
  outcomes: readonly Outcome[];
  /** Unexpected process exits (a --kill is not one). */
  crashes: readonly { time: number; reason: string }[];
  options?: ChaosCheckOptions;
}

export interface ChaosCheckOptions {
  /** The stream whose health makes the bot blind to its orders; default `user`. */
  userStream?: string;
  /** Fault kinds that inject 418 themselves: a 418 inside one of them is not a ban the bot earned. Default `['418']`. */
  injectedBanKinds?: readonly string[];
  /** A blind stretch longer than this fails the run; default: the figure is reported, not judged. */
  maxBlindMs?: number;
}
