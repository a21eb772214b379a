/**
 * A TPE search's history for the sweep report (Optuna's optimisation-history plot): each trial's
 * rank metric as a dot, in the order the points were tried, and the best so far as a step line,
 * with the random startup round shaded. It shows what the ranked table cannot: whether the
 * search was still finding better points at its last trials (more --trials may pay) or had
 * settled long before. Failed and skipped trials are crosses on the axis. SVG drawn here; nothing
 * for a full grid or a random search (their order means nothing).
 */
import { valuesText } from '../sweep/sweep-format.ts';
import { score } from '../sweep/sweep-rank.ts';
import type { SweepResult } from '../sweep/sweep.ts';
import { escapeHtml } from './html-parts.ts';
import { axisRange, metricLabel, metricText, metricValue } from './sweep-cells.ts';

const e = escapeHtml;
const W = 680;
const H = 220;
const PAD = { left: 58, right: 12, top: 22, bottom: 34 };

export function searchHistoryHtml(result: SweepResult): string {
  const s = result.search;
  if (s?.kind !== 'tpe' || result.entries.length === 0) return '';
  const by = result.rankBy;
  const ran = result.entries.filter((x) => x.trial !== undefined).sort((a, b) => a.trial! - b.trial!);
  const off = [...result.failed, ...result.skipped].filter((x) => x.trial !== undefined);
  const ys = ran.map((x) => metricValue(x.metrics, by));
  const { yMin, yMax } = axisRange(ys);
  const n = Math.max(s.trials, 2);
  const px = (trial: number): number => PAD.left + ((trial - 1) / (n - 1)) * (W - PAD.left - PAD.right);
  // Infinities sit at the edge; an n/a (NaN) point has no dot.
  const py = (y: number): number => PAD.top + (1 - (Math.min(yMax, Math.max(yMin, y)) - yMin) / (yMax - yMin)) * (H - PAD.top - PAD.bottom);
  const f = (v: number): string => v.toFixed(1);
  const yb = H - PAD.bottom;

  // The best so far as the ranking sees it: runs to the end only (a stopped run ranks last).
  let best: (typeof ran)[number] | undefined;
  let step = '';
  const dots: string[] = [];
  for (const x of ran) {
    const y = metricValue(x.metrics, by);
    if (x.firstFailure === undefined && !Number.isNaN(score(x.metrics, by)) && (best === undefined || score(x.metrics, by) > score(best.metrics, by))) best = x;
    if (best !== undefined) step += `${step === '' ? 'M' : 'L'}${f(px(x.trial!))},${f(py(metricValue(best.metrics, by)))}`;
    if (Number.isNaN(y)) continue;
    const top = x.rank === 1;
    dots.push(`<circle class="pt${top ? ' best' : ''}${x.firstFailure === undefined ? '' : ' stopped'}" cx="${f(px(x.trial!))}" cy="${f(py(y))}" r="${top ? 5 : 2.5}"><title>${e(`trial ${x.trial}, round ${x.round ?? '?'}: ${valuesText(x.values)}: ${metricLabel(by)} ${metricText(x.metrics, by)}${top ? ' (best)' : ''}`)}</title></circle>`);
  }
  const crosses = off.map((x) => {
    const cx = px(x.trial!);
    const why = 'reason' in x ? `skipped: ${x.reason}` : `failed: ${x.error}`;
    return `<path class="off" d="M${f(cx - 3)},${f(yb - 3)}L${f(cx + 3)},${f(yb + 3)}M${f(cx - 3)},${f(yb + 3)}L${f(cx + 3)},${f(yb - 3)}"><title>${e(`trial ${x.trial}: ${valuesText(x.values)}: ${why}`)}</title></path>`;
  });
  const startup = s.startup === undefined ? '' : `<rect class="startup" x="${PAD.left}" y="${PAD.top}" width="${f(Math.max(0, px(s.startup + 0.5) - PAD.left))}" height="${yb - PAD.top}"><title>round 1: ${s.startup} random startup point(s)</title></rect>`;
  const yLabel = (y: number): string => metricText({ ...result.entries[0]!.metrics, trades: 1, [by]: y }, by);
  const ticks = [1, Math.ceil(n / 4), Math.ceil(n / 2), Math.ceil((3 * n) / 4), s.trials].filter((t, i, all) => t >= 1 && all.indexOf(t) === i).map((t) => `<text x="${f(px(t))}" y="${yb + 14}" text-anchor="middle">${t}</text>`);
  const svg = `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${e(`${metricLabel(by)} by trial`)}">${startup}<text class="ttl" x="${PAD.left}" y="14">${e(`${metricLabel(by)} by trial`)}</text><line class="ax" x1="${PAD.left}" y1="${yb}" x2="${W - PAD.right}" y2="${yb}"/><line class="ax" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${yb}"/>${ticks.join('')}${ys.some(Number.isFinite) ? `<text x="${PAD.left - 4}" y="${PAD.top + 4}" text-anchor="end">${e(yLabel(yMax))}</text><text x="${PAD.left - 4}" y="${yb}" text-anchor="end">${e(yLabel(yMin))}</text>` : ''}<text x="${W - PAD.right}" y="${H - 4}" text-anchor="end" class="muted">trial</text><path class="ln best-so-far" d="${step}"/>${dots.join('')}${crosses.join('')}</svg>`;
  const settled = best?.trial === undefined ? '' : ` The best was found at trial ${best.trial} of ${s.trials}${best.trial > s.trials * 0.8 ? ': late in the search, so more --trials may find better' : ''}.`;
  return `<section id="search-history"><h2>Search history</h2><p class="note">Each trial's ${e(metricLabel(by))} in the order the TPE search tried it (shaded: the random startup round), and the best so far as a line; crosses: failed or skipped.${e(settled)}</p><figure class="line-chart history">${svg}</figure></section>`;
}
