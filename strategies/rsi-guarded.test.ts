import { describe, expect, it } from 'vitest';
import { StrategyParamsError, StrategyRunner } from '../src/strategy/index.ts';
import type { RegimeRun } from '../src/strategy/testing/index.ts';
import { FakeStateView, runOnRegime } from '../src/strategy/testing/index.ts';
import rsiExits from './rsi-exits.ts';
import rsiGuarded from './rsi-guarded.ts';

const OFF = { cooldownBars: 0, stoplossGuard: 0 };

function clean(r: RegimeRun): RegimeRun {
  expect(r.run.strategyFailures).toEqual([]);
  expect(r.run.denials).toEqual([]);
  return r;
}

const losing = (r: RegimeRun) => r.run.trades.filter((t) => Number(t.pnl) < 0).length;
/** The locks it logged: [since, until]. */
const locks = (r: RegimeRun) => r.logs.filter((l) => l.message.startsWith('protections: ')).map((l) => [l.data?.since, l.data?.until] as [number, number]);

describe('rsi-guarded', () => {
  it('in a sharp fall sits out most of the losing re-entries rsi-exits makes: fewer trades, every one stopped out, less lost', () => {
    const without = clean(runOnRegime(rsiGuarded, 'sharpDown', OFF));
    const guarded = clean(runOnRegime(rsiGuarded, 'sharpDown'));
    expect(without.run.trades.length).toBeGreaterThan(8);
    expect(losing(without)).toBe(without.run.trades.length);
    expect(losing(guarded)).toBeLessThanOrEqual(losing(without) / 2);
    expect(guarded.run.trades.every((t) => t.exitTag === 'sl')).toBe(true);
    expect(guarded.metrics.netPnl).toBeGreaterThan(without.metrics.netPnl / 2);
    // Both protections locked, each lock logged once; no entry went out while one was on.
    const messages = guarded.logs.map((l) => l.message);
    expect(messages.filter((m) => m.startsWith('protections: cooldown: 30 bars after the exit at ')).length).toBe(guarded.run.trades.length);
    expect(messages).toContain('protections: stoploss guard: 2 stop-loss exits (sl, trail) in 3h, locked until 2024-01-01 10:02:40 UTC');
    for (const t of guarded.run.trades) for (const [since, until] of locks(guarded)) expect(t.entryTime >= since && t.entryTime < until).toBe(false);
    // The signals it skipped say why.
    expect(messages.filter((m) => m.startsWith('entry skipped: stoploss guard: ')).length).toBeGreaterThan(5);
  });

  it('with a max drawdown, locks once the equity falls that far under its high', () => {
    const r = clean(runOnRegime(rsiGuarded, 'sharpDown', { ...OFF, maxDrawdown: 0.001 }));
    expect(r.logs.filter((l) => l.message.startsWith('protections: ')).map((l) => l.message)).toEqual([
      'protections: max drawdown: equity 99899.31892 PHP is 0.1% under its 1d high of 100000, locked until 2024-01-01 19:38 UTC',
    ]);
    expect(r.run.trades.length).toBeLessThan(clean(runOnRegime(rsiGuarded, 'sharpDown', OFF)).run.trades.length);
  });

  it('with its protections off, trades as rsi-exits does; where it does not lose, they change nothing', () => {
    // Client order ids and intent records carry the strategy's name: the rest is compared.
    const same = (r: RegimeRun) => ({ intents: r.intents.map(({ time, intent }) => ({ time, intent })), fills: r.fills.map(({ clientOrderId: _, ...f }) => f) });
    for (const regime of ['sharpDown', 'downThenUp'] as const) expect(same(runOnRegime(rsiGuarded, regime, OFF))).toEqual(same(runOnRegime(rsiExits, regime)));
    for (const regime of ['slowUp', 'crash', 'flat'] as const) {
      const on = clean(runOnRegime(rsiGuarded, regime));
      expect(on.run.trades.length).toBeGreaterThan(0);
      expect(on.run.trades).toEqual(runOnRegime(rsiGuarded, regime, OFF).run.trades);
    }
  });

  it('refuses a drawdown that is not a fraction and a negative count', () => {
    const make = (params: unknown) => () => new StrategyRunner(rsiGuarded, { params, state: new FakeStateView() });
    expect(make({ maxDrawdown: 1 })).toThrow(StrategyParamsError);
    expect(make({ stoplossGuard: -1 })).toThrow("param 'stoplossGuard'");
  });
});
