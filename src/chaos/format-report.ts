/**
 * The report as a plain-text table for the terminal (issue 22 deliverable 2: "printed as a table
 * and written as JSON"; the JSON is `JSON.stringify(report)`). One row per check with its figure and
 * OK/FAIL, then the details of what failed, then the seed to replay.
 */
import type { ChaosReport, FillKey } from './report.ts';

const SHOWN = 5;

function list<T>(items: readonly T[], show: (item: T) => string): string {
  const head = items.slice(0, SHOWN).map(show).join(', ');
  return items.length > SHOWN ? `${head}, ... (${items.length - SHOWN} more)` : head;
}
const fill = (f: FillKey): string => `order ${f.orderId} trade ${f.tradeId}`;

export function formatReport(r: ChaosReport): string {
  const rows: [string, string, boolean | null][] = [
    ['intents sent / venue orders', `${r.orders.intents} / ${r.orders.venue}`, null],
    ['duplicate orders', String(r.orders.duplicates.length), r.orders.duplicates.length === 0],
    ['unjournaled venue orders', String(r.orders.unjournaled.length), r.orders.unjournaled.length === 0],
    ['venue fills / journal fills', `${r.fills.venue} / ${r.fills.journal}`, null],
    ['lost fills (journal)', String(r.fills.lostFromJournal.length), r.fills.lostFromJournal.length === 0],
    ['lost fills (strategies)', String(r.fills.lostFromStrategies.length), r.fills.lostFromStrategies.length === 0],
    ['doubled fills', String(r.fills.doubled.length), r.fills.doubled.length === 0],
    ['phantom fills', String(r.fills.phantom.length), r.fills.phantom.length === 0],
    ['balances journal = venue', r.balances.equal ? 'equal' : `${r.balances.mismatches.length} differ`, r.balances.equal],
    ['bans earned (418)', `${r.bans.earned} (injected ${r.bans.injected})`, r.bans.earned === 0],
    ['process crashes', String(r.crashes), r.crashes === 0],
    [
      'longest blind (order open)',
      r.blind.longest === null ? '0 ms' : `${r.blind.longest.ms} ms (total ${r.blind.totalMs} ms)`,
      r.blind.limitMs === null ? null : (r.blind.longest?.ms ?? 0) <= r.blind.limitMs,
    ],
    [
      'faults healed / longest heal',
      `${r.faults.heals.length - r.faults.unhealed} of ${r.faults.heals.length} / ${r.faults.longestHealMs === null ? '-' : `${r.faults.longestHealMs} ms`}`,
      r.faults.unhealed === 0,
    ],
  ];
  const w0 = Math.max(...rows.map((x) => x[0].length));
  const w1 = Math.max(...rows.map((x) => x[1].length));
  const lines = rows.map(([name, value, pass]) => `${name.padEnd(w0)}  ${value.padStart(w1)}  ${pass === null ? '' : pass ? 'OK' : 'FAIL'}`.trimEnd());

  const details: string[] = [];
  if (r.orders.duplicates.length > 0) details.push(`duplicates: ${list(r.orders.duplicates, (d) => `${d.clientOrderId} -> ${d.orderIds.join(' ')}`)}`);
  if (r.orders.unjournaled.length > 0) details.push(`unjournaled: ${list(r.orders.unjournaled, (c) => c)}`);
  if (r.fills.lostFromJournal.length > 0) details.push(`lost from journal: ${list(r.fills.lostFromJournal, fill)}`);
  if (r.fills.lostFromStrategies.length > 0) details.push(`lost from strategies: ${list(r.fills.lostFromStrategies, fill)}`);
  if (r.fills.doubled.length > 0) details.push(`doubled: ${list(r.fills.doubled, (d) => `${fill(d)} x${d.times} (${d.where})`)}`);
  if (r.fills.phantom.length > 0) details.push(`phantom: ${list(r.fills.phantom, fill)}`);
  for (const m of r.balances.mismatches) details.push(`balance ${m.asset} ${m.field}: journal ${m.journal}, venue ${m.venue} (diff ${m.diff})`);
  const unhealed = r.faults.heals.filter((h) => h.healedAt === null);
  if (unhealed.length > 0) details.push(`unhealed: ${list(unhealed, (h) => `${h.kind} from ${h.start}`)}`);

  const verdict = r.ok ? `OK (seed ${r.seed})` : `FAILED: ${r.failures.join('; ')}\nreplay with --seed ${r.seed}`;
  return [...lines, ...(details.length > 0 ? ['', ...details] : []), '', verdict].join('\n');
}
