/**
 * A restarted bot's per-strategy capital (capital.ts): each ledger starts from the configured
 * amounts and takes again the fills earlier runs journaled for that strategy's orders (client
 * order ids of its key: client-order-id.ts), so a strategy does not get back on every start what
 * it spent before it. Fills made while the bot was down are not here: the start-up reconciliation
 * delivers them to the order manager, which moves the ledger as any fill (applied once: the
 * journaled ones are in its seen ledger).
 *
 * Pure: the host reads the journal and says whose each client order id is.
 */
import type { Instrument } from '../../market/instrument.ts';
import type { CapitalLedgers } from './capital.ts';
import type { VenueFillEvent } from '../venue-messages.ts';

/** A journaled fill: what a ledger reads of it. */
export type ReplayFill = Pick<VenueFillEvent, 'symbol' | 'side' | 'qty' | 'quoteQty' | 'commission' | 'commissionAsset'> & { readonly clientOrderId: string | null };

export interface ReplayResult {
  /** Fills taken, per strategy. */
  readonly applied: Record<string, number>;
  /** Fills of a strategy with a ledger whose symbol is not known now (its assets unknown): not taken. */
  readonly unknownSymbols: string[];
}

export function replayCapital(
  ledgers: CapitalLedgers,
  fills: Iterable<ReplayFill>,
  strategyOf: (clientOrderId: string) => string | undefined,
  instrument: (symbol: string) => Instrument | undefined,
): ReplayResult {
  const applied: Record<string, number> = {};
  const unknown = new Set<string>();
  for (const f of fills) {
    if (f.clientOrderId === null) continue;
    const strategy = strategyOf(f.clientOrderId);
    if (strategy === undefined || !ledgers.has(strategy)) continue;
    const inst = instrument(f.symbol);
    if (inst === undefined) {
      unknown.add(f.symbol);
      continue;
    }
    ledgers.applyFill(strategy, f, inst.baseAsset, inst.quoteAsset);
    applied[strategy] = (applied[strategy] ?? 0) + 1;
  }
  return { applied, unknownSymbols: [...unknown] };
}
