/**
 * Fills each strategy was told of (issue 22 deliverable 2: "fills the venue made vs fills ... the
 * strategies saw"), read from two witnesses of a bot run as a child process (a `--kill` run):
 *
 * - its log: `halyard run` logs every fill it hands a strategy (bot/fill-tells.ts via run-bot.ts:
 *   a pino JSON line `{ strategy, clientOrderId, tradeId, msg: "fill ..." }`). The log of a killed
 *   process may miss its last lines: pino's stderr destination writes asynchronously (pino 10
 *   `pino.destination(2)`: sync false), so a SIGKILL right after a delivery (mid-resync) lost the
 *   lines of fills the strategy had been told of;
 * - the journal: the `fill-told` mark (live/reconcile/untold-fills.ts) is committed just before
 *   the strategy's onFill runs, one per telling (a mark with a `note` is a fill never told).
 *
 * Per strategy and fill the larger count of the two stands: a fill is lost only when neither saw
 * it told, doubled when either saw it told twice. The venue names a fill by its order id (spec 2.5
 * `orderId`), the bot by the client order id: the venue's orders (spec 2.4) join them.
 */
import { parseClientOrderId, runKey } from '../../core/orders/client-order-id.ts';
import type { Journal } from '../../journal/journal.ts';
import { FILL_TOLD } from '../../live/reconcile/untold-fills.ts';
import type { StrategyFill, StrategyFills, VenueOrder } from '../input.ts';

interface FillLine {
  strategy: string;
  clientOrderId: string;
  tradeId: string;
}

function fillLine(line: string): FillLine | undefined {
  if (!line.includes('"msg":"fill ')) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  const o = v as Record<string, unknown>;
  if (typeof o['msg'] !== 'string' || !o['msg'].startsWith('fill ')) return undefined;
  const { strategy, clientOrderId, tradeId } = o;
  if (typeof strategy !== 'string' || typeof clientOrderId !== 'string' || typeof tradeId !== 'string') return undefined;
  return { strategy, clientOrderId, tradeId };
}

/**
 * The fills per strategy in the log text of one or more processes, in order. A fill whose client
 * order id the venue does not list keeps the client id as its order id (`client:<id>`), so it
 * cannot match a venue fill by accident.
 */
export function strategyFillsFromLog(logs: readonly string[], venueOrders: readonly VenueOrder[]): StrategyFills[] {
  const orderIdOf = new Map(venueOrders.map((o) => [o.clientOrderId, o.orderId] as const));
  const by = new Map<string, { orderId: string; tradeId: string }[]>();
  for (const text of logs) {
    for (const line of text.split('\n')) {
      const f = fillLine(line);
      if (f === undefined) continue;
      let list = by.get(f.strategy);
      if (list === undefined) by.set(f.strategy, (list = []));
      list.push({ orderId: orderIdOf.get(f.clientOrderId) ?? `client:${f.clientOrderId}`, tradeId: f.tradeId });
    }
  }
  return [...by].map(([strategy, fills]) => ({ strategy, fills }));
}

/**
 * The fills per strategy the journal's `fill-told` marks say were told (marks with a note were
 * not), in journal order. A mark's strategy is found by its client order id's key among the live
 * runs' strategies (client-order-id.ts `runKey`).
 */
export function strategyFillsFromJournal(journal: Pick<Journal, 'db'>, venueOrders: readonly VenueOrder[]): StrategyFills[] {
  const keys = new Map<string, string>();
  const runs = journal.db.prepare("SELECT id, strategies FROM runs WHERE strategies IS NOT NULL").all() as { id: string; strategies: string }[];
  for (const r of runs) {
    let list: unknown;
    try {
      list = JSON.parse(r.strategies);
    } catch {
      continue;
    }
    if (!Array.isArray(list)) continue;
    for (const s of list) if (s !== null && typeof s === 'object' && typeof (s as { name?: unknown }).name === 'string') keys.set(runKey(r.id, (s as { name: string }).name), (s as { name: string }).name);
  }
  const orderIdOf = new Map(venueOrders.map((o) => [o.clientOrderId, o.orderId] as const));
  const rows = journal.db.prepare('SELECT client_order_id, payload FROM order_events WHERE kind = ? ORDER BY id').all(FILL_TOLD) as { client_order_id: string; payload: string | null }[];
  const by = new Map<string, StrategyFill[]>();
  for (const row of rows) {
    let p: { tradeId?: unknown; note?: unknown };
    try {
      p = JSON.parse(row.payload ?? '{}') as { tradeId?: unknown; note?: unknown };
    } catch {
      continue;
    }
    if (typeof p.tradeId !== 'string' || p.note !== undefined) continue;
    const key = parseClientOrderId(row.client_order_id)?.key;
    const strategy = key === undefined ? undefined : keys.get(key);
    if (strategy === undefined) continue;
    let list = by.get(strategy);
    if (list === undefined) by.set(strategy, (list = []));
    list.push({ orderId: orderIdOf.get(row.client_order_id) ?? `client:${row.client_order_id}`, tradeId: p.tradeId });
  }
  return [...by].map(([strategy, fills]) => ({ strategy, fills }));
}

/** Two witnesses of the same tellings, merged: per strategy and fill, the larger count. */
export function mergeStrategyFills(a: readonly StrategyFills[], b: readonly StrategyFills[]): StrategyFills[] {
  const out = new Map<string, { fills: StrategyFill[]; counts: Map<string, number> }>();
  for (const side of [a, b]) {
    for (const s of side) {
      let entry = out.get(s.strategy);
      if (entry === undefined) out.set(s.strategy, (entry = { fills: [], counts: new Map() }));
      const seen = new Map<string, number>();
      for (const f of s.fills) {
        const k = `${f.orderId}\u0000${f.tradeId}`;
        const n = (seen.get(k) ?? 0) + 1;
        seen.set(k, n);
        // Only what this witness saw beyond what the other one already listed.
        if (n > (entry.counts.get(k) ?? 0)) {
          entry.counts.set(k, n);
          entry.fills.push(f);
        }
      }
    }
  }
  return [...out].map(([strategy, e]) => ({ strategy, fills: e.fills }));
}
