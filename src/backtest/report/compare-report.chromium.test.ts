/**
 * The comparison report in headless Chromium (Debian's `chromium`, driven by playwright-core
 * through headless-chromium.ts): the equity and drawdown charts drawn with one line series a
 * strategy, the table's links to the runs' files, no console errors, no request leaves the file.
 * Skips, saying why, when no Chromium binary is present (CHROMIUM_PATH or /usr/bin/chromium).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankComparison } from '../compare/compare-result.ts';
import { OVERVIEW_POINTS } from '../compare/run-overview.ts';
import { demoComparison } from './compare-demo.ts';
import { writeCompareReport } from './compare-report.ts';
import { findChromium, launchChromium, openReport } from './headless-chromium.ts';

const chromium = findChromium();
const skipReason = 'no Chromium binary: install Debian `chromium` (apt-get install -y chromium) or set CHROMIUM_PATH';
if (!chromium) console.warn(`[compare-report] skipped: ${skipReason}`);

interface CompareCounts {
  strategies: number;
  equitySeries: number;
  drawdownSeries: number;
  equityChartSeries: number;
  drawdownChartSeries: number;
  points: { name: string; equity: number; drawdown: number }[];
}

describe.skipIf(!chromium)(`comparison report in headless Chromium${chromium ? '' : ` (skipped: ${skipReason})`}`, () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await launchChromium(chromium!);
    dir = mkdtempSync(path.join(tmpdir(), 'halyard-compare-report-'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('overlays a line a strategy on the equity and drawdown charts, offline and without errors', async () => {
    const c = demoComparison({ dir: path.join(dir, 'runs') });
    const file = path.join(dir, 'cmp', 'compare.html');
    await writeCompareReport(file, c);
    const { page, errors, requests } = await openReport(browser, file);

    for (const id of ['equity-chart', 'drawdown-chart']) {
      const sizes = await page.$$eval(`#${id} canvas`, (els) => els.map((el) => [(el as unknown as { width: number }).width, (el as unknown as { height: number }).height]));
      expect(sizes.some(([w, h]) => w! > 0 && h! > 0), `${id} has a canvas with a size`).toBe(true);
    }
    const counts = (await page.evaluate('window.__compare')) as CompareCounts;
    expect(counts).toMatchObject({ strategies: 3, equitySeries: 3, drawdownSeries: 3, equityChartSeries: 3, drawdownChartSeries: 3 });
    expect(counts.points.map((p) => p.name)).toEqual(c.strategies.map((s) => s.name));
    expect(counts.points.every((p) => p.equity === 601 && p.drawdown === 601)).toBe(true);
    expect(await page.locator('#legend li').count()).toBe(3);
    // The table in rank order, its links resolving beside the runs' files.
    expect(await page.$$eval('#compare-table tbody tr', (rows) => rows.map((r) => (r as unknown as { dataset: { strategy: string } }).dataset.strategy))).toEqual(rankComparison(c).map((r) => r.strategy.name));
    const hrefs = await page.$$eval('#compare-table a', (as) => as.map((a) => (a as unknown as { href: string }).href));
    expect(hrefs).toContain(`file://${path.join(dir, 'runs', 'fast-cross.html')}`);
    expect(hrefs).toContain(`file://${path.join(dir, 'runs', 'fast-cross.json')}`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    if (process.env['COMPARE_SCREENSHOT']) await page.screenshot({ path: process.env['COMPARE_SCREENSHOT'], fullPage: true });
    await page.close();
  }, 60_000);

  it('draws long thinned curves and a dozen strategies (dashed past the palette)', async () => {
    const strategies = Array.from({ length: 12 }, (_, i) => ({ name: `s${i + 1}`, fast: 5 + i, slow: 30 + 5 * i }));
    const c = demoComparison({ bars: 30_000, strategies });
    const file = path.join(dir, 'many.html');
    await writeCompareReport(file, c);
    const { page, errors } = await openReport(browser, file);
    const counts = (await page.evaluate('window.__compare')) as CompareCounts;
    expect(counts).toMatchObject({ strategies: 12, equityChartSeries: 12, drawdownChartSeries: 12 });
    expect(counts.points.every((p) => p.equity <= OVERVIEW_POINTS && p.equity > 0)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
