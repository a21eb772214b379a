/**
 * The matching engine as a persistent part (persistence/persistent-parts.ts, key `engine`), in
 * two halves (core/matching/dump/dump.ts): the head (id sequences, last prices, book priority), saved
 * whole each time, and the archive: every account's closed orders and trades, one row per record,
 * written once (an account keeps up to RETAINED_ORDERS of each per symbol), and every open order,
 * one row each, written again only when the order changed (an OpenStamp per stored row tells).
 * The state is saved before every answer that changes it (persistence/durable-answers.ts), so a
 * save must cost what changed, not the whole book: 20,000 resting orders in the head made each
 * save about 7 MB. A file whose head still holds open orders (written before) restores the same.
 * Head and rows are checked by the schemas below when read back, then joined into one dump and
 * restored. Restoring locks the open orders'
 * funds again from the restored balance totals; an order that cannot lock (the balances and the
 * dump disagree) or no longer fits its symbol is logged as a warning naming it, and the sandbox
 * starts without it (a canceled order stays in the history as CANCELED).
 */
import { z } from 'zod';
import { assembleDump, ENGINE_DUMP_VERSION, isOpenKey, OpenStamp } from '../../core/matching/index.ts';
import type { EngineDump, HistoryItem, HistoryRecord, SpotEngine } from '../../core/matching/index.ts';
import { ORDER_TYPES } from '../../core/market/index.ts';
import type { SandboxState } from '../http/route-types.ts';
import { idReservationsOf } from '../persistence/id-reservations.ts';
import { persistentPartsOf } from '../persistence/persistent-parts.ts';
import { zAmount, zTime } from '../persistence/schema-kit.ts';

const zId = z.string().regex(/^(0|[1-9][0-9]*)$/, 'expected a decimal id');

const orderSchema = z.strictObject({
  orderId: zId,
  clientOrderId: z.string().nullable(),
  side: z.enum(['BUY', 'SELL']),
  type: z.enum(ORDER_TYPES),
  timeInForce: z.enum(['GTC', 'IOC', 'FOK']),
  stpFlag: z.enum(['CB', 'CN', 'CO']),
  price: zAmount,
  stopPrice: zAmount,
  origQty: zAmount,
  origQuoteOrderQty: zAmount,
  executedQty: zAmount,
  cummulativeQuoteQty: zAmount,
  status: z.enum(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'EXPIRED']),
  time: zTime,
  updateTime: zTime,
  isWorking: z.boolean(),
  locks: z.boolean(),
});

const tradeSide = z.strictObject({ accountId: z.string(), orderId: zId }).nullable();
const tradeSchema = z.strictObject({ id: zId, price: zAmount, qty: zAmount, time: zTime, buyerIsMaker: z.boolean(), buyer: tradeSide, seller: tradeSide, makerFee: zAmount, takerFee: zAmount });

const symbolSchema = z.strictObject({
  symbol: z.string(),
  lastPrice: zAmount.nullable(),
  updateId: z.number().int().nonnegative(),
  bids: z.array(zId),
  asks: z.array(zId),
  accounts: z.array(z.strictObject({ accountId: z.string(), open: z.array(orderSchema), closed: z.array(orderSchema), trades: z.array(zId) })),
  trades: z.array(tradeSchema),
});

/** One archived history record: a closed order, or a trade as one account keeps it. */
export const ENGINE_RECORD: z.ZodType<HistoryRecord> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('order'), symbol: z.string(), accountId: z.string(), order: orderSchema }),
  z.strictObject({ kind: z.literal('open'), symbol: z.string(), accountId: z.string(), order: orderSchema }),
  z.strictObject({ kind: z.literal('trade'), symbol: z.string(), accountId: z.string(), trade: tradeSchema }),
]);

export const ENGINE_STATE: z.ZodType<EngineDump> = z.strictObject({
  version: z.literal(ENGINE_DUMP_VERSION),
  orderIds: z.strictObject({ first: zId, next: zId }),
  tradeIds: z.strictObject({ first: zId, next: zId }),
  symbols: z.array(symbolSchema),
});

/**
 * Order and trade ids kept reserved ahead of the next one, checked at the start of each engine
 * operation (core/matching/book/id-sequence.ts `ahead`): an operation needs a new reservation in its
 * middle only when it makes more trades than this.
 */
const ID_LOW_WATER = 1000;

/** Register the engine and its id sequences; call it where the engine is made (before the sandbox restores state). */
export function persistEngine(state: Pick<SandboxState, 'services' | 'clock' | 'log'>, engine: SpotEngine): void {
  // Reserved ahead of use (persistence/id-reservations.ts); the marks are applied after restoreState.
  for (const kind of ['order', 'trade'] as const) {
    idReservationsOf(state.services).register(`engine.${kind}s`, {
      continueFrom: (from) => engine.continueIds(kind, from),
      reserveWith: (reserve) => engine.reserveIds(kind, reserve, ID_LOW_WATER),
    });
  }
  // Open orders' rows as the store holds them (by key), and those built by the dump in progress.
  const stamps = new Map<number, OpenStamp>();
  let built = new Map<number, OpenStamp>();
  let pruneAt = 1000;
  persistentPartsOf(state.services).registerArchiving<EngineDump, HistoryRecord, HistoryItem>('engine', ENGINE_STATE, ENGINE_RECORD, {
    dumpState: () => {
      // A dump begins (a failed one's stamps are never committed).
      built = new Map();
      return engine.exportHead({ openOrders: false });
    },
    archive: (visit) => {
      engine.visitHistory(visit);
      engine.visitOpen(visit);
    },
    changed: (key, item) => isOpenKey(key) && stamps.get(key)?.same(item) !== true,
    record: (key, item) => {
      if (isOpenKey(key)) built.set(key, new OpenStamp(item));
      return engine.historyRecord(key, item);
    },
    committed: () => {
      for (const [key, stamp] of built) stamps.set(key, stamp);
      built = new Map();
      // Stamps of orders no longer open (their rows were dropped) go now and then, not on every save.
      if (stamps.size > pruneAt) {
        const open = new Set<number>();
        engine.visitOpen((key) => open.add(key));
        for (const key of stamps.keys()) if (!open.has(key)) stamps.delete(key);
        pruneAt = 2 * stamps.size + 1000;
      }
    },
    restoreState: (head, records) => {
      const report = engine.restoreState(assembleDump(head, records), state.clock.now());
      // The open orders restored read as their rows do (one canceled at restore is open no more).
      engine.visitOpen((key, item) => stamps.set(key, new OpenStamp(item)));
      for (const d of report.dropped) {
        state.log.warn({ kind: d.kind, symbol: d.symbol, id: d.id, accountId: d.accountId, outcome: d.outcome, reason: d.reason }, `state restore: ${d.kind} ${d.id || d.symbol} ${d.outcome === 'canceled' ? 'canceled' : 'not restored'}: ${d.reason}`);
      }
      state.log.info({ orders: report.orders, openOrders: report.openOrders, trades: report.trades, dropped: report.dropped.length }, 'state restore: matching engine');
    },
  });
}
