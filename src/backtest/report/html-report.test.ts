import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../metrics/metrics.ts';
import { demoBars, demoRun } from './demo-run.ts';
import { inlineJson, inlineScript, renderReport, writeReport } from './html-report.ts';

describe('renderReport', () => {
  const bars = demoBars(300, 4);

  it('is one self-contained page: bundle, data and script inline, no external references', () => {
    const run = demoRun({ barsData: bars });
    const html = renderReport({ run, metrics: computeMetrics(run), bars });
    const has = (s: string) => html.includes(s);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    for (const s of ['TradingView Lightweight Charts', 'id="price-chart"', 'id="equity-chart"', 'id="drawdown-chart"', '<script type="application/json" id="report-data">']) expect(has(s), s).toBe(true);
    expect(html.match(/<script[^>]+src=|<link[^>]+href=/gi)).toBeNull();
    // The only URLs are strings inside the chart bundle (licence, attribution link, SVG namespace), never fetched.
    expect([...new Set(html.match(/https?:\/\/[\w./-]+/g))].sort()).toEqual(['http://www.w3.org/2000/svg', 'https://www.apache.org/licenses/LICENSE-2.0', 'https://www.tradingview.com/']);
  });

  it('colours gains and losses, not a CAGR it does not show (a run under 30 days)', () => {
    const run = demoRun({ barsData: bars });
    const metrics = computeMetrics(run);
    const html = renderReport({ run, metrics, bars });
    expect(html).toContain('<div class="label">CAGR</div><div class="value">n/a (&#60; 30 days)</div>');
    const net = metrics.netPnl > 0 ? ' pos' : metrics.netPnl < 0 ? ' neg' : '';
    expect(html).toContain(`data-metric="netPnl"><div class="label">Net PnL</div><div class="value${net}">`);
    // Where the deepest drawdown happened, under its chart.
    expect(html).toMatch(/<p class="note" id="drawdown-window">Deepest: [\d.]+% from [^<]+ to [^<]+\.<\/p><\/section>/);
  });

  it('says the position the run ended holding under the trades, only when there is one', () => {
    const run = demoRun({ barsData: bars });
    expect(renderReport({ run, metrics: computeMetrics(run), bars })).not.toContain('id="open-trade"');
    const openTrade = { symbol: 'BTCUSDT', direction: 'LONG' as const, entryTime: 0, qty: '0.5', cost: '50', entryPrice: '100', markPrice: '110', value: '55', unrealizedPnl: '5', realizedPnl: '0', fees: '0.05', barsHeld: 3 };
    const html = renderReport({ run: { ...run, openTrade }, metrics: computeMetrics(run), bars });
    expect(html).toMatch(/<p id="open-trade">Open at the end: LONG 0\.5 BTC since [^<]*: cost 50\.00 USDT \(entry 100\.00\), worth 55\.00 at the last close 110\.00: unrealized \+5\.00 USDT before the exit&#39;s fee\.<\/p><\/section>/);
  });

  it('says in the header what the summary warns of: bars missing from the data, the warmup, the run\'s notices', () => {
    const run = demoRun({ barsData: bars });
    const plain = renderReport({ run, metrics: computeMetrics(run), bars });
    expect(plain).not.toContain('id="missing-bars"');
    expect(plain).not.toContain('id="notices"');
    const notice = "the strategy's warmup is 40 bars & the run had 30: onBar never ran";
    const html = renderReport({ run: { ...run, missingBars: 1234, warmup: 40, barCount: 30, notices: [notice] }, metrics: computeMetrics(run), bars });
    expect(html).toContain('30 bars, <span class="neg" id="missing-bars">1,234 missing: the data has gaps</span>)</dd>');
    expect(html).toContain("<dt>Warmup</dt><dd>40 bars, more than the run&#39;s 30: onBar never ran</dd>");
    expect(html).toContain('<ul class="notices" id="notices"><li>Warning: the strategy&#39;s warmup is 40 bars &#38; the run had 30: onBar never ran</li></ul>');
  });

  it('shows the trades by entry and exit tag, and tag columns, only when trades are tagged', () => {
    const run = demoRun({ barsData: bars });
    const plain = renderReport({ run, metrics: computeMetrics(run), bars });
    expect(plain).not.toContain('<th>Exit tag</th>');
    const trades = run.trades.map((t, i) => ({ ...t, entryTag: 'entry', exitTag: i % 2 === 0 ? 'tp' : 'sl' }));
    expect(trades.length).toBeGreaterThan(1);
    const html = renderReport({ run: { ...run, trades }, metrics: computeMetrics(run), bars });
    expect(html).toContain('<table class="tags" data-by="exitTag">');
    expect(html).not.toContain('data-by="entryTag"'); // one entry tag: no table for it
    expect(html).toMatch(/<th>Entry tag<\/th><th>Exit tag<\/th><\/tr><\/thead><tbody><tr class="\w*">(<td>[^<]*<\/td>){11}<td>entry<\/td><td>(tp|sl)<\/td><\/tr>/);
  });

  it('escapes the run: a strategy name or param cannot break out of the page', () => {
    const run = { ...demoRun({ barsData: bars }), strategy: '</script><img src=x onerror=alert(1)>', params: { note: '</script>' } };
    const html = renderReport({ run, metrics: computeMetrics(run), bars });
    expect(html.includes('<img src=x')).toBe(false);
    expect(html.match(/<\/script>/g)?.length).toBe(3);
  });

  it('inlines JSON and code safely', () => {
    expect(inlineJson({ a: '</script><!--' })).toBe('{"a":"\\u003c/script\\u003e\\u003c!--"}');
    expect(JSON.parse(inlineJson({ a: '</script>&' }))).toEqual({ a: '</script>&' });
    expect(inlineScript('x = "</script>"')).toBe('x = "<\\/script>"');
  });

  it('writeReport creates the folder', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'halyard-html-'));
    try {
      const run = demoRun({ barsData: bars });
      const file = path.join(dir, 'a', 'b', 'report.html');
      await writeReport(file, { run, metrics: computeMetrics(run), bars });
      expect(readFileSync(file, 'utf8')).toContain('data-ready="false"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
