/**
 * The `--kill N` table (issue 22 acceptance: "`npm run chaos -- --kill 20`: 20 of 20 restarts
 * consistent by the same checks"): one line per restart, then the count.
 */
import type { KillRunResult } from './run-kills.ts';

export function formatKills(r: KillRunResult): string {
  const rows = r.restarts.map((x) => [String(x.index), `${x.point} #${x.occurrence}`, x.killedBy === 'point' ? 'at the point' : 'by the parent', x.consistent ? 'consistent' : 'INCONSISTENT', `${x.wallMs} ms`, x.failures.join('; ')]);
  const head = ['#', 'kill point', 'killed', 'verdict', 'wall', 'failures'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(width[i] ?? 0))).join('  ').trimEnd();
  return [
    `Crash recovery, seed ${r.seed}: ${r.consistent} of ${r.restarts.length} restarts consistent (${Math.round(r.wallMs / 1000)} s)`,
    line(head),
    ...rows.map(line),
  ].join('\n');
}
