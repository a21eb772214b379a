/**
 * Fills each strategy was told of (issue 22 deliverable 2: "fills the venue made vs fills ... the
 * strategies saw"), read from the bot's log: `halyard run` logs every fill it hands a strategy
 * (run-bot.ts `onFill`: a pino JSON line `{ strategy, clientOrderId, tradeId, msg: "fill ..." }`).
 * A bot run as a child process (a `--kill` run) leaves only its log behind, and the log of a
 * killed process still holds every line written before the kill (pino writes stderr
 * synchronously). The venue names a fill by its order id (spec 2.5 `orderId`), the log by the
 * client order id: the venue's orders (spec 2.4) join them.
 */
import type { StrategyFills, VenueOrder } from '../input.ts';

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
