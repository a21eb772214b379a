/**
 * Routes the engine's events to their listeners: public trades and book changes to the stream
 * server (which feeds the market-data store first), order updates and balance changes to the
 * account's user data stream. Balance changes are collected per operation and flushed once, so an
 * operation yields one outboundAccountPosition per account, after its executionReports.
 */
import type { BalanceEvent, EngineEvent } from '../../core/matching/index.ts';
import type { BalanceUpdateEvent, SandboxEventSink, UserEvent } from '../contracts.ts';
import { accountPosition, executionReport } from './user-events.ts';

export class EngineEventRouter {
  private pendingBalances: BalanceEvent[] = [];
  private flushScheduled = false;

  constructor(private readonly sink: SandboxEventSink) {}

  handle = (event: EngineEvent): void => {
    switch (event.kind) {
      case 'trade':
        this.sink.trade(event.symbol, {
          id: event.tradeId,
          price: event.price,
          qty: event.qty,
          buyerOrderId: event.buyerOrderId || '0',
          sellerOrderId: event.sellerOrderId || '0',
          time: event.time,
          buyerIsMaker: event.buyerIsMaker,
          aggregateId: event.takerOrderId,
        });
        return;
      case 'book':
        this.sink.bookChanged(event.symbol, {
          bids: event.side === 'bid' ? [[event.price, event.qty]] : [],
          asks: event.side === 'ask' ? [[event.price, event.qty]] : [],
          time: event.time,
          // The engine counts every level of an operation before it reports any (op-context finish).
          updateId: event.updateId,
        });
        return;
      case 'order':
        this.sink.user(event.accountId, executionReport(event) as unknown as UserEvent);
        return;
      case 'balance':
        this.pendingBalances.push(event);
        if (!this.flushScheduled) {
          this.flushScheduled = true;
          queueMicrotask(this.flush);
        }
        return;
    }
  };

  /** Emit the collected balance changes: one outboundAccountPosition per account. */
  flush = (): void => {
    this.flushScheduled = false;
    const changes = this.pendingBalances;
    this.pendingBalances = [];
    const time = changes.reduce((t, c) => Math.max(t, c.time), 0);
    for (const accountId of new Set(changes.map((c) => c.accountId))) {
      this.sink.user(accountId, accountPosition(accountId, changes, time));
    }
  };

  /** A non-trading balance change (deposit, withdrawal, transfer, convert, fiat): notes 4.1 balanceUpdate. */
  balanceUpdate(accountId: string, update: { asset: string; delta: string; time: number; business: BalanceUpdateEvent['BS']; serial?: string }, balance: { free: string; locked: string }): void {
    this.sink.user(accountId, {
      e: 'balanceUpdate',
      E: update.time,
      a: update.asset,
      d: update.delta,
      T: update.time,
      BS: update.business,
      ...(update.serial ? { BI: update.serial } : {}),
    });
    this.sink.user(accountId, { e: 'outboundAccountPosition', E: update.time, u: update.time, B: [{ a: update.asset, f: balance.free, l: balance.locked }] });
  }
}
