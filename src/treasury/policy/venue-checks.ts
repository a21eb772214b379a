/**
 * The checks of a policy that need the venue (issue 23 "bad input ... named before anything is
 * sent"): every asset it names is one the venue knows, every account a sub-account of this master
 * (spec 4.9 sub-account list), and every withdrawal destination an address of its coin and network
 * (spec 2.8 coin configuration: `networkList[].addressRegex`, `memoRegex`, `withdrawEnable`).
 * Pure: the caller reads the venue (treasury plan, treasury apply, the bot's rebalancer).
 */
import { MASTER } from '../moves.ts';
import type { TreasuryPolicy } from './schema.ts';

/** The parts of a coin configuration (spec 2.8) the check reads. */
export interface CoinNetworks {
  coin: string;
  networkList: { network: string; addressRegex?: string; memoRegex?: string; withdrawEnable?: boolean }[];
}

/** Each withdraw destination against its coin's network: problems as `destinations.NAME...: reason`. */
export function checkDestinations(policy: TreasuryPolicy, coins: readonly CoinNetworks[]): string[] {
  const issues: string[] = [];
  for (const [name, d] of Object.entries(policy.destinations)) {
    if (d.kind !== 'withdraw') continue;
    const coin = coins.find((c) => c.coin === d.coin);
    if (coin === undefined) {
      issues.push(`destinations.${name}.coin: the venue lists no coin ${d.coin}`);
      continue;
    }
    const net = coin.networkList.find((n) => n.network === d.network);
    if (net === undefined) {
      issues.push(`destinations.${name}.network: ${d.coin} has no network ${d.network} (networks: ${coin.networkList.map((n) => n.network).join(', ') || 'none'})`);
      continue;
    }
    if (net.withdrawEnable === false) issues.push(`destinations.${name}.network: withdrawals of ${d.coin} on ${d.network} are disabled at the venue`);
    const address = regexOf(net.addressRegex);
    if (address !== undefined && !address.test(d.address)) issues.push(`destinations.${name}.address: '${d.address}' is not a ${d.coin} address on ${d.network} (does not match ${net.addressRegex})`);
    const memo = regexOf(net.memoRegex);
    if (d.addressTag !== undefined && memo !== undefined && !memo.test(d.addressTag)) issues.push(`destinations.${name}.addressTag: '${d.addressTag}' does not match ${d.coin} ${d.network}'s memo format ${net.memoRegex}`);
  }
  return issues;
}

/** An empty or absent regex checks nothing; one the venue sent malformed checks nothing either (not ours to refuse). */
function regexOf(source: string | undefined): RegExp | undefined {
  if (source === undefined || source === '') return undefined;
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}

/** Assets the venue knows (exchangeInfo base/quote assets, coin configuration) and the master's sub-accounts. */
export interface VenueNames {
  assets: ReadonlySet<string>;
  subAccounts: ReadonlySet<string>;
}

/** Every asset and account the policy names, against the venue: `path: unknown asset 'X'`. */
export function checkNames(policy: TreasuryPolicy, venue: VenueNames): string[] {
  const issues: string[] = [];
  const asset = (path: string, a: string) => {
    if (!venue.assets.has(a)) issues.push(`${path}: unknown asset '${a}': the venue lists no such asset`);
  };
  asset('valuation', policy.valuation);
  for (const [account, a] of Object.entries(policy.accounts)) {
    if (account !== MASTER && !venue.subAccounts.has(account)) {
      issues.push(`accounts.${account}: unknown account: not a sub-account of this master (sub-accounts: ${[...venue.subAccounts].sort().join(', ') || 'none'})`);
    }
    for (const name of Object.keys(a.assets)) asset(`accounts.${account}.assets.${name}`, name);
    if (a.cash !== undefined) asset(`accounts.${account}.cash`, a.cash);
  }
  for (const [kind, table] of [
    ['maxPerMove', policy.limits.maxPerMove],
    ['maxPerDay', policy.limits.maxPerDay],
  ] as const) {
    for (const name of Object.keys(table)) asset(`limits.${kind}.${name}`, name);
  }
  policy.payouts.forEach((p, i) => asset(`payouts.${i}.asset`, p.asset));
  return issues;
}
