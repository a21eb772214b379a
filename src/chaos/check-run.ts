/**
 * The checks after a chaos run (issue 22 deliverable 2, "The checks after each run"; the quote and
 * the venue data read are in input.ts): pure, so the runner only gathers the venue's answers, the
 * journal's rows, what the strategies were told and the fault log, and a failing seed's data can be
 * checked again without a run. `ok` when every count is 0, balances are equal, and the longest blind
 * stretch is within the limit when one is set.
 */
import { checkBalances } from './balances-check.ts';
import { checkBlind } from './blind-check.ts';
import { checkBans, checkHeals } from './faults-check.ts';
import { checkFills } from './fills-check.ts';
import type { ChaosRunInput } from './input.ts';
import { checkOrders } from './orders-check.ts';
import type { ChaosReport } from './report.ts';
import { validateInput } from './validate-input.ts';

export function checkRun(input: ChaosRunInput): ChaosReport {
  validateInput(input);
  const orders = checkOrders(input);
  const fills = checkFills(input);
  const balances = checkBalances(input);
  const bans = checkBans(input);
  const blind = checkBlind(input);
  const faults = checkHeals(input);
  const crashes = input.crashes.length;

  const failures: string[] = [];
  const count = (n: number, what: string): void => {
    if (n > 0) failures.push(`${n} ${what}`);
  };
  count(orders.duplicates.length, 'intent(s) placed more than once at the venue');
  count(orders.unjournaled.length, 'venue order(s) never journaled');
  count(fills.lostFromJournal.length, 'venue fill(s) missing from the journal');
  count(fills.lostFromStrategies.length, 'venue fill(s) no strategy was told of');
  count(fills.doubled.length, 'fill(s) applied more than once');
  count(fills.phantom.length, 'journal fill(s) the venue never made');
  count(balances.mismatches.length, 'balance line(s) differ between journal and venue');
  count(bans.earned, 'ban(s) (418) earned');
  count(crashes, 'process crash(es)');
  count(faults.unhealed, 'fault(s) never healed');
  if (blind.limitMs !== null && blind.longest !== null && blind.longest.ms > blind.limitMs) {
    failures.push(`blind for ${blind.longest.ms} ms with an order open (limit ${blind.limitMs} ms)`);
  }
  return { seed: input.seed, ok: failures.length === 0, failures, orders, fills, balances, bans, crashes, blind, faults };
}
