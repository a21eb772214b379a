/**
 * The replay's trades of its strategy: the backtest's fills grouped by client order id, each with
 * the intent that placed it (type, limit price, quantity or quote asked, when). The backtest keeps
 * no order list, so the intents (run-backtest.ts onIntent) are given their client order ids here
 * the way the order manager hands them out: one per place (and per cancel-replace's new order), in
 * order, a sequence per (strategy, tag), whether the checks then pass or not.
 */
import { D } from '../../core/money/decimal.ts';
import { ClientOrderIds } from '../../core/orders/client-order-id.ts';
import type { OrderFields } from '../../core/orders/types.ts';
import type { IntentRecord } from '../record/recorder.ts';
import type { BacktestFill } from '../types.ts';
import type { Trade } from './types.ts';

export function backtestTrades(runId: string, strategy: string, intents: readonly IntentRecord[], fills: readonly BacktestFill[]): Trade[] {
  const ids = new ClientOrderIds(runId);
  const placed = new Map<string, { symbol: string; fields: OrderFields; time: number }>();
  for (const r of intents) {
    if (r.strategy !== strategy) continue;
    const i = r.intent;
    const fields = i.kind === 'place' ? i : i.kind === 'cancelReplace' ? i.order : undefined;
    if (fields === undefined) continue;
    placed.set(ids.next(strategy, fields.tag), { symbol: i.symbol, fields, time: r.time });
  }
  const byOrder = new Map<string, BacktestFill[]>();
  for (const f of fills) {
    const list = byOrder.get(f.clientOrderId);
    if (list === undefined) byOrder.set(f.clientOrderId, [f]);
    else list.push(f);
  }
  const trades: Trade[] = [];
  const seen = new Set<string>();
  for (const [cid, p] of placed) {
    seen.add(cid);
    trades.push(trade(strategy, cid, p.symbol, p.fields, p.time, byOrder.get(cid) ?? []));
  }
  // Fills of an order no intent explains (the ids did not line up): still trades, their fields from the fills.
  for (const [cid, list] of byOrder) {
    if (seen.has(cid)) continue;
    const f = list[0] as BacktestFill;
    trades.push(trade(strategy, cid, f.symbol, { side: f.side, type: f.isMaker ? 'LIMIT' : 'MARKET', tag: f.tag }, undefined, list));
  }
  return trades;
}

function trade(strategy: string, cid: string, symbol: string, fields: OrderFields, placedAt: number | undefined, fills: readonly BacktestFill[]): Trade {
  return {
    strategy,
    symbol,
    clientOrderId: cid,
    ...(fields.tag === undefined || fields.tag === '' ? {} : { tag: fields.tag }),
    side: fields.side,
    type: fields.type,
    limitPrice: fields.price,
    origQty: fields.quantity,
    quoteOrderQty: fields.quoteOrderQty,
    status: statusOf(fields, fills),
    placedAt,
    fills: fills.map((f) => ({ time: f.time, price: f.price, qty: f.qty, quoteQty: f.quoteQty, commission: f.commission, commissionAsset: f.commissionAsset, isMaker: f.isMaker })),
  };
}

/** FILLED when the fills add up to what was asked (a quote-sized order: once it filled), else how far it got. */
function statusOf(fields: OrderFields, fills: readonly BacktestFill[]): string {
  if (fills.length === 0) return 'not filled (expired, cancelled, denied or still open at the end)';
  if (fields.quantity === undefined) return 'FILLED';
  const got = fills.reduce((sum, f) => sum.plus(f.qty), new D(0));
  return got.gte(fields.quantity) ? 'FILLED' : 'PARTIALLY_FILLED';
}
