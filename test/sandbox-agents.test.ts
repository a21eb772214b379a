/**
 * The sandbox's living market end to end (issue "Sandbox exchange", deliverable 6): market agents
 * on a VirtualClock-driven sandbox, read back over real HTTP with the project's client. Synthetic
 * regimes and replayed CSVs become trades, klines whose OHLC are the source bars', a two-sided
 * book around the price, a ticker and avgPrice; same seed, same trades; a failing step does not
 * stop the agents; the first 30 bars of a real LINKUSDT file replay bar for bar.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import type { Kline } from '../src/exchange/codecs/market.ts';
import { parseInstruments } from '../src/core/market/index.ts';
import { dec } from '../src/core/money/decimal.ts';
import { readKlineCsv } from '../src/data/kline-files/kline-csv.ts';
import { openJournal } from '../src/journal/index.ts';
import { marketAgentsPlugin, MarketRules, openBarSource, parseMarketAgentsConfig, type MarketAgentsConfigInput, type SourceBar } from '../src/sandbox/agents/index.ts';
import { resolveMarkets } from '../src/sandbox/agents/config.ts';
import { DEFAULT_ASSETS, DEFAULT_SYMBOLS } from '../src/sandbox/config/defaults.ts';
import { exchangeInfoFromConfig } from '../src/sandbox/config/exchange-info.ts';
import type { SandboxConfigInput } from '../src/sandbox/config/schema.ts';
import type { KlineInterval } from '../src/sandbox/market-data/index.ts';
import { SqliteStateStore } from '../src/sandbox/accounts/sqlite-state-store.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const T0 = Date.UTC(2026, 0, 5); // minute-aligned: 1m bars at speed 1 are 1m klines
const MIN = 60_000;
const LINK_FILE = fileURLToPath(new URL('../../shared/data/klines/owlacar-dotcom-isda/LINKUSDT-1m-2026-02.csv', import.meta.url));

const defer = closeAfterEach();

const LINK_SYMBOL = {
  symbol: 'LINKUSDT',
  baseAsset: 'LINK',
  quoteAsset: 'USDT',
  baseAssetPrecision: 8,
  quoteAssetPrecision: 8,
  filters: [
    { filterType: 'PRICE_FILTER' as const, minPrice: '0.001', maxPrice: '100000', tickSize: '0.001' },
    { filterType: 'LOT_SIZE' as const, minQty: '0.01', maxQty: '9000000', stepSize: '0.01' },
    { filterType: 'NOTIONAL' as const, minNotional: '1', maxNotional: '90000000' },
    { filterType: 'MAX_NUM_ORDERS' as const, maxNumOrders: 200 },
  ],
};
const WITH_LINK: SandboxConfigInput = {
  assets: [...DEFAULT_ASSETS, { coin: 'LINK', name: 'Chainlink' }],
  symbols: [...DEFAULT_SYMBOLS, LINK_SYMBOL],
};

interface Rig {
  s: SandboxHandle;
  clock: VirtualClock;
  market: ReturnType<typeof createClient>['client']['market'];
  rules: (symbol: string) => MarketRules;
}

async function rig(agents: MarketAgentsConfigInput, config: SandboxConfigInput = {}): Promise<Rig> {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({ clock, config: { admin: { enabled: true }, ...config }, plugins: [marketAgentsPlugin(agents)] });
  defer(() => s.close());
  serveMarketData(s);
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange });
  defer(() => handle.close());
  const instruments = parseInstruments(exchangeInfoFromConfig({ ...s.config, variants: { ...s.config.variants, numbersAsStrings: false } }, T0));
  return { s, clock, market: handle.client.market, rules: (symbol) => new MarketRules(instruments.get(symbol)!) };
}

/**
 * The market-data REST routes belong to another area; until the server registers them, serve the
 * four this test reads straight from the store and the engine (what those routes answer).
 */
function serveMarketData(s: SandboxHandle): void {
  const md = s.services.marketData!;
  const engine = s.services.engine!;
  const str = (v: unknown) => String(v);
  const num = (v: unknown) => (v === undefined ? undefined : Number(v));
  const missing = ['market.klines', 'market.depth', 'market.ticker24hr', 'market.avgPrice'].filter((id) => s.handlers.get(id) === undefined);
  const all = {
    'market.klines': (ctx: { params: Readonly<Record<string, unknown>> }) =>
      md.klines(str(ctx.params['symbol']), ctx.params['interval'] as KlineInterval, {
        startTime: num(ctx.params['startTime']),
        endTime: num(ctx.params['endTime']),
        limit: num(ctx.params['limit']),
      }),
    'market.depth': (ctx: { params: Readonly<Record<string, unknown>> }) => engine.depth(str(ctx.params['symbol']), num(ctx.params['limit']) || 200),
    'market.ticker24hr': (ctx: { params: Readonly<Record<string, unknown>> }) => md.ticker24hr(str(ctx.params['symbol'])),
    'market.avgPrice': (ctx: { params: Readonly<Record<string, unknown>> }) => md.avgPrice(str(ctx.params['symbol'])),
  };
  s.registerHandlers(Object.fromEntries(missing.map((id) => [id, all[id as keyof typeof all]])));
}

/** The bars a market's source yields, as the agents will read them. */
function sourceBars(r: Rig, agents: MarketAgentsConfigInput, count: number): SourceBar[] {
  const market = resolveMarkets(parseMarketAgentsConfig(agents))[0]!;
  const source = openBarSource(market, r.rules(market.symbol));
  const out: SourceBar[] = [];
  for (const b of source.bars()) {
    out.push(b);
    if (out.length === count) break;
  }
  source.close();
  return out;
}

/** Sandbox 1m klines against source bars: OHLC on the symbol's grid, within one tick. */
function expectKlinesFollow(r: Rig, symbol: string, klines: readonly Kline[], bars: readonly SourceBar[]): void {
  const rules = r.rules(symbol);
  const tick = rules.tick;
  bars.forEach((bar, i) => {
    const k = klines[i]!;
    expect(k.openTime, `kline ${i} open time`).toBe(T0 + i * MIN);
    (['open', 'high', 'low', 'close'] as const).forEach((field) => {
      const want = dec(rules.price(rules.units(bar[field])));
      const got = dec(k[field]);
      expect(got.minus(want).abs().lte(tick), `kline ${i} ${field}: ${got.toFixed()} vs ${want.toFixed()}`).toBe(true);
    });
  });
}

async function admin(s: SandboxHandle, path: string): Promise<unknown> {
  const res = await fetch(`${s.baseUrl}${s.config.admin.prefix}${path}`);
  expect(res.status).toBe(200);
  return res.json();
}

const SYNTHETIC: MarketAgentsConfigInput = {
  seed: 7,
  markets: [
    {
      symbol: 'BTCUSDT',
      source: {
        type: 'synthetic',
        startPrice: '30000',
        regimes: [
          { regime: 'flat', bars: 4 },
          { regime: 'sharpUp', bars: 3 },
          { regime: 'crash', bars: 3 },
        ],
      },
    },
  ],
};

describe('market agents: synthetic market', () => {
  it('trades along the generated path: klines, depth around the price, ticker, avgPrice', async () => {
    const r = await rig(SYNTHETIC);
    // The book is quoted at once, before the first bar.
    const before = await r.market.depth({ symbol: 'BTCUSDT', limit: 10 });
    expect(before.bids.length).toBe(5);
    expect(before.asks.length).toBe(5);

    await r.clock.advance(10 * MIN);
    const bars = sourceBars(r, SYNTHETIC, 10);
    const klines = await r.market.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 100 });
    expect(klines.length).toBe(11); // ten whole bars and the first point of the next
    expectKlinesFollow(r, 'BTCUSDT', klines, bars);
    for (const k of klines.slice(0, 10)) expect(k.trades).toBeGreaterThanOrEqual(8); // a trade per point at least

    const last = dec(bars[9]!.close);
    const depth = await r.market.depth({ symbol: 'BTCUSDT', limit: 10 });
    expect(depth.bids.length).toBe(5);
    expect(depth.asks.length).toBe(5);
    const bestBid = dec(depth.bids[0]![0]);
    const bestAsk = dec(depth.asks[0]![0]);
    expect(bestBid.lt(bestAsk)).toBe(true);
    // Around the price of the point just played (the next bar's open, which the generator starts at the last close).
    const mid = bestBid.plus(bestAsk).div(2);
    expect(mid.minus(last).abs().div(last).lt(0.005)).toBe(true);

    const answer = await r.market.ticker24hr({ symbol: 'BTCUSDT' });
    const ticker = Array.isArray(answer) ? answer[0]! : answer;
    expect(ticker.symbol).toBe('BTCUSDT');
    expect(dec(ticker.openPrice).eq(bars[0]!.open)).toBe(true);
    expect(dec(ticker.lastPrice).eq(last)).toBe(true);
    expect(Number(ticker.count)).toBeGreaterThan(80);
    expect(dec(ticker.volume).gt(0)).toBe(true);
    const avg = await r.market.avgPrice({ symbol: 'BTCUSDT' });
    expect(dec(avg.price).gt(0)).toBe(true);

    const [status] = (await admin(r.s, '/market-agents')) as { symbol: string; state: string; bars: number; trades: number; errors: number }[];
    expect(status).toMatchObject({ symbol: 'BTCUSDT', state: 'running', bars: 10, errors: 0 });
    expect(status!.trades).toBeGreaterThan(80);
  });

  it('resumes a market restored from a --state file at its last trade, not at its configured start price', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'halyard-agents-state-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'paper.db');
    const UP: MarketAgentsConfigInput = { seed: 7, markets: [{ symbol: 'BTCUSDT', source: { type: 'synthetic', startPrice: '30000', regimes: [{ regime: 'sharpUp', bars: 30 }] } }] };
    const start = async (at: number) => {
      const clock = new VirtualClock(at);
      const s = await startSandbox({ clock, config: { admin: { enabled: true } }, stateStore: new SqliteStateStore(file), plugins: [marketAgentsPlugin(UP)] });
      return { s, clock };
    };
    const first = await start(T0);
    await first.clock.advance(30 * MIN);
    const moved = first.s.services.engine!.lastPrice('BTCUSDT')!;
    await first.s.close();
    expect(dec(moved).div(30000).gt(1.03)).toBe(true); // the market left its start price behind

    const second = await start(T0 + 30 * MIN);
    defer(() => second.s.close());
    expect(second.s.services.engine!.lastPrice('BTCUSDT')).toBe(moved);
    await second.clock.advance(2 * MIN);
    const trades = second.s.services.marketData!.recentTrades('BTCUSDT', 1000);
    expect(trades.length).toBeGreaterThan(5);
    for (const t of trades) expect(dec(t.price).minus(moved).abs().div(moved).lt(0.02), `trade at ${t.price}, the market stopped at ${moved}`).toBe(true);
  });

  it('same seed, same trades; another seed, other trades', async () => {
    const run = async (seed: number) => {
      const r = await rig({ ...SYNTHETIC, seed });
      await r.clock.advance(3 * MIN);
      const trades = r.s.services.marketData!.recentTrades('BTCUSDT', 1000);
      await r.s.close();
      return trades;
    };
    const a = await run(7);
    expect(a.length).toBeGreaterThan(20);
    expect(await run(7)).toEqual(a);
    expect((await run(8)).map((t) => t.price)).not.toEqual(a.map((t) => t.price));
  });

  it('keeps going after a step throws, and leaves no timer behind on close', async () => {
    const r = await rig(SYNTHETIC);
    const engine = r.s.services.engine!;
    const spy = vi.spyOn(engine, 'placeOrder');
    await r.clock.advance(MIN);
    const boom = () => {
      throw new Error('injected engine failure');
    };
    spy.mockImplementationOnce(boom).mockImplementationOnce(boom).mockImplementationOnce(boom);
    await r.clock.advance(2 * MIN);
    const status = r.s.services.marketAgents!.status()[0]!;
    expect(status.errors).toBeGreaterThanOrEqual(1);
    expect(status.lastError).toBe('injected engine failure');
    expect(status.state).toBe('running');
    const klines = await r.market.klines({ symbol: 'BTCUSDT', interval: '1m' });
    expect(klines.length).toBe(4);
    expect(klines[2]!.trades).toBeGreaterThanOrEqual(8);
    await r.s.close();
    expect(r.s.services.marketAgents!.status()[0]!.state).toBe('stopped');
    expect(r.clock.pending).toBe(0);
  });
});

describe('market agents: configuration', () => {
  it('refuses an unknown symbol or an unreadable file when the sandbox starts, and bad options at once', async () => {
    const start = (agents: MarketAgentsConfigInput) => startSandbox({ clock: new VirtualClock(T0), plugins: [marketAgentsPlugin(agents)] });
    await expect(start({ markets: [{ symbol: 'NOPEUSDT' }] })).rejects.toThrow(/NOPEUSDT is not one of the sandbox's symbols/);
    await expect(start({ markets: [{ symbol: 'BTCUSDT', source: { type: 'csv', file: '/nonexistent/x.csv' } }] })).rejects.toThrow(/cannot read the file/);
    expect(() => marketAgentsPlugin({ markets: [{ symbol: 'BTCUSDT', liquidity: { levels: 0 } }] })).toThrow(/levels/);
  });

  it('does nothing when disabled', async () => {
    const r = await rig({ enabled: false });
    await r.clock.advance(MIN);
    expect(r.s.services.marketAgents!.status()).toEqual([]);
    expect(r.s.services.marketAgents!.accounts()).toBeUndefined();
    expect(r.s.accounts.allAccounts()).toHaveLength(1);
  });

  it('gives every trading symbol a synthetic market when none is listed, near its reference price', async () => {
    const r = await rig({ speed: 60 });
    await r.clock.advance(MIN);
    const symbols = r.s.services.marketAgents!.status().map((m) => m.symbol).sort();
    expect(symbols).toEqual(r.s.config.symbols.map((x) => x.symbol).sort());
    const price = Number((await r.market.tickerPrice({ symbol: 'BTCPHP' }) as { price: string }).price);
    expect(price).toBeGreaterThan(3_000_000);
    expect(price).toBeLessThan(4_000_000);
  });
});

describe('market agents: replay', () => {
  const csv = (rows: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'halyard-agents-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'ETHUSDT-1m.csv');
    writeFileSync(file, `open_time,open,high,low,close,volume\n${rows.join('\n')}\n`);
    return file;
  };
  const SIX = [
    [2000.0, 2004.5, 1998.2, 2003.1, 3.5],
    [2003.1, 2003.9, 1990.0, 1991.25, 8.1],
    [1991.25, 1999.99, 1991.0, 1999.0, 2.0],
    [1999.0, 2010.0, 1999.0, 2008.8, 5.25],
    [2008.8, 2009.0, 2001.1, 2002.2, 1.5],
  ].map(([o, h, l, c, v], i) => `${Date.UTC(2024, 0, 1, 0, i)},${o},${h},${l},${c},${v}`);

  it('follows a 6-column CSV bar for bar, closes and volumes included, then holds', async () => {
    const agents: MarketAgentsConfigInput = { onEnd: 'hold', markets: [{ symbol: 'ETHUSDT', source: { type: 'csv', file: csv(SIX) } }] };
    const r = await rig(agents);
    await r.clock.advance(7 * MIN);
    const bars = sourceBars(r, agents, 5);
    const klines = await r.market.klines({ symbol: 'ETHUSDT', interval: '1m' });
    expect(klines.length).toBe(5);
    expectKlinesFollow(r, 'ETHUSDT', klines, bars);
    expect(klines.map((k) => dec(k.close).toFixed(2))).toEqual(['2003.10', '1991.25', '1999.00', '2008.80', '2002.20']);
    klines.forEach((k, i) => expect(Number(k.volume)).toBeCloseTo(Number(bars[i]!.volume), 2));
    expect(r.s.services.marketAgents!.status()[0]).toMatchObject({ state: 'holding', bars: 5 });
    // Holding: still quoted around the last close.
    const depth = await r.market.depth({ symbol: 'ETHUSDT', limit: 5 });
    expect(dec(depth.bids[0]![0]).lt(2002.2) && dec(depth.asks[0]![0]).gt(2002.2)).toBe(true);
  });

  it('replays a journal series mapped onto a sandbox symbol', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'halyard-agents-')), 'journal.db');
    defer(() => rmSync(join(file, '..'), { recursive: true, force: true }));
    const j = openJournal(file);
    j.klines.insertKlines(
      ['2001.5', '1999.25', '2003'].map((close, i) => {
        const openTime = Date.UTC(2024, 0, 1, 0, i);
        return { symbol: 'ETHEUR', interval: '1m', openTime, open: '2000', high: '2004', low: '1998', close, volume: '0.5', closeTime: openTime + 59_999, source: 'test' };
      }),
    );
    j.close();
    const agents: MarketAgentsConfigInput = { onEnd: 'hold', markets: [{ symbol: 'ETHUSDT', source: { type: 'journal', file, symbol: 'ETHEUR' } }] };
    const r = await rig(agents);
    await r.clock.advance(4 * MIN);
    const klines = await r.market.klines({ symbol: 'ETHUSDT', interval: '1m' });
    expectKlinesFollow(r, 'ETHUSDT', klines, sourceBars(r, agents, 3));
    expect(klines.map((k) => dec(k.close).toFixed())).toEqual(['2001.5', '1999.25', '2003']);
  });

  it('plays faster than real time: speed 60 is a 1m bar per sandbox second, looping at the end', async () => {
    const r = await rig({ speed: 60, markets: [{ symbol: 'ETHUSDT', source: { type: 'csv', file: csv(SIX) } }] });
    await r.clock.advance(12_000);
    const status = r.s.services.marketAgents!.status()[0]!;
    expect(status.bars).toBe(12);
    const trades = r.s.services.marketData!.recentTrades('ETHUSDT', 1000);
    // Bar 0 opens at T0; the advance ends on bar 12's open, 12 s later.
    expect([trades[0]!.time, trades.at(-1)!.time]).toEqual([T0, T0 + 12_000]);
  });

  it('replays the first 30 bars of the real LINKUSDT 1m file, bar for bar, volumes included', async (ctx) => {
    if (!existsSync(LINK_FILE)) ctx.skip(`sample file absent: ${LINK_FILE}`);
    const first = readKlineCsv(LINK_FILE).bars[0]!.openTime;
    const agents: MarketAgentsConfigInput = {
      onEnd: 'hold',
      markets: [{ symbol: 'LINKUSDT', source: { type: 'csv', file: LINK_FILE, to: first + 30 * MIN } }],
    };
    const r = await rig(agents, WITH_LINK);
    await r.clock.advance(31 * MIN);
    const bars = sourceBars(r, agents, 30);
    const klines = await r.market.klines({ symbol: 'LINKUSDT', interval: '1m' });
    expect(klines.length).toBe(30);
    expectKlinesFollow(r, 'LINKUSDT', klines, bars);
    klines.forEach((k, i) => {
      const want = Number(bars[i]!.volume);
      expect(Math.abs(Number(k.volume) - want) / want).toBeLessThan(0.01);
    });
    expect(r.s.services.marketAgents!.status()[0]).toMatchObject({ bars: 30, errors: 0 });
  });
});
