/**
 * The pre-trade filter engine (spec 2.3, texts 7.5): runs EVERY filter of the instrument and
 * returns every violation, not just the first, plus the checks it could not run (missing market
 * data) and the filter types it does not know. Also runs the spec 7.4 order rules.
 *
 * `ok` means nothing we checked failed; `complete` says whether everything was checked. A caller
 * that must not trade on a partial check (the order manager) requires both.
 */
import { checkFilter } from './filters/index.ts';
import type { Instrument } from './instrument.ts';
import { checkOrderRules } from './order-rules.ts';
import type { RuleViolation } from './order-rules.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkippedCheck, SkipSink } from './types.ts';

export interface OrderCheckResult {
  /** No filter violation and no rule violation. */
  readonly ok: boolean;
  /** No skipped check and no unknown filter: `ok` covers every rule the instrument states. */
  readonly complete: boolean;
  readonly violations: readonly FilterViolation[];
  /** Spec 7.4 matching-engine rejections predicted before sending (see order-rules.ts). */
  readonly rejections: readonly RuleViolation[];
  readonly skipped: readonly SkippedCheck[];
  readonly unknownFilters: readonly string[];
}

const NONE: readonly never[] = Object.freeze([]);

export function checkOrder(instrument: Instrument, order: OrderCheckInput, market: MarketContext = {}): OrderCheckResult {
  if (order.symbol !== instrument.symbol) {
    throw new RangeError(`order for ${order.symbol} checked against the rules of ${instrument.symbol}`);
  }
  // Allocates only for what it finds (the order manager checks every order): one skip sink, reused;
  // empty results share one frozen empty list.
  let violations: FilterViolation[] | undefined;
  let skipped: SkippedCheck[] | undefined;
  const sink: SkipSink = [];
  for (const filter of instrument.filters) {
    const found = checkFilter(filter, order, market, sink);
    for (let i = 0; i < found.length; i++) (violations ??= []).push(found[i] as FilterViolation);
    if (sink.length !== 0) {
      for (const why of sink) (skipped ??= []).push({ filterType: filter.filterType, why });
      sink.length = 0;
    }
  }
  const rejections = checkOrderRules(instrument, order, market);
  const unknownFilters = instrument.unknownFilters.length === 0 ? (NONE as readonly string[]) : [...instrument.unknownFilters];
  return {
    ok: violations === undefined && rejections.length === 0,
    complete: skipped === undefined && unknownFilters.length === 0,
    violations: violations ?? (NONE as readonly FilterViolation[]),
    rejections,
    skipped: skipped ?? (NONE as readonly SkippedCheck[]),
    unknownFilters,
  };
}
