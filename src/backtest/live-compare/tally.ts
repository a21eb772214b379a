/** Counts over a comparison: trades per side, pairs, differences explained per rule and unexplained. */
import { filled } from './trade-summary.ts';
import type { ExplanationRule, StrategyComparison } from './types.ts';

export interface Tally {
  readonly live: number;
  readonly backtest: number;
  readonly paired: number;
  readonly differences: number;
  readonly unexplained: number;
  /** Explained differences per rule, most frequent first. */
  readonly byRule: readonly [ExplanationRule, number][];
}

export function tally(s: StrategyComparison): Tally {
  let live = 0;
  let backtest = 0;
  let paired = 0;
  let differences = 0;
  let unexplained = 0;
  const rules = new Map<ExplanationRule, number>();
  for (const p of s.pairs) {
    if (filled(p.live)) live++;
    if (filled(p.backtest)) backtest++;
    if (filled(p.live) && filled(p.backtest)) paired++;
    for (const d of p.differences) {
      differences++;
      if (d.explanation === undefined) unexplained++;
      else rules.set(d.explanation.rule, (rules.get(d.explanation.rule) ?? 0) + 1);
    }
  }
  return { live, backtest, paired, differences, unexplained, byRule: [...rules].sort((a, b) => b[1] - a[1]) };
}

/** `10 differences, all explained (market-next-open 8, quote-sized 2)` or `..., 2 unexplained`. */
export function tallyText(t: Tally): string {
  if (t.differences === 0) return 'no differences';
  const rules = t.byRule.map(([r, n]) => `${r} ${n}`).join(', ');
  const head = `${t.differences} difference${t.differences === 1 ? '' : 's'}`;
  if (t.unexplained === 0) return `${head}, all explained by the fill model (${rules})`;
  return `${head}, ${t.unexplained} unexplained${rules === '' ? '' : `, the rest explained (${rules})`}`;
}
