/* global window, document, requestAnimationFrame */
/**
 * Browser side of the comparison report (inlined by compare-report.ts after the lightweight-charts
 * v5 standalone bundle, which defines window.LightweightCharts). Reads the JSON in #compare-data:
 * one line series a strategy on the equity chart and one on the drawdown chart, in the colours the
 * page's legend and table show, the two time axes kept in step. Then <body data-ready="true"> and
 * window.__compare (counts) so a test can wait for the drawing and check it. On any error:
 * data-ready="error" and a console error.
 */
(function () {
  'use strict';
  var LC = window.LightweightCharts;
  var body = document.body;
  try {
    var data = JSON.parse(document.getElementById('compare-data').textContent);
    var kit = window.HalyardCharts;
    var base = kit.options(0.01);
    var equity = LC.createChart(document.getElementById('equity-chart'), base);
    var drawdown = LC.createChart(document.getElementById('drawdown-chart'), base);
    var line = function (s, extra) {
      // LineStyle: 0 solid, 2 dashed (past the palette's colours).
      var o = { color: s.colour, lineWidth: 2, lineStyle: s.dashed ? 2 : 0, title: s.name, priceLineVisible: false, lastValueVisible: true };
      Object.keys(extra || {}).forEach(function (k) {
        o[k] = extra[k];
      });
      return o;
    };
    var percent = kit.percentFormat;
    var counts = { strategies: data.series.length, equitySeries: 0, drawdownSeries: 0, points: [] };
    data.series.forEach(function (s) {
      equity.addSeries(LC.LineSeries, line(s)).setData(s.equity);
      drawdown.addSeries(LC.LineSeries, line(s, { lineWidth: 1, priceFormat: percent })).setData(s.drawdown);
      counts.equitySeries++;
      counts.drawdownSeries++;
      counts.points.push({ name: s.name, equity: s.equity.length, drawdown: s.drawdown.length });
    });

    kit.syncTimeScales([equity, drawdown]);

    counts.equityChartSeries = equity.panes()[0].getSeries().length;
    counts.drawdownChartSeries = drawdown.panes()[0].getSeries().length;
    window.__compare = counts;
    // Two frames: the charts paint on the next animation frame after setData.
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        body.setAttribute('data-ready', 'true');
      });
    });
  } catch (e) {
    body.setAttribute('data-ready', 'error');
    console.error('comparison report failed to draw:', e);
  }
})();
