/**
 * The comparison in the terminal: per strategy what was replayed (range, bars, warm-up, fees,
 * balances, fill model and where each came from), the counts, then each trade with a difference:
 * both sides (side, quantity at price, time) and every difference with its explanation, or
 * UNEXPLAINED and why. Trades that match on every field are counted, not listed. Plain text.
 */
import { fmtFillModel, fmtParams, fmtTime } from '../metrics/metrics-format.ts';
import { tally, tallyText } from './tally.ts';
import { priceText, summarize } from './trade-summary.ts';
import type { LiveComparison, StrategyComparison, Trade, TradePair } from './types.ts';

/** A side of a pair, short: `BUY 0.001 @ 3000250 (2 fills)`, or what its order did without a fill. */
export function sideText(t: Trade | undefined): string {
  if (t === undefined) return '-';
  if (t.fills.length === 0) return `${t.side} ${t.type ?? ''} ${t.status === undefined ? 'not filled' : t.status.startsWith('not filled') ? t.status : `not filled (${t.status})`}`.replace(/ +/g, ' ');
  const s = summarize(t);
  return `${t.side} ${s.qty.toFixed()} @ ${priceText(s.price)}${t.fills.length > 1 ? ` (${t.fills.length} fills)` : ''}`;
}

/** `[index, time, symbol, tag, live, backtest]` of a pair: what its table row shows. */
export function pairRow(p: TradePair, index: number): string[] {
  const time = (p.live?.fills[0]?.time ?? p.backtest?.fills[0]?.time ?? p.live?.placedAt ?? p.backtest?.placedAt ?? 0);
  const tag = p.live?.tag ?? p.backtest?.tag ?? '';
  return [String(index), fmtTime(time), p.symbol, tag, sideText(p.live), sideText(p.backtest)];
}

function strategyLines(s: StrategyComparison): string[] {
  const t = tally(s);
  const lines = [
    `== ${s.strategy} on ${s.symbols.join(', ')} ${s.interval} ==`,
    `Params     ${fmtParams(s.params)}`,
    `Replayed   ${fmtTime(s.from)} -> ${fmtTime(s.to)}: ${s.bars} bars recorded by the run, ${s.historyBars} before it as warm-up`,
    `Fees       maker ${s.fees.maker}, taker ${s.fees.taker} (${s.feesFrom})`,
    `Balances   ${Object.entries(s.balances).map(([a, v]) => `${v} ${a}`).join(', ')} (${s.balancesFrom})`,
    `Fill model ${fmtFillModel(s.fillModel)}`,
    `Trades     ${t.live} live, ${t.backtest} backtest, ${t.paired} paired; ${tallyText(t)}`,
  ];
  for (const n of s.notes) lines.push(`Note       ${n}`);
  const shown = s.pairs.map((p, i) => [p, i + 1] as const).filter(([p]) => p.differences.length > 0);
  if (shown.length === 0) {
    lines.push(s.pairs.length === 0 ? 'Neither side traded.' : 'Every trade matches: same time, price, quantity and fees.');
    return lines;
  }
  lines.push('');
  for (const [p, i] of shown) {
    const [n, time, symbol, tag, live, bt] = pairRow(p, i);
    lines.push(`#${n} ${time} ${symbol}${tag === '' ? '' : ` [${tag}]`}: live ${live} | backtest ${bt}`);
    for (const d of p.differences) {
      const verdict = d.explanation !== undefined ? `explained (${d.explanation.rule}): ${d.explanation.text}` : `UNEXPLAINED: ${d.unexplained ?? ''}`;
      lines.push(`    ${d.kind}: ${d.detail}`, `      -> ${verdict}`);
    }
  }
  return lines;
}

export function formatComparison(c: LiveComparison): string[] {
  const span = `${fmtTime(c.startedAt)} -> ${c.endedAt === null ? 'still running' : fmtTime(c.endedAt)}`;
  const lines = [`Live against backtest: run ${c.runId} (${c.runKind}), ${span}${c.exitReason === null ? '' : `, ${c.exitReason}`}`, `Journal    ${c.journal}`];
  for (const s of c.strategies) lines.push('', ...strategyLines(s));
  const all = c.strategies.map(tally);
  const diffs = all.reduce((n, t) => n + t.differences, 0);
  const open = all.reduce((n, t) => n + t.unexplained, 0);
  lines.push('', diffs === 0 ? 'Live and backtest agree trade for trade.' : open === 0 ? `Every one of the ${diffs} differences is explained by the fill model.` : `${open} of the ${diffs} differences are not explained by the fill model: see UNEXPLAINED above.`);
  return lines;
}
