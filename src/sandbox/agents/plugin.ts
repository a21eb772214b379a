/**
 * The sandbox's living market (issue "Sandbox exchange", deliverable 6): market agents that make
 * the book move so a bot has something to trade against.
 *
 *   startSandbox({ plugins: [marketAgentsPlugin({ markets: [{ symbol: 'BTCPHP', source: { type: 'synthetic', startPrice: '3400000' } }] })] })
 *
 * Per configured market: a path (replayed klines or seeded synthetic regimes, path-source.ts), a
 * liquidity agent quoting a ladder around it and a taker trading through the book to it, both
 * ordinary accounts trading on `services.engine`, so trades, klines, tickers, depth and avgPrice
 * come out of the existing plumbing. `setup` opens the sources (a bad file or an unknown symbol
 * stops the sandbox at start); `started` lays out each new market's `historyBars` as closed klines
 * (history.ts), creates and funds the agent accounts and starts one loop per market on the sandbox
 * clock; `close` stops the loops (no timers left) and closes the files.
 *
 * Admin route (with `admin.enabled`):
 *   GET /market-agents   each market's counters: state, source, bars and points played, orders,
 *                        rejections, taker fills, step errors, current path price
 */
import { parseInstruments } from '../../core/market/index.ts';
import { mulberry32 } from '../../core/synthetic/index.ts';
import { defineAdminRoute } from '../admin/admin-registry.ts';
import { exchangeInfoFromConfig } from '../config/exchange-info.ts';
import type { SandboxPlugin } from '../http/plugin.ts';
import type { SandboxState } from '../http/route-types.ts';
import { agentAccounts, type AgentAccounts } from './agent-accounts.ts';
import type { AgentEnv, MarketStats } from './agent-env.ts';
import { parseMarketAgentsConfig, resolveMarkets, type MarketAgentsConfigInput, type ResolvedMarket } from './config.ts';
import { Funding } from './funding.ts';
import { LiquidityAgent } from './liquidity-agent.ts';
import { MarketRules } from './market-rules.ts';
import { runMarket } from './market-runner.ts';
import { MarketStep } from './market-step.ts';
import { seedHistory } from './history.ts';
import { pathPoints } from './path-source.ts';
import { openBarSource, type BarSource } from './sources/index.ts';
import { TakerAgent } from './taker-agent.ts';
import { withDefaultMarkets } from './default-markets.ts';

export interface MarketAgentsService {
  /** A copy of each market's counters. */
  status(): MarketStats[];
  /** The agent accounts, once the sandbox has started. */
  accounts(): AgentAccounts | undefined;
}

declare module '../http/route-types.ts' {
  interface SandboxServices {
    marketAgents?: MarketAgentsService;
  }
}

interface Prepared {
  readonly market: ResolvedMarket;
  readonly rules: MarketRules;
  /** Opened at setup (a bad file stops the start); a synthetic one again at start when the market resumes. */
  source: BarSource;
  readonly stats: MarketStats;
}

/**
 * `options`: the market agents' config (config.ts). Without it, the sandbox config's `market`
 * section is read at setup (so the plugin can sit in the built-in list); neither: no agents.
 */
export function marketAgentsPlugin(options?: MarketAgentsConfigInput): SandboxPlugin {
  // Explicit options fail here, at construction, rather than when the server starts.
  let config = options === undefined ? undefined : parseMarketAgentsConfig(options);
  let align = true;
  const prepared: Prepared[] = [];
  const controller = new AbortController();
  const runs: Promise<void>[] = [];
  let accounts: AgentAccounts | undefined;
  const service: MarketAgentsService = { status: () => prepared.map((p) => ({ ...p.stats })), accounts: () => accounts };

  return {
    name: 'market-agents',
    adminRoutes: [
      defineAdminRoute({ method: 'GET', path: '/market-agents', summary: 'Market agents: state and counters per market', handler: ({ sandbox }) => sandbox.services.marketAgents?.status() ?? [] }),
    ],
    setup({ state }) {
      state.services.marketAgents = service;
      config ??= parseMarketAgentsConfig((state.config as { market?: MarketAgentsConfigInput }).market);
      align = config.align;
      const markets = config.enabled ? resolveMarkets(withDefaultMarkets(config, state.config.symbols)) : [];
      if (markets.length === 0) return;
      const engine = state.services.engine;
      if (!engine) throw new Error('market agents: no matching engine (the exchange-core plugin must come first)');
      const info = exchangeInfoFromConfig({ ...state.config, variants: { ...state.config.variants, numbersAsStrings: false } }, state.clock.now());
      const instruments = parseInstruments(info);
      try {
        for (const market of markets) {
          const inst = instruments.get(market.symbol);
          if (!inst) throw new Error(`market agents: symbol ${market.symbol} is not one of the sandbox's symbols`);
          const rules = new MarketRules(inst);
          const source = openBarSource(market, rules);
          prepared.push({ market, rules, source, stats: newStats(market.symbol, source.label) });
        }
      } catch (err) {
        for (const p of prepared.splice(0)) p.source.close();
        throw err;
      }
    },
    started(handle) {
      if (prepared.length === 0) return;
      const state = handle.state;
      // A market restored from a --state file (restored after setup, before start) has a last
      // trade: its synthetic path continues from there instead of jumping back to the start price.
      const startAt = new Map<Prepared, number>();
      for (const p of prepared) {
        const last = state.services.engine?.lastPrice(p.market.symbol);
        // A resumed market has its own past: history is for a market that starts now.
        if (last === undefined) {
          const at = layOutHistory(state, p, align);
          if (at !== undefined) startAt.set(p, at);
        }
        if (last === undefined || p.market.source.type !== 'synthetic') continue;
        p.source.close();
        p.source = openBarSource(p.market, p.rules, last);
      }
      accounts = agentAccounts(state.accounts, state.clock.now());
      for (const p of prepared) runs.push(start(state, p, accounts, align, controller.signal, startAt.get(p)));
    },
    async close() {
      controller.abort();
      await Promise.allSettled(runs);
      for (const p of prepared) p.source.close();
    },
  };
}

/** Sandbox ms one source bar plays in. */
function barMsOf(market: ResolvedMarket, source: BarSource): number {
  return market.barMs ?? Math.max(1, Math.round(source.intervalMs / market.speed));
}

/**
 * The market's `historyBars` as closed klines ending where its live path will start (the current
 * bar period, or now without alignment); the live source then goes on after them. Returns that
 * start, or undefined without history.
 */
function layOutHistory(state: SandboxState, p: Prepared, align: boolean): number | undefined {
  const bars = p.market.historyBars;
  const store = state.services.marketData;
  if (bars === 0 || !store) return undefined;
  const barMs = barMsOf(p.market, p.source);
  const now = state.clock.now();
  const end = align ? Math.floor(now / barMs) * barMs : now;
  if (end - bars * barMs < 0) {
    throw new RangeError(`market.historyBars: ${bars} bars of ${barMs} ms would start before 1970 (sandbox time ${now}); ask for at most ${Math.floor(end / barMs)}`);
  }
  const history = seedHistory(p.source, store, { bars, barMs, end, rules: p.rules, volumeScale: p.market.taker.volumeScale });
  p.source = history.source;
  state.log.info({ area: 'market-agents', symbol: p.market.symbol, bars: history.bars, from: end - bars * barMs, to: end, lastClose: history.lastClose }, 'market history laid out');
  return end;
}

function start(state: SandboxState, p: Prepared, accounts: AgentAccounts, align: boolean, signal: AbortSignal, startAt: number | undefined): Promise<void> {
  const { engine, balances } = state.services;
  if (!engine || !balances) return Promise.resolve();
  const { market, rules, source, stats } = p;
  const log = state.log.child({ area: 'market-agents', symbol: market.symbol });
  const env: AgentEnv = { engine, clock: state.clock, funding: new Funding(balances), rules, log, stats };
  const maker = new LiquidityAgent(env, accounts.maker, market.liquidity);
  const taker = market.taker.enabled ? new TakerAgent(env, accounts.taker) : undefined;
  const step = new MarketStep(env, maker, taker, mulberry32(`${String(market.seed)}/taker`));
  const barMs = barMsOf(market, source);
  const path = pathPoints(source, {
    barMs,
    steps: market.stepsPerBar,
    rng: mulberry32(`${String(market.seed)}/path`),
    rules,
    volumeScale: market.taker.volumeScale,
    onEnd: market.onEnd,
  });
  return runMarket({ env, step, path, barMs, steps: market.stepsPerBar, align, startAt }, signal).catch((err: unknown) => {
    log.error({ err }, 'market agent stopped');
  });
}

function newStats(symbol: string, source: string): MarketStats {
  return { symbol, source, state: 'starting', bars: 0, points: 0, orders: 0, rejections: 0, trades: 0, errors: 0, lastError: undefined, price: undefined };
}
