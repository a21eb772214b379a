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

export function checkOrder(instrument: Instrument, order: OrderCheckInput, market: MarketContext = {}): OrderCheckResult {
  if (order.symbol !== instrument.symbol) {
    throw new RangeError(`order for ${order.symbol} checked against the rules of ${instrument.symbol}`);
  }
  const violations: FilterViolation[] = [];
  const skipped: SkippedCheck[] = [];
  for (const filter of instrument.filters) {
    const sink: SkipSink = [];
    violations.push(...checkFilter(filter, order, market, sink));
    for (const why of sink) skipped.push({ filterType: filter.filterType, why });
  }
  const rejections = checkOrderRules(instrument, order, market);
  const unknownFilters = [...instrument.unknownFilters];
  return {
    ok: violations.length === 0 && rejections.length === 0,
    complete: skipped.length === 0 && unknownFilters.length === 0,
    violations,
    rejections,
    skipped,
    unknownFilters,
  };
}
