/**
 * What a plan is made from, read from the venue through the typed client (issue 23 deliverable 2):
 * the master's balances (spec 4.3 account, 2.7), each policy sub-account's (spec 4.9 sub-account
 * asset, 2.12), book tickers for prices (spec 4.4, mids; prices.ts), the symbols' assets
 * (exchangeInfo), the convert desk's pairs (spec 4.6, 2.10) and the coin configuration (spec 4.2,
 * 2.8). exchangeInfo may come from a cache the caller keeps (the bot's rebalancer). The policy's names and destinations are checked against what was read (venue-checks.ts):
 * an unknown asset or account, or an address that is not one of its coin and network, is a
 * ConfigError naming each before anything is planned or sent. Reads only.
 */
import { D } from '../../core/money/decimal.ts';
import { ConfigError } from '../../config/errors.ts';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import { MASTER } from '../moves.ts';
import type { TreasuryPolicy } from '../policy/schema.ts';
import { checkDestinations, checkNames, type CoinNetworks } from '../policy/venue-checks.ts';
import { pricesFromTickers, type SymbolAssets } from './prices.ts';
import type { Balances, ConvertPairTerms, PlanInput } from './types.ts';

export interface ReadOptions {
  now: () => number;
  /** Names the policy in errors (its file). */
  source?: string;
  internalOnly?: boolean;
  movedToday?: Record<string, string>;
  frozen?: ReadonlyMap<string, string>;
  /** Skip the coin configuration (and the destination check): the bot never withdraws. */
  skipWallet?: boolean;
  /**
   * Where exchangeInfo comes from (default: the venue, each call). The bot passes its run's cache
   * (src/treasury/bot/info-cache.ts); `fresh` is asked once when the copy given does not explain a
   * ticker's symbol or an asset of the policy (a listing newer than the copy).
   */
  exchangeInfo?: (fresh: boolean) => Promise<unknown>;
}

export interface ReadInputs extends PlanInput {
  coins: readonly CoinNetworks[];
  subAccounts: readonly string[];
}

export async function readPlanInputs(client: ExchangeClient, policy: TreasuryPolicy, o: ReadOptions): Promise<ReadInputs> {
  const subsWanted = Object.keys(policy.accounts).filter((a) => a !== MASTER).sort();
  const readInfo = o.exchangeInfo ?? (() => client.general.exchangeInfo());
  const [info, account, tickers, pairsBody, subList, coins] = await Promise.all([
    readInfo(false),
    client.account.account(),
    client.market.bookTicker(),
    client.convert.getSupportedTradingPairs(),
    subsWanted.length > 0 ? client.subAccount.list({ limit: 200 }) : Promise.resolve({ subAccounts: [], total: 0 }),
    o.skipWallet === true ? Promise.resolve([]) : client.wallet.coinConfig(),
  ]);
  const asOf = o.now();
  const subAccounts = subList.subAccounts.map((s) => s.email);
  const list = Array.isArray(tickers) ? tickers : [tickers];
  const namesOf = (i: unknown) => {
    const symbols = symbolsOf(i);
    const assets = new Set<string>([...symbols.flatMap((s) => [s.baseAsset, s.quoteAsset]), ...coins.map((c) => c.coin)]);
    return { symbols, issues: checkNames(policy, { assets, subAccounts: new Set(subAccounts) }) };
  };
  let { symbols, issues: nameIssues } = namesOf(info);
  // A kept copy that does not explain what this tick read may predate a listing: read it afresh once.
  if (o.exchangeInfo !== undefined) {
    const listed = new Set(symbols.map((s) => s.symbol));
    if (nameIssues.length > 0 || list.some((t) => !listed.has(t.symbol))) ({ symbols, issues: nameIssues } = namesOf(await readInfo(true)));
  }
  const issues = [...nameIssues, ...(o.skipWallet === true ? [] : checkDestinations(policy, coins as CoinNetworks[]))];
  if (issues.length > 0) throw new ConfigError(o.source ?? 'treasury policy', issues);

  const balances: Balances = { [MASTER]: holdingsOf(account.balances) };
  // Fund collection sweeps every sub-account of the master (spec 4.9), listed in the policy or not:
  // when one sweeps, all are read, so the planner uses it only when nothing else would be taken.
  const sweeps = Object.values(policy.accounts).some((a) => a.sweep);
  for (const email of sweeps ? [...new Set([...subsWanted, ...subAccounts])].sort() : subsWanted) {
    const r = await client.subAccount.asset({ email });
    balances[email] = holdingsOf(r.balances);
  }
  const prices = pricesFromTickers(list.map((t) => ({ symbol: t.symbol, bidPrice: String(t.bidPrice), askPrice: String(t.askPrice) })), symbols, policy.valuation);
  const pairs: ConvertPairTerms[] = (pairsBody.data ?? []).map((p) => ({
    source: p.sourceCurrency,
    target: p.targetCurrency,
    minSourceAmount: String(p.minSourceAmount),
    maxSourceAmount: String(p.maxSourceAmount),
    precision: Number(p.precision),
  }));
  return {
    policy,
    balances,
    prices,
    asOf,
    pairs,
    coins: coins as CoinNetworks[],
    subAccounts,
    ...(o.movedToday !== undefined ? { movedToday: o.movedToday } : {}),
    ...(o.internalOnly !== undefined ? { internalOnly: o.internalOnly } : {}),
    ...(o.frozen !== undefined ? { frozen: o.frozen } : {}),
  };
}

function symbolsOf(info: unknown): SymbolAssets[] {
  return ((info as { symbols?: SymbolAssets[] }).symbols ?? []).map((s) => ({ symbol: s.symbol, baseAsset: s.baseAsset, quoteAsset: s.quoteAsset }));
}

/** Zero balances are left out (they weigh nothing and clutter the plan's id). */
function holdingsOf(rows: readonly { asset: string; free: unknown; locked: unknown }[]): Balances[string] {
  const out: Balances[string] = {};
  for (const r of rows) {
    const free = String(r.free);
    const locked = String(r.locked);
    if (new D(free).isZero() && new D(locked).isZero()) continue;
    out[r.asset] = { free: new D(free).toFixed(), locked: new D(locked).toFixed() };
  }
  return out;
}
