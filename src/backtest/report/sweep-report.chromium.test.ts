/**
 * The sweep report in headless Chromium (Debian's `chromium`, driven by playwright-core through
 * headless-chromium.ts): the heatmap cells exist, the metric selector recolours them, a header
 * click sorts the ranked table, no console errors, no request leaves the file. Skips, saying why,
 * when no Chromium binary is present (CHROMIUM_PATH or /usr/bin/chromium).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium, openReport } from './headless-chromium.ts';
import { demoContext, demoSweep } from './sweep-demo.ts';
import { writeSweepReport } from './sweep-report.ts';

const chromium = findChromium();
const skipReason = 'no Chromium binary: install Debian `chromium` (apt-get install -y chromium) or set CHROMIUM_PATH';
if (!chromium) console.warn(`[sweep-report] skipped: ${skipReason}`);

interface SweepCounts {
  heatmaps: number;
  cells: number;
  ranCells: number;
  charts: number;
  rows: number;
}

const fast = { name: 'fast', values: [5, 10, 15, 20, 25] };
const slow = { name: 'slow', values: [20, 30, 40, 50] };
const hill = (v: Record<string, unknown>): number => 3 - Math.abs((v['fast'] as number) - 10) / 10 - Math.abs((v['slow'] as number) - 30) / 20;

describe.skipIf(!chromium)(`sweep report in headless Chromium${chromium ? '' : ` (skipped: ${skipReason})`}`, () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await launchChromium(chromium!);
    dir = mkdtempSync(path.join(tmpdir(), 'halyard-sweep-report-'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const open = (file: string) => openReport(browser, file);

  it('draws the heatmap cells, recolours them for another metric and sorts the table, without errors', async () => {
    const result = demoSweep({ axes: [fast, slow], landscape: hill, skip: (v) => ((v['slow'] as number) <= (v['fast'] as number) ? 'slow must be greater than fast' : undefined), fail: (v) => (v['fast'] === 15 && v['slow'] === 50 ? 'boom' : undefined) });
    const file = path.join(dir, 'nested', 'sweep.html');
    await writeSweepReport(file, { result, context: demoContext });
    const { page, errors, requests } = await open(file);

    const counts = (await page.evaluate('window.__sweep')) as SweepCounts;
    expect(counts).toMatchObject({ heatmaps: 1, cells: 20, ranCells: result.entries.length, rows: result.entries.length });
    expect(await page.locator('td.cell.skipped').count()).toBe(result.skipped.length);
    expect(await page.locator('td.cell.failed').count()).toBe(1);
    const best = page.locator('td.cell.best');
    expect(await best.textContent()).toBe('3.00');
    expect(await page.evaluate("getComputedStyle(document.querySelector('td.cell.best'), '::before').content")).toBe('"★ "');

    await page.selectOption('#metric', 'returnPct');
    expect(await best.textContent()).toBe('+6.00%');
    expect(await page.locator('body').getAttribute('data-metric')).toBe('returnPct');
    const before = await best.evaluate((el) => (el as unknown as { style: { background: string } }).style.background);
    await page.selectOption('#metric', 'trades');
    expect(await best.evaluate((el) => (el as unknown as { style: { background: string } }).style.background)).not.toBe(before);
    expect(await page.locator('#legend-note').textContent()).toContain('neutral scale');

    // Sort by the first axis: ascending, then descending.
    const fastColumn = () => page.$$eval('#ranked-table tbody tr', (rows) => rows.map((r) => Number((r as unknown as { cells: { textContent: string }[] }).cells[1]!.textContent)));
    await page.click('#ranked-table thead th:nth-child(2)');
    const up = await fastColumn();
    expect(up).toEqual([...up].sort((a, b) => a - b));
    await page.click('#ranked-table thead th:nth-child(2)');
    const down = await fastColumn();
    expect(down).toEqual([...up].sort((a, b) => b - a));

    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    if (process.env['SWEEP_SCREENSHOT']) await page.screenshot({ path: process.env['SWEEP_SCREENSHOT'], fullPage: true });
    await page.close();
  }, 60_000);

  it('draws a line chart per metric for one axis, and a heatmap per pair for three', async () => {
    const one = path.join(dir, 'one.html');
    await writeSweepReport(one, { result: demoSweep({ axes: [fast], landscape: (v) => hill({ ...v, slow: 30 }) }), context: demoContext });
    const a = await open(one);
    expect(((await a.page.evaluate('window.__sweep')) as SweepCounts).charts).toBe(7);
    expect(await a.page.locator('figure.line-chart svg').first().boundingBox()).toMatchObject({ width: 340, height: 190 });
    expect(a.errors).toEqual([]);
    if (process.env['SWEEP_SCREENSHOT']) await a.page.screenshot({ path: process.env['SWEEP_SCREENSHOT'].replace(/\.png$/, '-1.png'), fullPage: true });
    await a.page.close();

    const three = path.join(dir, 'three.html');
    await writeSweepReport(three, { result: demoSweep({ axes: [fast, slow, { name: 'mode', values: ['a', 'b', 'c'] }], landscape: (v) => hill(v) + (v['mode'] === 'b' ? 1 : 0) }), context: demoContext });
    const b = await open(three);
    const counts = (await b.page.evaluate('window.__sweep')) as SweepCounts;
    expect(counts.heatmaps).toBe(3);
    expect(counts.cells).toBe(5 * 4 + 5 * 3 + 4 * 3);
    await b.page.selectOption('#metric', 'maxDrawdownPct');
    expect(b.errors).toEqual([]);
    await b.page.close();
  }, 60_000);
});
