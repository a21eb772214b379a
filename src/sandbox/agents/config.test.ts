import { describe, expect, it } from 'vitest';
import { parseMarketAgentsConfig, resolveMarkets } from './config.ts';

describe('market agents config', () => {
  it('fills defaults: synthetic source, a 5-level ladder, the taker on', () => {
    const c = parseMarketAgentsConfig({ markets: [{ symbol: 'BTCPHP' }] });
    expect(c).toMatchObject({ enabled: true, seed: 1, speed: 1, stepsPerBar: 8, onEnd: 'loop', align: true });
    expect(c.markets[0]).toMatchObject({
      symbol: 'BTCPHP',
      source: { type: 'synthetic', intervalMs: 60_000 },
      liquidity: { enabled: true, levels: 5, spreadBps: 10, levelStepBps: 5 },
      taker: { enabled: true, volumeScale: 1 },
    });
    expect(parseMarketAgentsConfig(undefined).markets).toEqual([]);
  });

  it('lets a market override the top-level timing, and seeds each market apart', () => {
    const c = parseMarketAgentsConfig({ seed: 9, speed: 60, markets: [{ symbol: 'BTCPHP' }, { symbol: 'ETHPHP', speed: 1, barMs: 500, seed: 'x' }] });
    const [a, b] = resolveMarkets(c);
    expect(a).toMatchObject({ seed: '9:BTCPHP', speed: 60, barMs: undefined, stepsPerBar: 8 });
    expect(b).toMatchObject({ seed: 'x', speed: 1, barMs: 500 });
  });

  it('reads csv and journal sources and regimes', () => {
    const c = parseMarketAgentsConfig({
      markets: [
        { symbol: 'LINKUSDT', source: { type: 'csv', file: 'a.csv', from: 5 } },
        { symbol: 'BTCPHP', source: { type: 'journal', file: 'j.db', symbol: 'BTCUSDT' } },
        { symbol: 'ETHPHP', source: { type: 'synthetic', regimes: [{ regime: 'crash', bars: 3 }, { regime: { drift: 0.001, volatility: 0.002 }, bars: 2 }] } },
      ],
    });
    expect(c.markets.map((m) => m.source.type)).toEqual(['csv', 'journal', 'synthetic']);
    expect(c.markets[1]!.source).toMatchObject({ interval: '1m', symbol: 'BTCUSDT' });
  });

  it('refuses what it cannot play, naming the path', () => {
    const bad = (input: unknown) => () => parseMarketAgentsConfig(input as never);
    expect(bad({ markets: [{ symbol: 'btc' }] })).toThrow(/symbol/);
    expect(bad({ markets: [{ symbol: 'BTCPHP', source: { type: 'csv' } }] })).toThrow(/file/);
    expect(bad({ markets: [{ symbol: 'BTCPHP', source: { type: 'synthetic', regimes: [{ regime: 'moon', bars: 3 }] } }] })).toThrow(/regime/);
    expect(bad({ stepsPerBar: 3 })).toThrow(/stepsPerBar/);
    expect(bad({ markets: [{ symbol: 'BTCPHP', liquidity: { size: 5 } }] })).toThrow(/size/);
    expect(bad({ speed: 0 })).toThrow(/speed/);
  });
});
