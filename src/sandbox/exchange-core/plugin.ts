/**
 * The sandbox's exchange core (issue "Sandbox exchange", deliverables 5-7): one SpotEngine with its
 * Balances, the market-data store derived from what trades, and the WebSocket streams on the
 * sandbox's own port. Other areas reach them through `sandbox.services`:
 *
 *   services.engine      the SpotEngine (orders, books, trades; spec 4.5)
 *   services.balances    the engine's Balances (also the admin API's balance port)
 *   services.marketData  trades, klines, tickers, avgPrice (spec 4.4)
 *   services.streams     the stream server (fault hooks: dropAll, setSilent)
 *   services.events      balanceUpdate for non-trading money flows (notes 4.1)
 *
 * The engine is a persistent part (engine-part.ts): with `--state` its orders, history and trades
 * survive a restart.
 */
import { parseInstruments, type Instrument } from '../../core/market/index.ts';
import { SpotEngine, type FeeRates } from '../../core/matching/index.ts';
import { Balances } from '../../core/portfolio/balances.ts';
import { exchangeInfoFromConfig } from '../config/exchange-info.ts';
import type { SandboxPlugin } from '../http/plugin.ts';
import { MarketDataStore } from '../market-data/index.ts';
import { attachStreams, type StreamServer } from '../streams/index.ts';
import { persistEngine } from './engine-part.ts';
import { EngineEventRouter } from './event-router.ts';
import { firstId } from './ids.ts';

/** The account that collects trading commissions, so balances are conserved. */
export const FEE_ACCOUNT_ID = '0';

/** Closed orders and trades kept per account and symbol (history endpoints page within these). */
export const RETAINED_ORDERS = 10_000;

/** The market-data store's avgPrice window (its default), also used by a PERCENT_PRICE filter without avgPriceMins. */
const AVG_PRICE_MINS = 5;

declare module '../http/route-types.ts' {
  interface SandboxServices {
    engine?: SpotEngine;
    marketData?: MarketDataStore;
    streams?: StreamServer;
    events?: EngineEventRouter;
  }
}

/** The windows of a symbol's PERCENT_PRICE (weighted) and PERCENT_PRICE_SA (simple) filters; avgPrice's 5 minutes when a filter names none. */
function referenceMinsOf(instrument: Instrument | undefined): { weighted?: number | undefined; simple?: number | undefined } | undefined {
  const weighted = instrument?.filter('PERCENT_PRICE');
  const simple = instrument?.filter('PERCENT_PRICE_SA');
  if (weighted === undefined && simple === undefined) return undefined;
  return { weighted: weighted && (weighted.avgPriceMins ?? AVG_PRICE_MINS), simple: simple && (simple.avgPriceMins ?? AVG_PRICE_MINS) };
}

export function exchangeCorePlugin(): SandboxPlugin {
  let streams: StreamServer | undefined;
  let unwatchKeys: (() => void) | undefined;
  return {
    name: 'exchange-core',
    setup({ state, httpServer }) {
      const { config, clock } = state;
      const now = clock.now();
      const instruments = parseInstruments(exchangeInfoFromConfig({ ...config, variants: { ...config.variants, numbersAsStrings: false } }, now));
      const fees: Record<string, FeeRates> = {};
      for (const s of config.symbols) fees[s.symbol] = { maker: s.fees.maker, taker: s.fees.taker };
      const balances = new Balances();
      // The router needs the stream server, which needs the engine's books, and the PERCENT_PRICE
      // references need the market-data store, which needs the engine: bind late.
      const late: { router?: EngineEventRouter; store?: MarketDataStore } = {};
      const engine = new SpotEngine({
        instruments,
        fees,
        feeAccountId: FEE_ACCOUNT_ID,
        firstOrderId: firstId(now, 0n),
        firstTradeId: firstId(now, 500_000n),
        balances,
        // Bounded history: market agents place orders all day; queries need the recent ones.
        retain: RETAINED_ORDERS,
        listener: (event) => late.router?.handle(event),
        // Without these the PERCENT_PRICE and PERCENT_PRICE_SA filters were skipped on every order.
        marketRefs: (symbol, at) => late.store?.referencePrices(symbol, at),
      });
      persistEngine(state, engine);
      const store = new MarketDataStore(clock, engine, {
        variants: {
          tradeQuoteQtyIsQty: config.variants.publicTradeQuoteQtyIsBase,
          numbersAsStrings: config.variants.numbersAsStrings,
          priceChangeInPercent: !config.variants.priceChangePercentAsFraction,
        },
        referenceMins: (symbol) => referenceMinsOf(instruments.get(symbol)),
      });
      late.store = store;
      const symbols = new Set(config.symbols.map((s) => s.symbol));
      streams = attachStreams(httpServer, {
        clock,
        store,
        book: engine,
        isSymbol: (symbol) => symbols.has(symbol),
        listenKeys: state.listenKeys,
        onError: (err) => state.log.warn({ err }, 'stream task failed'),
      });
      // DELETE userDataStream closes the key's sockets now (spec 4.7); expiry is the sweep's job.
      const server = streams;
      unwatchKeys = state.listenKeys.onInvalidated((key, _account, reason) => {
        if (reason === 'closed') server.closeListenKey(key);
      });
      const router = new EngineEventRouter(streams);
      late.router = router;
      Object.assign(state.services, { engine, balances, marketData: store, streams, events: router });
    },
    async close() {
      unwatchKeys?.();
      await streams?.close();
    },
  };
}
