/**
 * Engine events -> user data stream events (protocol notes 4.1). An order update becomes an
 * executionReport; the balance changes of one operation become one outboundAccountPosition per
 * account. Ids stay decimal strings in the engine and become bare JSON numbers on the wire.
 */
import type { BalanceEvent, OrderUpdateEvent } from '../../core/matching/index.ts';
import type { ExecutionReportEvent, OutboundAccountPositionEvent } from '../contracts.ts';

/** ExecutionReport with ids as bigint so stringifyWire writes them as numbers (notes 5.1). */
export type WireExecutionReport = Omit<ExecutionReportEvent, 'i' | 't'> & { i: bigint; t: bigint };

export function executionReport(e: OrderUpdateEvent): WireExecutionReport {
  return {
    e: 'executionReport',
    E: e.time,
    s: e.symbol,
    c: e.clientOrderId,
    S: e.side,
    o: e.type,
    f: e.timeInForce,
    q: e.quantity,
    p: e.price,
    P: e.stopPrice,
    x: e.executionType,
    X: e.status,
    r: e.rejectReason,
    i: BigInt(e.orderId),
    l: e.lastQty,
    z: e.cumQty,
    L: e.lastPrice,
    n: e.commission,
    N: e.commissionAsset,
    T: e.tradeId === '-1' ? -1 : e.time,
    t: BigInt(e.tradeId),
    w: e.onBook,
    m: e.isMaker,
    O: e.orderTime,
    Z: e.cumQuoteQty,
    Y: e.lastQuoteQty,
    Q: e.quoteOrderQty,
  };
}

/** One outboundAccountPosition for the assets an operation changed (latest state per asset). */
export function accountPosition(accountId: string, changes: readonly BalanceEvent[], updateTime: number): OutboundAccountPositionEvent {
  const latest = new Map<string, BalanceEvent>();
  for (const c of changes) if (c.accountId === accountId) latest.set(c.asset, c);
  return {
    e: 'outboundAccountPosition',
    E: updateTime,
    u: updateTime,
    B: [...latest.values()].map((b) => ({ a: b.asset, f: b.free, l: b.locked })),
  };
}
