/**
 * Orders by client order id, and their event history (spec 2.4 order, 3.1 statuses). The order row
 * holds the latest state; `order_events` keeps every transition, so a run can be replayed and
 * diffed step by step.
 */
import type { Database, Statement, Transaction } from 'better-sqlite3';
import { fromJsonOrNull, toJsonOrNull } from './json-column.ts';
import { requireMoneyText } from './money-text.ts';
import { guardWrite } from './write-guard.ts';

/** Spec 3.1: the states in which an order can still fill. */
export const ACTIVE_ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED'] as const;

export interface OrderRecord {
  clientOrderId: string;
  runId: string | null;
  symbol: string;
  side: 'BUY' | 'SELL';
  type: string;
  timeInForce: string | null;
  price: string | null;
  stopPrice: string | null;
  qty: string;
  executedQty: string;
  status: string;
  /** Exchange order id: a string, it exceeds 2^53. */
  exchangeOrderId: string | null;
  createdAt: number;
  updatedAt: number;
  raw: unknown;
}

export type NewOrder = Pick<OrderRecord, 'clientOrderId' | 'symbol' | 'side' | 'type' | 'qty' | 'status' | 'createdAt'> &
  Partial<Pick<OrderRecord, 'runId' | 'timeInForce' | 'price' | 'stopPrice' | 'executedQty' | 'exchangeOrderId' | 'raw'>>;

export interface OrderChange {
  status: string;
  updatedAt: number;
  executedQty?: string;
  exchangeOrderId?: string;
  raw?: unknown;
  /** The run that saw the change (an adopted order changes under a later run); default the order's run. */
  runId?: string | null;
}

export interface OrderEvent {
  id: number;
  clientOrderId: string;
  time: number;
  /** `submitted`, `ack`, `update`, `cancel-requested`, `rejected`, ...: the engine owns the vocabulary. */
  kind: string;
  status: string | null;
  payload: unknown;
  /** The run that saw it (schema 5); null for an order outside any run. */
  runId: string | null;
}

export type NewOrderEvent = Omit<OrderEvent, 'id' | 'status' | 'payload' | 'runId'> & { status?: string | null; payload?: unknown; runId?: string | null };

type OrderRow = {
  client_order_id: string;
  run_id: string | null;
  symbol: string;
  side: 'BUY' | 'SELL';
  type: string;
  time_in_force: string | null;
  price: string | null;
  stop_price: string | null;
  qty: string;
  executed_qty: string;
  status: string;
  exchange_order_id: string | null;
  created_at: number;
  updated_at: number;
  raw: string | null;
};
type EventRow = { id: number; client_order_id: string; time: number; kind: string; status: string | null; payload: string | null; run_id: string | null };

export class OrderStore {
  private readonly insertOrder: Statement;
  private readonly updateOrder: Statement;
  private readonly insertEvent: Statement;
  private readonly selectOrder: Statement;
  private readonly selectByExchangeId: Statement;
  private readonly selectByRun: Statement;
  private readonly selectActive: Statement;
  private readonly selectEvents: Statement;
  private readonly selectRunEvents: Statement;
  private readonly insertTx: Transaction<(order: NewOrder) => boolean>;
  private readonly updateTx: Transaction<(clientOrderId: string, change: OrderChange, eventKind: string) => boolean>;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insertOrder = db.prepare(`
      INSERT INTO orders (client_order_id, run_id, symbol, side, type, time_in_force, price, stop_price, qty,
                          executed_qty, status, exchange_order_id, created_at, updated_at, raw)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (client_order_id) DO NOTHING`);
    this.updateOrder = db.prepare(`
      UPDATE orders SET status = ?, updated_at = ?, executed_qty = coalesce(?, executed_qty),
        exchange_order_id = coalesce(?, exchange_order_id), raw = coalesce(?, raw)
      WHERE client_order_id = ?`);
    this.insertEvent = db.prepare(`
      INSERT INTO order_events (client_order_id, time, kind, status, payload, run_id)
      VALUES (@id, @time, @kind, @status, @payload, coalesce(@runId, (SELECT run_id FROM orders WHERE client_order_id = @id)))`);
    this.selectOrder = db.prepare('SELECT * FROM orders WHERE client_order_id = ?');
    this.selectByExchangeId = db.prepare('SELECT * FROM orders WHERE symbol = ? AND exchange_order_id = ?');
    this.selectByRun = db.prepare('SELECT * FROM orders WHERE run_id = ? ORDER BY created_at, client_order_id');
    this.selectActive = db.prepare(
      `SELECT * FROM orders WHERE status IN (${ACTIVE_ORDER_STATUSES.map((s) => `'${s}'`).join(', ')}) AND (@symbol IS NULL OR symbol = @symbol) ORDER BY created_at, client_order_id`,
    );
    this.selectEvents = db.prepare('SELECT * FROM order_events WHERE client_order_id = ? ORDER BY id');
    this.selectRunEvents = db.prepare('SELECT * FROM order_events WHERE run_id = ? ORDER BY time, id');
    this.insertTx = db.transaction((order: NewOrder) => {
      const changes = this.insertOrder.run(
        order.clientOrderId,
        order.runId ?? null,
        order.symbol,
        order.side,
        order.type,
        order.timeInForce ?? null,
        order.price ?? null,
        order.stopPrice ?? null,
        order.qty,
        order.executedQty ?? '0',
        order.status,
        order.exchangeOrderId ?? null,
        order.createdAt,
        order.createdAt,
        toJsonOrNull(order.raw),
      ).changes;
      if (changes === 1) this.event({ clientOrderId: order.clientOrderId, time: order.createdAt, kind: 'created', status: order.status });
      return changes === 1;
    });
    this.updateTx = db.transaction((clientOrderId: string, change: OrderChange, eventKind: string) => {
      const changes = this.updateOrder.run(
        change.status,
        change.updatedAt,
        change.executedQty ?? null,
        change.exchangeOrderId ?? null,
        toJsonOrNull(change.raw),
        clientOrderId,
      ).changes;
      if (changes === 1) this.event({ clientOrderId, time: change.updatedAt, kind: eventKind, status: change.status, payload: change.raw, runId: change.runId });
      return changes === 1;
    });
  }

  /** Record a new order. Idempotent on the client order id: returns false when it was already there. */
  insert(order: NewOrder): boolean {
    requireMoneyText(this.file, () => `order ${order.clientOrderId}`, order, ['price', 'stopPrice', 'qty', 'executedQty']);
    return guardWrite(this.file, () => `order ${order.clientOrderId}`, () => this.insertTx(order));
  }

  /**
   * Move an order to a new state and append the event, in one transaction. Fields left out keep
   * their value. Returns false when the order is unknown.
   */
  update(clientOrderId: string, change: OrderChange, eventKind = 'update'): boolean {
    requireMoneyText(this.file, () => `order ${clientOrderId} -> ${change.status}`, change, ['executedQty']);
    return guardWrite(this.file, () => `order ${clientOrderId} -> ${change.status}`, () => this.updateTx(clientOrderId, change, eventKind));
  }

  /** Append an event without changing the order row (a cancel request, a reject reason). */
  addEvent(event: NewOrderEvent): number {
    return guardWrite(this.file, () => `event of order ${event.clientOrderId}`, () => this.event(event));
  }

  private event(e: NewOrderEvent): number {
    return Number(
      this.insertEvent.run({ id: e.clientOrderId, time: e.time, kind: e.kind, status: e.status ?? null, payload: toJsonOrNull(e.payload), runId: e.runId ?? null })
        .lastInsertRowid,
    );
  }

  get(clientOrderId: string): OrderRecord | undefined {
    const row = this.selectOrder.get(clientOrderId) as OrderRow | undefined;
    return row && toOrder(row);
  }

  byExchangeId(symbol: string, exchangeOrderId: string): OrderRecord | undefined {
    const row = this.selectByExchangeId.get(symbol, exchangeOrderId) as OrderRow | undefined;
    return row && toOrder(row);
  }

  byRun(runId: string): OrderRecord[] {
    return (this.selectByRun.all(runId) as OrderRow[]).map(toOrder);
  }

  /** Orders still NEW or PARTIALLY_FILLED, optionally of one symbol: the reconciler's starting point. */
  active(symbol?: string): OrderRecord[] {
    return (this.selectActive.all({ symbol: symbol ?? null }) as OrderRow[]).map(toOrder);
  }

  events(clientOrderId: string): OrderEvent[] {
    return (this.selectEvents.all(clientOrderId) as EventRow[]).map(toEvent);
  }

  /** The order events a run saw, whichever run placed the order, in time order. */
  eventsByRun(runId: string): OrderEvent[] {
    return (this.selectRunEvents.all(runId) as EventRow[]).map(toEvent);
  }
}

function toEvent(r: EventRow): OrderEvent {
  return { id: r.id, clientOrderId: r.client_order_id, time: r.time, kind: r.kind, status: r.status, payload: fromJsonOrNull(r.payload), runId: r.run_id };
}

function toOrder(r: OrderRow): OrderRecord {
  return {
    clientOrderId: r.client_order_id,
    runId: r.run_id,
    symbol: r.symbol,
    side: r.side,
    type: r.type,
    timeInForce: r.time_in_force,
    price: r.price,
    stopPrice: r.stop_price,
    qty: r.qty,
    executedQty: r.executed_qty,
    status: r.status,
    exchangeOrderId: r.exchange_order_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    raw: fromJsonOrNull(r.raw),
  };
}
