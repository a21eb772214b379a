/**
 * Per-strategy capital (issue 21 deliverable 3: "per-strategy capital, a sub-ledger the order
 * manager enforces (one strategy cannot spend another's funds)"). One account at the venue, one
 * ledger per strategy given capital: what it owns of each asset, moved by its own fills only (a
 * BUY adds the base and takes the quote, a SELL the reverse, the commission comes off the asset it
 * was charged in). The venue's balance events move the account, never a ledger.
 *
 * What a strategy may still commit (`OrderManager`, pre-trade): its ledger less what its open
 * orders hold (reserve.ts, what each still needs after its fills). A strategy without capital of
 * its own trades the rest of the account: the account's available funds less what every ledger
 * still has free. Without the option nothing changes (the shared account, as before).
 *
 * Exact: Decimals (precision 40) from decimal strings. Market-sized orders are estimated at the
 * last price (reserve.ts); a fill above the estimate can take a ledger below zero, and its
 * strategy is then denied that asset until fills bring it back. A commission charged in an asset
 * the strategy was never given (BNB) shows the same way: negative.
 */
import type { Dec } from '../../money/decimal.ts';
import { D, dec, toWire } from '../../money/decimal.ts';
import type { VenueFillEvent } from '../venue-messages.ts';

/** Strategy name -> asset -> amount (a decimal string, at least 0): each strategy's own funds at the start. */
export type StrategyCapital = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** One asset whose ledgers together claim more than the account holds. */
export interface OverAllocation {
  readonly asset: string;
  readonly allocated: string;
  readonly account: string;
}

const ZERO = new D(0);

export class CapitalLedgers {
  private readonly ledgers = new Map<string, Map<string, Dec>>();
  /** Moves on every fill a ledger takes (hosts cache on it). */
  version = 0;

  /** Throws a RangeError naming `capital.<strategy>.<asset>` and the reason for an amount that is not a decimal of at least 0. */
  constructor(capital: StrategyCapital) {
    for (const [strategy, assets] of Object.entries(capital)) {
      if (strategy === '') throw new RangeError('capital: a strategy name is empty');
      if (assets === null || typeof assets !== 'object') throw new RangeError(`capital.${strategy}: must be an object of asset -> amount`);
      const ledger = new Map<string, Dec>();
      for (const [asset, amount] of Object.entries(assets)) {
        const field = `capital.${strategy}.${asset}`;
        if (asset === '') throw new RangeError(`capital.${strategy}: an asset name is empty`);
        let d: Dec;
        try {
          d = dec(amount, field);
        } catch (e) {
          throw new RangeError((e as Error).message);
        }
        if (d.isNegative()) throw new RangeError(`${field}: ${amount} is below zero`);
        ledger.set(asset, d);
      }
      this.ledgers.set(strategy, ledger);
    }
  }

  /** Whether the strategy has a ledger (capital of its own). */
  has(strategy: string): boolean {
    return this.ledgers.has(strategy);
  }

  strategies(): string[] {
    return [...this.ledgers.keys()];
  }

  /** What the strategy owns of `asset` (zero when the asset is not in its ledger). */
  totalOf(strategy: string, asset: string): Dec {
    return this.ledgers.get(strategy)?.get(asset) ?? ZERO;
  }

  /** The assets in the strategy's ledger, in the order first seen. */
  assetsOf(strategy: string): string[] {
    return [...(this.ledgers.get(strategy)?.keys() ?? [])];
  }

  /** The strategy's ledger as decimal strings (status, journal). Empty for a strategy without one. */
  snapshot(strategy: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [asset, d] of this.ledgers.get(strategy) ?? []) out[asset] = toWire(d);
    return out;
  }

  /** Per asset, every ledger's amount summed. */
  allocated(): Map<string, Dec> {
    const out = new Map<string, Dec>();
    for (const ledger of this.ledgers.values()) for (const [asset, d] of ledger) out.set(asset, (out.get(asset) ?? ZERO).plus(d));
    return out;
  }

  /** The assets where the ledgers together claim more than `accountTotal` (free + locked) holds. */
  overAllocated(accountTotal: (asset: string) => Dec): OverAllocation[] {
    const out: OverAllocation[] = [];
    for (const [asset, sum] of this.allocated()) {
      const have = accountTotal(asset);
      if (sum.gt(have)) out.push({ asset, allocated: toWire(sum), account: toWire(have) });
    }
    return out;
  }

  /**
   * The fill of one of `strategy`'s orders on a symbol of `baseAsset`/`quoteAsset`: base and
   * quote move by the venue's own amounts (qty, quoteQty), the commission comes off its asset.
   * Nothing for a strategy without a ledger.
   */
  applyFill(strategy: string, e: Pick<VenueFillEvent, 'side' | 'qty' | 'quoteQty' | 'commission' | 'commissionAsset'>, baseAsset: string, quoteAsset: string): void {
    const ledger = this.ledgers.get(strategy);
    if (ledger === undefined) return;
    const qty = dec(e.qty, 'fill qty');
    const quote = dec(e.quoteQty, 'fill quoteQty');
    const buy = e.side === 'BUY';
    add(ledger, baseAsset, buy ? qty : qty.negated());
    add(ledger, quoteAsset, buy ? quote.negated() : quote);
    const fee = dec(e.commission, 'fill commission');
    if (!fee.isZero()) add(ledger, e.commissionAsset, fee.negated());
    this.version++;
  }
}

function add(ledger: Map<string, Dec>, asset: string, by: Dec): void {
  ledger.set(asset, (ledger.get(asset) ?? ZERO).plus(by));
}
