/**
 * Renders the demo backtest report (seeded synthetic bars, a toy SMA crossover with its two averages
 * plotted) and screenshots it
 * in headless Chromium to docs/report-screenshot.png, for the README.
 *   node --import tsx scripts/report-screenshot.ts [out.png]
 * Needs Debian's `chromium` (or CHROMIUM_PATH).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { computeMetrics } from '../src/backtest/metrics/metrics.ts';
import { demoBars, demoRun } from '../src/backtest/report/demo-run.ts';
import { findChromium, launchChromium } from '../src/backtest/report/headless-chromium.ts';
import { writeReport } from '../src/backtest/report/html-report.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs', 'report-screenshot.png'));

const chromium = findChromium();
if (!chromium) {
  console.error('no Chromium: apt-get install -y chromium, or set CHROMIUM_PATH');
  process.exit(1);
}

const bars = demoBars(1_500, 11);
const run = demoRun({ barsData: bars, fast: 12, slow: 40, plots: true });
const dir = mkdtempSync(path.join(tmpdir(), 'halyard-shot-'));
const file = path.join(dir, 'report.html');
await writeReport(file, { run, metrics: computeMetrics(run), bars });

const browser = await launchChromium(chromium);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  mkdirSync(path.dirname(out), { recursive: true });
  // The header, metrics and the three charts; the trade list continues below.
  const bottom = await page.evaluate('document.getElementById("trades").offsetTop + 220');
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1280, height: Number(bottom) }, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
