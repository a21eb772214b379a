/**
 * The venue side of a finished chaos run (issue 22 deliverable 2, "orders the venue holds", "fills
 * the venue made", "final balances"), read over the normal signed REST API with the project's
 * client, so the checks see what any client of the venue would see:
 *
 * - orders: spec 4.5 GET /openapi/v1/historyOrders (canceled, filled or rejected; "when `orderId`
 *   is set, orders with id >= that value are returned") paged up from id 0, plus GET openOrders;
 * - fills: GET /openapi/v1/myTrades ("when `fromId` is set, trades with id >= fromId are
 *   returned") paged up from id 0;
 * - balances: spec 2.7 account `balances`.
 *
 * Ids stay the decimal strings the client's codecs keep (they exceed 2^53 on the real service);
 * the next page starts at the highest id + 1, counted with BigInt so no id is rounded.
 */
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { VenueOrder, VenueState, VenueTrade } from '../input.ts';

export interface VenueCollectOptions {
  /** Rows per page (spec: max 1000). */
  readonly pageSize?: number;
  /** A bound on pages per symbol and list: a venue that pages forever is a bug, not a loop. */
  readonly maxPages?: number;
}

const next = (ids: readonly string[]): string => (ids.reduce((m, id) => (BigInt(id) > m ? BigInt(id) : m), -1n) + 1n).toString();

async function paged<T>(what: string, fetchPage: (fromId: string, limit: number) => Promise<readonly T[]>, idOf: (row: T) => string, o: VenueCollectOptions): Promise<T[]> {
  const limit = o.pageSize ?? 1000;
  const maxPages = o.maxPages ?? 10_000;
  const out: T[] = [];
  let from = '0';
  for (let page = 0; ; page++) {
    if (page >= maxPages) throw new Error(`collect ${what}: still paging after ${maxPages} pages of ${limit}`);
    const rows = await fetchPage(from, limit);
    out.push(...rows);
    if (rows.length < limit) return out;
    const after = next(rows.map(idOf));
    if (BigInt(after) <= BigInt(from)) throw new Error(`collect ${what}: page from id ${from} did not move forward`);
    from = after;
  }
}

/** Every order of `symbols` (history and open; an order listed by both counts once in the checks). */
export async function collectVenueOrders(client: ExchangeClient, symbols: readonly string[], o: VenueCollectOptions = {}): Promise<VenueOrder[]> {
  const out: VenueOrder[] = [];
  for (const symbol of symbols) {
    const history = await paged(`historyOrders ${symbol}`, (orderId, limit) => client.spot.historyOrders({ symbol, orderId, limit }), (r) => r.orderId, o);
    const open = await client.spot.openOrders({ symbol });
    for (const r of [...history, ...open]) out.push({ symbol: r.symbol, orderId: r.orderId, clientOrderId: r.clientOrderId, status: r.status, time: r.time, updateTime: r.updateTime });
  }
  return out;
}

/** Every account trade of `symbols` (spec 2.5). */
export async function collectVenueTrades(client: ExchangeClient, symbols: readonly string[], o: VenueCollectOptions = {}): Promise<VenueTrade[]> {
  const out: VenueTrade[] = [];
  for (const symbol of symbols) {
    const trades = await paged(`myTrades ${symbol}`, (fromId, limit) => client.spot.myTrades({ symbol, fromId, limit }), (t) => t.id, o);
    for (const t of trades) out.push({ symbol: t.symbol, id: t.id, orderId: t.orderId, price: t.price, qty: t.qty, isBuyer: t.isBuyer, time: t.time });
  }
  return out;
}

/** The venue's orders, trades and balances of a finished run. */
export async function collectVenue(client: ExchangeClient, symbols: readonly string[], o: VenueCollectOptions = {}): Promise<VenueState> {
  const orders = await collectVenueOrders(client, symbols, o);
  const trades = await collectVenueTrades(client, symbols, o);
  const account = await client.account.account();
  return { orders, trades, balances: account.balances.map((b) => ({ asset: b.asset, free: b.free, locked: b.locked })) };
}
