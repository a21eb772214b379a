/**
 * Final balances of journal vs venue (issue 22 deliverable 2), exact: spec 2.7 balances are decimal
 * strings and are compared as decimals (decimal.js), so '1.10' equals '1.1' and a 1e-8 drift is a
 * mismatch. An asset one side does not list is 0 there (an account may omit empty assets).
 */
import { Decimal } from 'decimal.js';
import type { AssetBalance } from '../journal/balance-store.ts';
import { decimalOf } from './decimal-text.ts';
import type { ChaosRunInput } from './input.ts';
import type { BalanceMismatch, ChaosReport } from './report.ts';

type Amounts = { free: Decimal; locked: Decimal };

function byAsset(lines: readonly AssetBalance[], side: string): Map<string, Amounts> {
  const out = new Map<string, Amounts>();
  lines.forEach((b, i) => {
    const at = `${side}.balances[${i}] (${b.asset})`;
    if (out.has(b.asset)) throw new RangeError(`${at}: asset listed twice`);
    out.set(b.asset, { free: decimalOf(b.free, `${at}.free`), locked: decimalOf(b.locked, `${at}.locked`) });
  });
  return out;
}

export function checkBalances(input: ChaosRunInput): ChaosReport['balances'] {
  const journal = byAsset(input.journal.balances, 'journal');
  const venue = byAsset(input.venue.balances, 'venue');
  const zero = new Decimal(0);
  const mismatches: BalanceMismatch[] = [];
  for (const asset of [...new Set([...journal.keys(), ...venue.keys()])].sort()) {
    for (const field of ['free', 'locked'] as const) {
      const j = journal.get(asset)?.[field] ?? zero;
      const v = venue.get(asset)?.[field] ?? zero;
      if (!j.eq(v)) mismatches.push({ asset, field, journal: j.toFixed(), venue: v.toFixed(), diff: j.minus(v).toFixed() });
    }
  }
  return { equal: mismatches.length === 0, mismatches };
}
