/**
 * The docs' abridged SMA crossover (docs/guides/writing-strategies.md; the README's "Writing a
 * strategy" until the docs were split) is the real strategies/sma-crossover.ts
 * in what it does: run side by side through the backtester, they place the same intents at the
 * same times and get the same fills, including a position above LOT_SIZE maxQty that leaves in
 * pieces (an abridged exit with roundQty(position.base) would be denied instead). The exits
 * example (docs/guides/exits-and-protections.md, "Exits: stop-loss, take-profit, trailing stop") runs with no failure and no denial, and
 * leaves by both its exits.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyStrategyDefinition } from '../src/strategy/index.ts';
import { loadStrategy } from '../src/strategy/loading/loader.ts';
import { candlesFromCloses, runOnRegime, StrategyHarness, testInstrument } from '../src/strategy/testing/index.ts';
import type { CannedMarketName, RegimeRunOptions } from '../src/strategy/testing/index.ts';
import smaCrossover from '../strategies/sma-crossover.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
let dir: string;
let readmeSma: AnyStrategyDefinition;
let readmeExits: AnyStrategyDefinition;

/** The pages that hold the strategy examples these tests run. */
const PAGES = ['docs/guides/writing-strategies.md', 'docs/guides/exits-and-protections.md'];

/** The docs' TypeScript block that defines the strategy named `name`. */
function readmeBlock(name: string): string {
  const docs = PAGES.map((page) => readFileSync(path.join(ROOT, page), 'utf8')).join('\n');
  const blocks = [...docs.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const block = blocks.find((b) => b.includes(`name: '${name}'`));
  if (block === undefined) throw new Error(`${PAGES.join(' and ')} have no ts block defining '${name}'`);
  return block;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'halyard-readme-'));
  const source = readmeBlock('sma-crossover').replace("'../src/strategy/index.ts'", JSON.stringify(path.join(ROOT, 'src/strategy/index.ts')));
  writeFileSync(path.join(dir, 'readme-sma.ts'), source);
  readmeSma = (await loadStrategy(path.join(dir, 'readme-sma.ts'))).definition;
  // Written as a strategy outside the repository would be: the package name, mapped to this installation.
  const exits = readmeBlock('rsi-exits').replace("'halyard/strategy'", JSON.stringify(path.join(ROOT, 'src/strategy/index.ts')));
  writeFileSync(path.join(dir, 'readme-exits.ts'), exits);
  readmeExits = (await loadStrategy(path.join(dir, 'readme-exits.ts'))).definition;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sideBySide(regime: CannedMarketName, params: Record<string, unknown>, options: RegimeRunOptions = {}) {
  const real = runOnRegime(smaCrossover, regime, params, options);
  const readme = runOnRegime(readmeSma, regime, params, options);
  expect(readme.run.strategyFailures).toEqual([]);
  expect(readme.intents).toEqual(real.intents);
  expect(readme.fills).toEqual(real.fills);
  expect(readme.run.denials).toEqual(real.run.denials);
  return real;
}

describe("README's SMA crossover", () => {
  it('does what strategies/sma-crossover.ts does', () => {
    for (const regime of ['upThenDown', 'downThenUp', 'flat'] as const) {
      const real = sideBySide(regime, { fast: 10, slow: 30 });
      expect(real.fills.length).toBeGreaterThan(0);
    }
  });

  it('sells a position above LOT_SIZE maxQty in pieces, as the real one does', () => {
    const real = sideBySide('upThenDown', { fast: 10, slow: 30, quoteAmount: '5000' }, { instrument: testInstrument({ maxQty: '2' }) });
    const sells = real.fills.filter((f) => f.side === 'SELL');
    const buys = real.fills.filter((f) => f.side === 'BUY');
    expect(buys.length).toBeGreaterThan(0);
    expect(sells.length).toBeGreaterThan(buys.length);
    expect(sells.every((f) => Number(f.qty) <= 2)).toBe(true);
    expect(real.run.denials).toEqual([]);
  });

  it('counts as flat a remainder no exit can sell, and enters again, as the real one does', () => {
    // 972 at 12 buys 81; maxQty 40 sells 40 + 40 at 8; 1 at 8 is under minNotional 100: refused, dust.
    const closes = [10, 10, 10, 10, 12, 12, 8, 8, 8, 8, 8, 8, 12, 12, 8, 8, 8, 8];
    const run = (def: AnyStrategyDefinition) => {
      const h = new StrategyHarness(def, { params: { fast: 2, slow: 3, quoteAmount: '972' }, instruments: [testInstrument({ minNotional: '100', maxQty: '40' })], balances: { PHP: '3000' } });
      h.start();
      const intents = candlesFromCloses(closes).flatMap((b) => [...h.bar(b)]);
      return { intents, denials: h.denials.map((d) => d.tag) };
    };
    const real = run(smaCrossover);
    expect(run(readmeSma)).toEqual(real);
    expect(real.denials).toEqual(['exit', 'exit']);
    expect(real.intents.filter((i) => i.kind === 'place' && i.side === 'BUY')).toHaveLength(2);
  });
});

describe("README's exits example", () => {
  it('keeps one exit order: no denial, no failure, and trades leave by the stop and by the target', () => {
    const exits = new Set<string | undefined>();
    for (const regime of ['flat', 'downThenUp', 'slowDown'] as const) {
      const { run, logs } = runOnRegime(readmeExits, regime);
      expect(run.strategyFailures).toEqual([]);
      expect(run.denials).toEqual([]);
      expect(logs).toEqual([]);
      for (const t of run.trades) exits.add(t.exitTag);
    }
    expect([...exits].sort()).toEqual(['sl', 'tp']);
  });

  it('replaces the stop by a MARKET exit at the target: the stop no longer locks the base', () => {
    // RSI 2 crosses 30 up on the bar closing at 10: bought at 10 (the harness fills at the market
    // price), the stop at 9.8; 10.5 is over the 10.1 target. Before them, the warm-up's bars
    // (warmupFor.rsi(2)), rising: the RSI stays over 30.
    const warm = Array.from({ length: 27 }, (_, i) => 9 + i / 27);
    const h = new StrategyHarness(readmeExits, { params: { rsiPeriod: 2, quoteAmount: '200' }, instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '1000' } });
    h.start();
    const perBar = candlesFromCloses([...warm, 10, 9, 8, 7, 10, 10.5]).map((b) => h.bar(b));
    const seen = perBar.flat().map((i) => (i.kind === 'place' ? `${i.side} ${i.type} ${i.tag}` : i.kind === 'cancelReplace' ? `${i.kind} ${i.tag} -> ${i.order.type} ${i.order.tag}` : i.kind));
    expect(seen).toEqual(['BUY MARKET entry', 'SELL STOP_LOSS sl', 'cancelReplace sl -> MARKET tp']);
    expect(h.fills.map((f) => `${f.side} ${f.price} ${f.tag}`)).toEqual(['BUY 10 entry', 'SELL 10.5 tp']);
    expect(h.view.position('BTCPHP')?.base).toBe('0');
    expect(h.denials).toEqual([]);
    expect(h.failures).toEqual([]);
  });
});
