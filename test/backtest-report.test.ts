/**
 * Acceptance: the HTML report renders in headless Chromium (Debian's `chromium`) with candles,
 * markers and the equity curve present, and without console errors. The run is a hand-built
 * fixture (demo-run.ts over seeded synthetic bars), not the backtest loop. Skips, saying why,
 * when no Chromium binary is present (CHROMIUM_PATH or /usr/bin/chromium).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeMetrics } from '../src/backtest/metrics/metrics.ts';
import { demoBars, demoRun } from '../src/backtest/report/demo-run.ts';
import { findChromium, launchChromium, openReport } from '../src/backtest/report/headless-chromium.ts';
import { writeReport } from '../src/backtest/report/html-report.ts';
import { runBacktest } from '../src/backtest/run/run-backtest.ts';
import { generateCandles, testInstrument } from '../src/strategy/testing/index.ts';
import pairRotation from '../strategies/pair-rotation.ts';

const chromium = findChromium();
const skipReason = 'no Chromium binary: install Debian `chromium` (apt-get install -y chromium) or set CHROMIUM_PATH';
if (!chromium) console.warn(`[backtest-report] skipped: ${skipReason}`);

interface ReportCounts {
  candles: number;
  markers: number;
  equityPoints: number;
  drawdownPoints: number;
  plots: number;
  panes: number;
}

describe.skipIf(!chromium)(`HTML report in headless Chromium${chromium ? '' : ` (skipped: ${skipReason})`}`, () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await launchChromium(chromium!);
    dir = mkdtempSync(path.join(tmpdir(), 'halyard-report-'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const open = (file: string) => openReport(browser, file);

  async function canvasSizes(page: Awaited<ReturnType<typeof open>>['page'], id: string) {
    return page.$$eval(`#${id} canvas`, (els) => els.map((c) => [(c as unknown as { width: number }).width, (c as unknown as { height: number }).height]));
  }

  it('draws candles with markers, equity and drawdown, offline and without errors', async () => {
    const bars = demoBars(600, 11);
    const run = demoRun({ barsData: bars });
    expect(run.fills.length).toBeGreaterThan(0);
    const file = path.join(dir, 'nested', 'report.html');
    await writeReport(file, { run, metrics: computeMetrics(run), bars });

    const { page, errors, requests } = await open(file);
    for (const id of ['price-chart', 'equity-chart', 'drawdown-chart']) {
      const sizes = await canvasSizes(page, id);
      expect(sizes.length, `${id} has canvases`).toBeGreaterThan(0);
      expect(sizes.some(([w, h]) => w! > 0 && h! > 0), `${id} has a canvas with a size`).toBe(true);
    }
    const counts = (await page.evaluate('window.__report')) as ReportCounts;
    expect(counts.candles).toBe(600);
    expect(counts.markers).toBeGreaterThan(0);
    expect(counts.markers).toBeLessThanOrEqual(run.fills.length);
    expect(counts.equityPoints).toBe(600);
    expect(await page.locator('#trades-table tbody tr').count()).toBe(run.trades.length);
    expect(await page.locator('[data-metric="sharpe"] .value').textContent()).toMatch(/^-?[\d,.]+$/);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  }, 60_000);

  it('draws what the strategy plotted: lines over the candles and in a pane below them', async () => {
    const bars = demoBars(300, 5);
    const base = demoRun({ barsData: bars });
    const at = (i: number) => bars[i]!.closeTime + 1;
    const plots = [
      { name: 'sma 20', pane: 'price' as const, points: bars.slice(19).map((_, k): [number, number] => [at(k + 19), Number(bars[k + 19]!.close)]) },
      { name: 'rsi', pane: 'below' as const, color: '#8b5cf6', points: bars.map((_, i): [number, number] => [at(i), 50 + (i % 20)]) },
    ];
    const file = path.join(dir, 'plots.html');
    await writeReport(file, { run: { ...base, plots }, metrics: computeMetrics(base), bars });
    const { page, errors } = await open(file);
    const counts = (await page.evaluate('window.__report')) as ReportCounts;
    expect(counts).toMatchObject({ candles: 300, plots: 2, panes: 2 });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('draws a price chart per symbol for a run of several symbols, each with its fills\' markers', async () => {
    const hour = 3_600_000;
    const gen = (seed: number, regime: 'slowUp' | 'slowDown') => generateCandles({ seed, intervalMs: hour, segments: [{ regime, bars: 200 }, { regime: regime === 'slowUp' ? 'slowDown' : 'slowUp', bars: 200 }] });
    const run = runBacktest({
      strategy: pairRotation,
      params: { lookback: 12, rebalance: 6 },
      interval: '1h',
      symbols: [
        { symbol: 'BTCPHP', bars: gen(1, 'slowUp'), instrument: testInstrument({ symbol: 'BTCPHP' }) },
        { symbol: 'ETHPHP', bars: gen(2, 'slowDown'), instrument: testInstrument({ symbol: 'ETHPHP' }) },
      ],
      fees: { maker: '0.001', taker: '0.001' },
      balances: { PHP: '10000' },
      recordPlots: true,
    });
    const bySymbol = (symbol: string) => run.fills.filter((f) => f.symbol === symbol).length;
    expect(bySymbol('BTCPHP')).toBeGreaterThan(0);
    expect(bySymbol('ETHPHP')).toBeGreaterThan(0);
    const file = path.join(dir, 'two-symbols.html');
    await writeReport(file, { run, metrics: computeMetrics(run), bars: gen(1, 'slowUp'), symbolBars: [{ symbol: 'BTCPHP', bars: gen(1, 'slowUp') }, { symbol: 'ETHPHP', bars: gen(2, 'slowDown') }] });
    const { page, errors, requests } = await open(file);
    for (const id of ['price-chart', 'price-chart-1', 'equity-chart', 'drawdown-chart']) expect((await canvasSizes(page, id)).some(([w, h]) => w! > 0 && h! > 0), id).toBe(true);
    const counts = (await page.evaluate('window.__report')) as ReportCounts & { symbolCharts: { symbol: string; candles: number; markers: number }[] };
    expect(counts.candles).toBe(400);
    expect(counts.markers).toBeGreaterThan(0);
    expect(counts.markers).toBeLessThanOrEqual(bySymbol('BTCPHP'));
    expect(counts.symbolCharts).toHaveLength(1);
    expect(counts.symbolCharts[0]).toMatchObject({ symbol: 'ETHPHP', candles: 400 });
    expect(counts.symbolCharts[0]!.markers).toBeGreaterThan(0);
    expect(counts.symbolCharts[0]!.markers).toBeLessThanOrEqual(bySymbol('ETHPHP'));
    expect(counts.equityPoints).toBe(400);
    expect(await page.locator('#symbols-table tbody tr').count()).toBe(2);
    expect(await page.locator('#trades-table tbody tr').count()).toBe(run.trades.length);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  }, 60_000);

  it('thins a long run to at most ~5,000 candles and still places the markers', async () => {
    const bars = demoBars(20_000, 3);
    const run = demoRun({ barsData: bars, fast: 30, slow: 120 });
    const file = path.join(dir, 'long.html');
    await writeReport(file, { run, metrics: computeMetrics(run), bars });

    const { page, errors } = await open(file);
    const counts = (await page.evaluate('window.__report')) as ReportCounts;
    expect(counts.candles).toBeGreaterThan(0);
    expect(counts.candles).toBeLessThanOrEqual(5_000);
    expect(counts.candles).toBeLessThan(20_000);
    expect(counts.markers).toBeGreaterThan(0);
    expect(counts.equityPoints).toBeLessThanOrEqual(5_000);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
