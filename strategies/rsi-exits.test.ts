import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadStrategy, StrategyParamsError, StrategyRunner } from '../src/strategy/index.ts';
import type { RegimeRun } from '../src/strategy/testing/index.ts';
import { FakeStateView, runOnRegime } from '../src/strategy/testing/index.ts';
import rsiExits from './rsi-exits.ts';

const TRAIL = { trailActivation: 0.005, trailDistance: 0.003, takeProfit: 0.05 };

function clean(r: RegimeRun): RegimeRun {
  expect(r.run.strategyFailures).toEqual([]);
  expect(r.run.denials).toEqual([]);
  return r;
}

/** The intents as `type tag @stopPrice` (places and the new orders of replaces). */
const orders = (r: RegimeRun) =>
  r.intents.flatMap(({ intent: i }) => {
    const o = i.kind === 'place' ? i : i.kind === 'cancelReplace' ? i.order : undefined;
    return o ? [{ type: o.type, tag: o.tag ?? '', stopPrice: o.stopPrice, side: o.side }] : [];
  });

describe('rsi-exits', () => {
  it('in a sharp fall the stop protects: every trade leaves at the stop, 2% under its entry, while the market loses most of its value', () => {
    const r = clean(runOnRegime(rsiExits, 'sharpDown'));
    expect(r.run.trades.length).toBeGreaterThan(5);
    for (const t of r.run.trades) {
      expect(t.exitTag).toBe('sl');
      // The venue triggered it on the way down and filled it at its price (rounded down to the tick).
      expect(Number(t.exitPrice) / Number(t.entryPrice)).toBeCloseTo(0.98, 3);
    }
    expect(r.metrics.marketReturnPct).toBeLessThan(-50);
    expect(r.metrics.returnPct).toBeGreaterThan(-1);
    // Each entry is followed by its STOP_LOSS; nothing else is sent (the stops are never replaced).
    const seen = orders(r).map((o) => `${o.side} ${o.type} ${o.tag}`);
    expect(seen.every((s, i) => s === (i % 2 === 0 ? 'BUY MARKET entry' : 'SELL STOP_LOSS sl'))).toBe(true);
  });

  it('in a slow rise it takes the profit at the target, by a MARKET exit that replaces the stop', () => {
    const r = clean(runOnRegime(rsiExits, 'slowUp'));
    const tp = r.run.trades.filter((t) => t.exitTag === 'tp');
    expect(tp.length).toBeGreaterThan(0);
    for (const t of tp) expect(Number(t.exitPrice)).toBeGreaterThanOrEqual(Number(t.entryPrice) * 1.01 * 0.999);
    expect(orders(r).filter((o) => o.type === 'MARKET' && o.tag === 'tp')).toHaveLength(tp.length);
  });

  it('with a trailing stop it rides the rise and leaves by the trail, above its entry, the stop only ever raised', () => {
    for (const regime of ['slowUp', 'crash'] as const) {
      const r = clean(runOnRegime(rsiExits, regime, TRAIL));
      expect(r.run.trades.length).toBeGreaterThan(0);
      for (const t of r.run.trades) {
        expect(t.exitTag).toBe('trail');
        expect(Number(t.exitPrice)).toBeGreaterThan(Number(t.entryPrice)); // activation 0.5%, distance 0.3%: the trail locks a gain
      }
      // Between two entries, the stop prices sent never go down.
      let last = 0;
      for (const o of orders(r)) {
        if (o.side === 'BUY') last = 0;
        else if (o.stopPrice !== undefined) {
          expect(Number(o.stopPrice)).toBeGreaterThan(last);
          last = Number(o.stopPrice);
        }
      }
    }
  });

  it('leaves at MARKET after timeLimitMinutes', () => {
    const r = clean(runOnRegime(rsiExits, 'flat', { timeLimitMinutes: 30, takeProfit: 0.05 }));
    expect(r.run.trades.length).toBeGreaterThan(0);
    for (const t of r.run.trades) expect([t.exitTag, t.barsHeld]).toEqual(['time', 30]);
  });

  it('refuses half a trailing stop, and a stop-loss that is not a fraction', () => {
    const make = (params: unknown) => () => new StrategyRunner(rsiExits, { params, state: new FakeStateView() });
    expect(make({ trailActivation: 0.01 })).toThrow("param 'trailDistance': give trailActivation and trailDistance together");
    expect(make({ stopLoss: 2 })).toThrow(StrategyParamsError);
  });
});

describe("README's rsi-exits", () => {
  const ROOT = fileURLToPath(new URL('../', import.meta.url));
  const dir = mkdtempSync(path.join(tmpdir(), 'halyard-rsi-exits-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is this strategy: the same intents and fills with a trailing stop and a time limit', async () => {
    // The example of docs/guides/exits-and-protections.md (the README's until the docs were split).
    const readme = readFileSync(path.join(ROOT, 'docs/guides/exits-and-protections.md'), 'utf8');
    const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes("name: 'rsi-exits'"));
    expect(block).toBeDefined();
    const file = path.join(dir, 'readme-rsi-exits.ts');
    writeFileSync(file, block!.replace("'halyard/strategy'", JSON.stringify(path.join(ROOT, 'src/strategy/index.ts'))));
    const fromReadme = (await loadStrategy(file)).definition;
    for (const [regime, params] of [['slowUp', TRAIL], ['downThenUp', { timeLimitMinutes: 45 }]] as const) {
      const real = runOnRegime(rsiExits, regime, params);
      const copy = runOnRegime(fromReadme, regime, params);
      expect(copy.intents).toEqual(real.intents);
      expect(copy.fills).toEqual(real.fills);
    }
  });
});
