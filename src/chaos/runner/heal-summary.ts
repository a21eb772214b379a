/**
 * Heal times per fault kind (issue 22 deliverable 2: "the time each fault took to heal"), for the
 * run's summary: how many of each kind, how many healed, the median and the longest heal (ms of
 * sandbox time from the fault's end until every stream the journal tracks was LIVE again).
 */
import type { ChaosReport } from '../report.ts';

export interface KindHeal {
  readonly kind: string;
  readonly faults: number;
  readonly healed: number;
  readonly medianMs: number | null;
  readonly maxMs: number | null;
}

export function healByKind(report: ChaosReport): KindHeal[] {
  const by = new Map<string, { faults: number; times: number[] }>();
  for (const h of report.faults.heals) {
    let k = by.get(h.kind);
    if (k === undefined) by.set(h.kind, (k = { faults: 0, times: [] }));
    k.faults++;
    if (h.healMs !== null) k.times.push(h.healMs);
  }
  return [...by].map(([kind, k]) => {
    const t = [...k.times].sort((a, b) => a - b);
    return { kind, faults: k.faults, healed: t.length, medianMs: t.length === 0 ? null : (t[Math.floor((t.length - 1) / 2)] as number), maxMs: t.length === 0 ? null : (t[t.length - 1] as number) };
  });
}

export function formatHeals(rows: readonly KindHeal[]): string {
  const sec = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);
  return rows.map((r) => `  ${r.kind.padEnd(13)} ${String(r.faults).padStart(4)} injected, ${String(r.healed).padStart(4)} healed, median ${sec(r.medianMs).padStart(8)}, longest ${sec(r.maxMs).padStart(8)}`).join('\n');
}
