/**
 * A live run's trades of one strategy, from the journal: the orders the run placed (orders table,
 * run id), the strategy's by the key its client order ids carry (core/orders/client-order-id.ts:
 * run id and strategy name), each with the command that left (request store: quantity or
 * quoteOrderQty as asked) and its fills (fill store). Orders adopted from an earlier run carry
 * that run's key and are not this strategy's decisions in this run: left out.
 */
import { parseClientOrderId, runKey } from '../../core/orders/client-order-id.ts';
import type { Journal } from '../../journal/journal.ts';
import type { Trade } from './types.ts';

export interface LiveTrades {
  readonly trades: Trade[];
  /** Why an order ended without a fill (reject or cancel reason), by client order id. */
  readonly reasons: Map<string, string>;
}

type OrderFieldsLike = { quantity?: unknown; quoteOrderQty?: unknown; order?: OrderFieldsLike };

export function liveTrades(journal: Journal, runId: string, strategy: string): LiveTrades {
  const key = runKey(runId, strategy);
  const requests = new Map<string, OrderFieldsLike>();
  for (const r of journal.requests.byRun(runId)) {
    if (r.kind === 'cancel') continue;
    const cmd = (r.request ?? {}) as OrderFieldsLike;
    requests.set(r.clientOrderId, cmd.order ?? cmd);
  }
  const trades: Trade[] = [];
  const reasons = new Map<string, string>();
  for (const o of journal.orders.byRun(runId)) {
    const parsed = parseClientOrderId(o.clientOrderId);
    if (parsed?.key !== key) continue;
    const asked = requests.get(o.clientOrderId);
    const quote = typeof asked?.quoteOrderQty === 'string' ? asked.quoteOrderQty : undefined;
    const quantity = typeof asked?.quantity === 'string' ? asked.quantity : quote === undefined ? o.qty : undefined;
    const reason = (o.raw as { reason?: unknown } | null)?.reason;
    if (typeof reason === 'string') reasons.set(o.clientOrderId, reason);
    trades.push({
      strategy,
      symbol: o.symbol,
      clientOrderId: o.clientOrderId,
      ...(parsed.tag === '' ? {} : { tag: parsed.tag }),
      side: o.side,
      type: o.type,
      limitPrice: o.price ?? undefined,
      origQty: quantity,
      quoteOrderQty: quote,
      status: o.status,
      placedAt: o.createdAt,
      fills: journal.fills.list({ clientOrderId: o.clientOrderId }).map((f) => ({
        time: f.time,
        price: f.price,
        qty: f.qty,
        quoteQty: f.quoteQty,
        commission: f.commission,
        commissionAsset: f.commissionAsset,
        isMaker: f.isMaker,
      })),
    });
  }
  return { trades, reasons };
}
