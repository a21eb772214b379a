/**
 * `halyard treasury history` (issue 23 deliverable 6): every move from the journal with its client
 * id, venue id and final state; a move whose outcome was unknown says how it was resolved (which
 * history was asked, by which id, and what it found). Pure: rows in, lines or JSON out.
 */
import type { MoveRow } from './move-store.ts';

/** One line a person reads: how an unknown outcome was resolved, or undefined when none was. */
export function resolutionText(row: MoveRow): string | undefined {
  const r = row.resolution;
  if (r === null) return row.state === 'unknown' ? 'unknown outcome, not resolved yet: the next apply of the plan looks it up' : undefined;
  const at = new Date(r.at).toISOString();
  return r.found
    ? `unknown outcome resolved: found by ${r.by} (${r.key}) at ${at}; not sent again`
    : `unknown outcome resolved: ${r.by} has nothing with ${r.key} at ${at}; it was not made and was not sent again`;
}

/** What a move moved, in a few words. */
export function whatMoved(row: MoveRow): string {
  const m = row.move;
  switch (m.kind) {
    case 'convert':
      return `${m.sourceAmount} ${m.from} -> ${m.to}${row.received === null ? '' : ` (${row.received} ${m.to})`} in ${m.account}`;
    case 'transfer':
      return `${m.amount} ${m.asset} ${m.from} -> ${m.to}`;
    case 'collect':
      return 'sub-accounts -> master';
    case 'withdraw':
      return `${m.amount} ${m.coin} -> ${m.destination} (${m.network} ${m.address}${m.addressTag === undefined ? '' : ` tag ${m.addressTag}`})`;
    case 'cash-out':
      return `${m.amount} ${m.currency} -> ${m.destination} (${m.channelName} ${m.channelSubject})`;
  }
}

/** The history as text: a header line, then one block per move, oldest plan first. */
export function formatHistory(rows: readonly MoveRow[]): string {
  if (rows.length === 0) return 'no treasury moves in this journal';
  const lines: string[] = [];
  let plan: string | undefined;
  for (const row of rows) {
    if (row.planId !== plan) {
      plan = row.planId;
      lines.push(`plan ${plan}${row.runId === null ? '' : ` (bot run ${row.runId})`}, first journaled ${new Date(row.createdAt).toISOString()}`);
    }
    const venue = row.venueId === null ? 'no venue id' : `venue id ${row.venueId}`;
    lines.push(`  ${row.seq}. ${row.kind.padEnd(8)} ${row.state.toUpperCase().padEnd(9)} client id ${row.clientId}, ${venue}, ${row.attempts} sent: ${whatMoved(row)}`);
    const resolved = resolutionText(row);
    if (resolved !== undefined) lines.push(`       ${resolved}`);
    if (row.error !== null && row.state !== 'succeeded') lines.push(`       ${row.error}`);
  }
  return lines.join('\n');
}

/** The JSON form: each row as journaled, with the resolution line. */
export function historyJson(rows: readonly MoveRow[]): unknown[] {
  return rows.map((row) => ({ ...row, resolutionText: resolutionText(row) ?? null }));
}
