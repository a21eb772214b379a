import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import { mulberry32 } from '../../core/synthetic/index.ts';
import { LiquidityAgent } from './liquidity-agent.ts';
import { MarketStep } from './market-step.ts';
import type { PathPoint } from './path-source.ts';
import { TakerAgent } from './taker-agent.ts';
import { agentRig } from './test-support.ts';

const LADDER = { enabled: true, levels: 3, spreadBps: 10, levelStepBps: 5, size: '0.5' };

function setup(ladder = LADDER) {
  const r = agentRig();
  const maker = new LiquidityAgent(r.env, 'maker', ladder);
  const taker = new TakerAgent(r.env, 'taker');
  const step = new MarketStep(r.env, maker, taker, mulberry32(1));
  const point = (price: string, volume = '0.1', stepNo = 1): PathPoint => ({ bar: 0, step: stepNo, offsetMs: 0, units: r.rules.units(price), price, volume: new D(volume) });
  const trades = () => r.events.flatMap((e) => (e.kind === 'trade' ? [e] : []));
  return { ...r, maker, taker, step, point, trades };
}

describe('LiquidityAgent', () => {
  it('quotes a funded ladder around the price and keeps it across small moves', () => {
    const r = setup();
    r.maker.quote(r.rules.units('1000.00'));
    const depth = r.engine.depth('BTCPHP', 10);
    // Spread 10 bps of 1000 = 1.00, levels every 5 bps = 0.50.
    expect(depth.bids.map(([p]) => p)).toEqual(['999.5', '999', '998.5']);
    expect(depth.asks.map(([p]) => p)).toEqual(['1000.5', '1001', '1001.5']);
    expect(depth.bids.every(([, q]) => q === '0.5')).toBe(true);
    const before = r.engine.openOrders('maker', 'BTCPHP').map((o) => o.orderId);
    r.maker.quote(r.rules.units('1000.10'));
    const after = r.engine.openOrders('maker', 'BTCPHP').map((o) => o.orderId);
    expect(after.filter((id) => before.includes(id)).length).toBeGreaterThanOrEqual(4);
    expect(r.engine.depth('BTCPHP', 10).bids).toHaveLength(3);
  });

  it('replaces levels eaten below half their size', () => {
    const r = setup();
    r.maker.quote(r.rules.units('1000.00'));
    r.place('bot', { side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '1000.50', quantity: '0.3' });
    expect(r.engine.depth('BTCPHP', 1).asks).toEqual([['1000.5', '0.2']]);
    r.maker.quote(r.rules.units('1000.00'));
    expect(r.engine.depth('BTCPHP', 1).asks).toEqual([['1000.5', '0.5']]);
  });
});

describe('MarketStep', () => {
  it('prints a trade exactly at each path price, the taker buying up and selling down', () => {
    const r = setup();
    r.step.play(r.point('1000.00', '0.2', 0));
    r.step.play(r.point('1000.40'));
    r.step.play(r.point('999.70'));
    const t = r.trades();
    expect(t.map((x) => x.price)).toEqual(['1000', '1000.4', '999.7']);
    expect(t[1]).toMatchObject({ buyerAccountId: 'taker', sellerAccountId: 'maker', buyerIsMaker: false });
    expect(t[2]).toMatchObject({ buyerAccountId: 'maker', sellerAccountId: 'taker', buyerIsMaker: true });
    expect(t[0]!.qty).toBe('0.2');
    // Nothing of the one-off orders stays on the book: only the ladder.
    expect(r.engine.openOrders('maker', 'BTCPHP')).toHaveLength(6);
  });

  it('sweeps the book on a fast move within a bar, then prints at the path price', () => {
    const r = setup();
    r.step.play(r.point('1000.00', '0.1', 0));
    r.step.play(r.point('1002.50', '2'));
    const prices = r.trades().map((x) => x.price);
    // Asks at 1000.5, 1001 and 1001.5 (0.5 each) are swept, the rest prints at the path price.
    expect(prices.slice(1)).toEqual(['1000.5', '1001', '1001.5', '1002.5']);
    expect(r.trades().reduce((s, x) => s.plus(x.qty), new D(0)).toFixed()).toBe('2.1');
  });

  it('fills a bot order the path goes through, at the bot order price', () => {
    const r = setup();
    r.step.play(r.point('1000.00', '0.1', 0));
    r.place('bot', { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '1000.30', quantity: '0.01' });
    r.step.play(r.point('1000.80'));
    const botTrade = r.trades().find((t) => t.sellerAccountId === 'bot');
    expect(botTrade).toMatchObject({ price: '1000.3', qty: '0.01', buyerAccountId: 'taker' });
    expect(r.engine.lastPrice('BTCPHP')).toBe('1000.8');
  });

  it('trades at least one minimum order per point and does not carry the excess as a debt', () => {
    const r = setup();
    for (const [i, price] of ['1000.00', '1000.01', '1000.02', '1000.03'].entries()) r.step.play(r.point(price, '0.0001', i));
    expect(r.trades().map((t) => t.qty)).toEqual(['0.001', '0.001', '0.001', '0.001']);
    expect(r.trades().map((t) => t.price)).toEqual(['1000', '1000.01', '1000.02', '1000.03']);
  });

  it('only quotes when the taker is off', () => {
    const r = agentRig();
    const step = new MarketStep(r.env, new LiquidityAgent(r.env, 'maker', LADDER), undefined, mulberry32(1));
    step.play({ bar: 0, step: 0, offsetMs: 0, units: r.rules.units('1000'), price: '1000.00', volume: new D(1) });
    expect(r.events.some((e) => e.kind === 'trade')).toBe(false);
    expect(r.engine.depth('BTCPHP', 5).asks).toHaveLength(3);
  });
});
