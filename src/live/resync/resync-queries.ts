/**
 * The REST calls a resync makes and their answers, as plain data (the resync stays pure: the
 * adapter runs the queries through the client, planResync says which to make next, and
 * eventsFromResync turns the answers into events). Spec 4.5 and 4.3:
 *
 * - openOrders (weight 10), per symbol or for all ("use care without a symbol");
 * - myTrades (weight 10) of a symbol from a trade id (`fromId`: trades with id >= it, ascending),
 *   `limit` at most 1000; optionally of one order (`orderId`, only with the symbol);
 * - queryOrder (weight 2) by order id, or by client order id (`origClientOrderId`); it may answer
 *   several orders sharing the client id, or -2013 NO_SUCH_ORDER;
 * - account information (weight 10): the balances.
 */
import type { AccountTrade, Order } from '../../exchange/codecs/order.ts';
import type { AccountBalances } from '../events/from-account.ts';

/** Spec 4.5: myTrades `limit` default 500, max 1000. */
export const MAX_TRADES_PAGE = 1000;

export interface OpenOrdersQuery {
  readonly kind: 'openOrders';
  /** Undefined: every symbol. */
  readonly symbol?: string | undefined;
}

export interface MyTradesQuery {
  readonly kind: 'myTrades';
  readonly symbol: string;
  readonly fromId?: string | undefined;
  readonly orderId?: string | undefined;
  readonly limit: number;
}

export interface QueryOrderQuery {
  readonly kind: 'queryOrder';
  readonly symbol: string;
  readonly clientOrderId: string;
  /** Sent instead of the client id when known (it takes precedence at the venue); never for an unknown outcome. */
  readonly orderId?: string | undefined;
}

export interface AccountQuery {
  readonly kind: 'account';
}

export type ResyncQuery = OpenOrdersQuery | MyTradesQuery | QueryOrderQuery | AccountQuery;

export type ResyncAnswer =
  | { readonly kind: 'openOrders'; readonly query: OpenOrdersQuery; readonly orders: readonly Order[] }
  | { readonly kind: 'myTrades'; readonly query: MyTradesQuery; readonly trades: readonly AccountTrade[] }
  /** Found: the order, or several sharing the client id (spec 4.5). */
  | { readonly kind: 'queryOrder'; readonly query: QueryOrderQuery; readonly orders: readonly Order[] }
  /** -2013 NO_SUCH_ORDER (or an empty array). */
  | { readonly kind: 'orderNotFound'; readonly query: QueryOrderQuery; readonly code: number; readonly message: string }
  | { readonly kind: 'account'; readonly query: AccountQuery; readonly account: AccountBalances };

/** One text per distinct query: what was asked already. */
export function queryKey(q: ResyncQuery): string {
  switch (q.kind) {
    case 'openOrders':
      return `openOrders ${q.symbol ?? '*'}`;
    case 'myTrades':
      return `myTrades ${q.symbol} order=${q.orderId ?? '*'} from=${q.fromId ?? '-'} limit=${q.limit}`;
    case 'queryOrder':
      return `queryOrder ${q.symbol} ${q.clientOrderId}`;
    case 'account':
      return 'account';
  }
}
