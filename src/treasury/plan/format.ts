/** A plan as `halyard treasury plan` prints it: the bands broken now, the moves in order, what stays outside and why. */
import { leavesVenue, type Move } from '../moves.ts';
import type { PlanResult } from './planner.ts';

export function moveText(m: Move): string {
  switch (m.kind) {
    case 'convert':
      return `convert   ${m.account}: ${m.sourceAmount} ${m.from} -> ${m.to}`;
    case 'transfer':
      return `transfer  ${m.amount} ${m.asset}: ${m.from} -> ${m.to}`;
    case 'collect':
      return 'collect   every sub-account\'s free balances -> master';
    case 'withdraw':
      return `withdraw  ${m.amount} ${m.coin} on ${m.network} to ${m.destination} (${m.address}${m.addressTag ? ` tag ${m.addressTag}` : ''})`;
    case 'cash-out':
      return `cash-out  ${m.amount} ${m.currency} via ${m.channelName}/${m.channelSubject} to ${m.destination}`;
  }
}

export function formatPlan(r: PlanResult, valuation: string, out?: string): string {
  const lines: string[] = [];
  lines.push(`treasury plan ${r.plan.id} (balances and prices as of ${new Date(r.plan.asOf).toISOString()}; valued in ${valuation})`);
  lines.push(r.before.length === 0 ? 'Every account is inside its bands now.' : 'Outside their bands now:');
  for (const b of r.before) lines.push(`  ${b.account} ${b.asset}: ${b.reason}`);
  lines.push(r.plan.moves.length === 0 ? 'No moves.' : `Moves (${r.plan.moves.length}, in order):`);
  r.plan.moves.forEach((m, i) => {
    lines.push(`  ${String(i + 1).padStart(2)}. ${moveText(m)}${leavesVenue(m) ? '   [leaves the venue: needs --approve]' : ''}`);
    lines.push(`      ${m.reason}  (client id ${m.clientId})`);
  });
  if (r.plan.unresolved.length > 0) {
    lines.push('Still outside after these moves:');
    for (const u of r.plan.unresolved) lines.push(`  ${u.account} ${u.asset}: ${u.reason}`);
  } else if (r.plan.moves.length > 0) lines.push('After these moves every account is inside its bands (at these prices).');
  lines.push(`Nothing was sent.${out !== undefined ? ` The plan is in ${out}: \`halyard treasury apply --config FILE --plan ${out}\` carries it out.` : ' --out FILE writes it for `halyard treasury apply --plan FILE`.'}`);
  return lines.join('\n');
}
