/**
 * Each fill told to its strategy once, across crashes and restarts (issue 22 deliverable 3: no
 * fill lost or doubled for the strategies; live/reconcile/untold-fills.ts has the marks).
 *
 * - The kernel's onFill hook (the order manager has applied the fill; the strategy's onFill runs
 *   right after it when the strategy is running): the fill is marked told first, then told. A fill
 *   whose strategy has not started yet (the start-up reconciliation's fills, applied before any
 *   onStart) stays owed. One whose strategy has stopped or failed, or is not hosted here, will
 *   never be told: marked told with the reason, so no later start tells it.
 * - Once the strategies run (`tellOwed`, right after the kernel's start): every fill of the given
 *   runs that is owed and not told, in fill order, is told through `Kernel.tellFill` (the order
 *   manager is not touched: the journal replay or the reconciliation already applied it).
 *
 * A mark that cannot be written is reported and the fill still told: the journal failing must not
 * keep a fill from its strategy now (at worst a later start tells it again).
 */
import { parseClientOrderId } from '../core/orders/client-order-id.ts';
import type { FillOut } from '../core/orders/types.ts';
import type { Kernel } from '../engine/kernel.ts';
import type { Journal } from '../journal/journal.ts';
import { markTold, untoldFills, type UntoldFill } from '../live/reconcile/untold-fills.ts';

export interface FillTellsOptions {
  readonly journal: Journal;
  readonly runId: string;
  /** The kernel (read when a fill comes: the tells object is made before it). */
  readonly kernel: () => Pick<Kernel, 'runner' | 'tellFill'>;
  /** Whose order this is (the client order id's key: live/venue/adopt-order.ts). */
  readonly strategyOf: (clientOrderId: string) => string | undefined;
  readonly now: () => number;
  /** A fill told to `strategy` now (the bot logs it: the line the chaos checks count). */
  readonly told: (strategy: string, fill: FillOut) => void;
  readonly onError: (what: string, e: unknown) => void;
}

export class FillTells {
  constructor(private readonly o: FillTellsOptions) {}

  /** From the kernel's onFill hook: 'told' (marked; the strategy hears of it next) or 'owed' (told once it starts). */
  onFill(strategy: string, fill: FillOut): 'told' | 'owed' {
    const status = this.o.kernel().runner(strategy)?.status;
    if (status === 'created') return 'owed';
    this.mark(fill, status === 'running' ? undefined : notTold(strategy, status));
    this.o.told(strategy, fill);
    return 'told';
  }

  /** After the kernel's start: the owed fills of `runIds` not yet told, told once; how many. */
  tellOwed(runIds: readonly string[]): number {
    let list: UntoldFill[];
    try {
      list = untoldFills(this.o.journal, runIds);
    } catch (e) {
      this.o.onError('reading the fills owed to the strategies', e);
      return 0;
    }
    const kernel = this.o.kernel();
    let n = 0;
    for (const u of list) {
      const fill = fillOut(u);
      const strategy = this.o.strategyOf(u.clientOrderId);
      const status = strategy === undefined ? undefined : kernel.runner(strategy)?.status;
      if (strategy === undefined || status !== 'running') {
        this.mark(fill, notTold(strategy, status));
        continue;
      }
      this.mark(fill);
      this.o.told(strategy, fill);
      kernel.tellFill(strategy, fill);
      n++;
    }
    return n;
  }

  private mark(fill: FillOut, note?: string): void {
    try {
      markTold(this.o.journal, this.o.runId, fill.clientOrderId, fill, this.o.now(), note);
    } catch (e) {
      this.o.onError(`the told mark of fill ${fill.tradeId} (${fill.clientOrderId})`, e);
    }
  }
}

/** Why a fill's told mark says it was never told: no strategy of this bot, one not hosted, or one no longer running. */
function notTold(strategy: string | undefined, status: string | undefined): string {
  return `not told: ${strategy === undefined ? 'no strategy of this bot placed it' : `${strategy} ${status === undefined ? 'is not hosted' : `had ${status}`}`}`;
}

/** The strategy's view of a journaled fill, as the order manager made it when it applied the fill (core/orders/apply-venue-events.ts). */
function fillOut(u: UntoldFill): FillOut {
  const f = u.fill;
  const tag = parseClientOrderId(u.clientOrderId)?.tag;
  return {
    symbol: f.symbol,
    clientOrderId: u.clientOrderId,
    ...(tag === undefined || tag === '' ? {} : { tag }),
    orderId: f.exchangeOrderId ?? '',
    tradeId: f.tradeId,
    side: f.side,
    price: f.price,
    qty: f.qty,
    quoteQty: f.quoteQty,
    commission: f.commission,
    commissionAsset: f.commissionAsset,
    isMaker: f.isMaker,
    orderStatus: u.orderStatus,
    cumulativeQty: u.cumulativeQty,
    time: f.time,
  };
}
