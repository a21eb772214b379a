import { describe, expect, it } from 'vitest';
import { rankComparison } from '../compare/compare-result.ts';
import { OVERVIEW_POINTS } from '../compare/run-overview.ts';
import { demoComparison } from './compare-demo.ts';
import { COMPARE_COLOURS, curveLines, lineStyleOf, relativeLink, renderCompareReport } from './compare-report.ts';
import type { CompareSeries } from './compare-report.ts';

/** The page's inlined chart data. */
function pageData(html: string): { series: CompareSeries[] } {
  const m = /<script type="application\/json" id="compare-data">(.*?)<\/script>/s.exec(html);
  return JSON.parse(m?.[1] ?? 'null') as { series: CompareSeries[] };
}

describe('curveLines', () => {
  it('seconds, strictly increasing: points in one second are one (the later equity, the deeper drawdown)', () => {
    const lines = curveLines({ time: [1_000, 1_999, 2_000, 3_500], equity: [100, 99, 101, 98], drawdownPct: [0, 1, 0, 2.5], sourcePoints: 3 });
    expect(lines.equity).toEqual([
      { time: 1, value: 99 },
      { time: 2, value: 101 },
      { time: 3, value: 98 },
    ]);
    expect(lines.drawdown).toEqual([
      { time: 1, value: -1 },
      { time: 2, value: 0 },
      { time: 3, value: -2.5 },
    ]);
  });
});

describe('relativeLink', () => {
  it('a URL path from the page\'s folder, each segment escaped', () => {
    expect(relativeLink('out', 'out/a b#1.html')).toBe('a%20b%231.html');
    expect(relativeLink('out/cmp', 'out/runs/x.json')).toBe('../runs/x.json');
  });
});

describe('lineStyleOf', () => {
  it('a colour each for the first ten, then again dashed', () => {
    const styles = Array.from({ length: 12 }, (_, i) => lineStyleOf(i));
    expect(new Set(styles.slice(0, COMPARE_COLOURS.length).map((s) => s.colour)).size).toBe(COMPARE_COLOURS.length);
    expect(styles.slice(0, 10).every((s) => !s.dashed)).toBe(true);
    expect(styles[10]).toEqual({ colour: COMPARE_COLOURS[0], dashed: true });
  });
});

describe('renderCompareReport', () => {
  it('the header, the ranked table with links to each run\'s files, the legend and a series a strategy', () => {
    const c = demoComparison({ dir: 'out' });
    const html = renderCompareReport(c, 'out');
    expect(html).toContain('Comparison of 3 strategies <span class="muted">on</span> BTCUSDT <span class="muted">1m</span>');
    expect(html).toContain('<dt>Ranked by</dt><dd>Sharpe (sharpe)</dd>');
    expect(html).toContain('<dt>Fees</dt><dd>maker 0.001, taker 0.001</dd>');
    expect(html).toMatch(/<dt>Range<\/dt><dd>[^<]+600 bars\)<\/dd>/);
    const rows = [...html.matchAll(/<tr data-strategy="([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toEqual(rankComparison(c).map((r) => r.strategy.name));
    for (const s of c.strategies) {
      expect(html).toContain(`<a href="${s.name}.html">report</a>`);
      expect(html).toContain(`<a href="${s.name}.json">JSON</a>`);
    }
    expect(html).toContain('fast-cross ran with <code>--param fast=5</code>');
    expect([...html.matchAll(/<li data-strategy=/g)]).toHaveLength(3);
    const data = pageData(html);
    expect(data.series.map((s) => [s.name, s.colour])).toEqual(c.strategies.map((s, i) => [s.name, COMPARE_COLOURS[i]]));
    // 600 bars and the start: every point, no thinning note.
    expect(data.series.every((s) => s.equity.length === 601 && s.drawdown.length === 601)).toBe(true);
    expect(html).not.toContain('id="thinned"');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  });

  it('thins long curves, so a long run stays a small page', () => {
    const c = demoComparison({ bars: 50_000 });
    const html = renderCompareReport(c, 'out');
    const data = pageData(html);
    expect(data.series.every((s) => s.equity.length <= OVERVIEW_POINTS && s.equity.length > OVERVIEW_POINTS / 2)).toBe(true);
    expect(html).toContain('id="thinned"');
    expect(html).toContain('of its 50,000 points');
    // The chart bundle is most of it; the curves add little.
    expect(html.length).toBeLessThan(1_000_000);
  });

  it('escapes what comes from the strategies', () => {
    const c = demoComparison({ strategies: [{ name: '<b>x</b>', fast: 5, slow: 20 }, { name: 'y"</script>', fast: 10, slow: 40 }] });
    const html = renderCompareReport(c, 'out');
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('&#60;b&#62;x&#60;/b&#62;');
    expect(pageData(html).series.map((s) => s.name)).toEqual(['<b>x</b>', 'y"</script>']);
  });
});
