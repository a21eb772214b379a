/** What the engine's internal functions share: injected dependencies and the order index. */
import type { Balances } from '../portfolio/balances.ts';
import type { IdSequence } from './book/id-sequence.ts';
import type { OrderIndex } from './book/order-index.ts';

export interface EngineState {
  readonly balances: Balances;
  readonly feeAccountId: string;
  /** Order and trade ids: the text of position `seq` (id-sequence.ts). */
  readonly orderIds: IdSequence;
  readonly tradeIds: IdSequence;
  /** Every order still retained, by order id. */
  readonly ordersById: OrderIndex;
  /** Orders issued: the next order's seq, its position in `orderIds` (also arrival order: time priority of stops, ordering of queries). */
  seq: number;
  /** Trades issued: the next trade's position in `tradeIds`. */
  tradeSeq: number;
}

/** The EngineState of a new engine: a class rather than an object literal (docs/architecture.md, "Objects made once per run": a backtest makes an engine per run). */
export class EngineStateRecord implements EngineState {
  seq = 0;
  tradeSeq = 0;

  constructor(
    readonly balances: Balances,
    readonly feeAccountId: string,
    readonly orderIds: IdSequence,
    readonly tradeIds: IdSequence,
    readonly ordersById: OrderIndex,
  ) {}
}
