/**
 * The helper of the strategy context that avoids a pre-trade denial's reason, when one does: a
 * price off the tick, a quantity off the step or above maxQty, an order below the minimums. Named
 * where an author meets the denial: the DENIED order update's `reason` (runner.ts) and the
 * backtest summary's Denied line.
 */
const HINTS: readonly [RegExp, string][] = [
  [/PRICE_FILTER: \w+ \S+ is not a multiple of tickSize/, 'ctx.instrument().roundPrice() puts a price on the tick'],
  [/LOT_SIZE: quantity \S+ is not a multiple of stepSize/, 'ctx.instrument().roundQty() puts a quantity on the step'],
  [/LOT_SIZE: quantity \S+ is above maxQty/, 'ctx.instrument().capQty() keeps a quantity within maxQty'],
  [/LOT_SIZE: quantity \S+ is below minQty|NOTIONAL: .* is below minNotional/, 'ctx.instrument().meetsMinimums() says whether an order is large enough'],
];

/** The first hint that applies to any of the reasons, else undefined. */
export function denialHint(reasons: readonly string[]): string | undefined {
  for (const [pattern, hint] of HINTS) if (reasons.some((r) => pattern.test(r))) return hint;
  return undefined;
}

/** A DENIED update's reason with the helper that avoids it, when one does: `<reason> (hint: <helper>)`. */
export function withDenialHint(reason: string): string {
  const hint = denialHint([reason]);
  return hint === undefined ? reason : `${reason} (hint: ${hint})`;
}
