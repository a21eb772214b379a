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
    var base = {
      autoSize: true,
      layout: { background: { color: '#ffffff' }, textColor: '#374151', fontSize: 12 },
      grid: { vertLines: { color: '#f1f5f9' }, horzLines: { color: '#f1f5f9' } },
      timeScale: { timeVisible: true, secondsVisible: false, borderColor: '#e5e7eb', minBarSpacing: 0.01 },
      rightPriceScale: { borderColor: '#e5e7eb' },
      crosshair: { mode: 0 },
    };
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
    // Two decimals and a '%': v5's 'percent' format takes its precision for a scale (2 reads as one
    // decimal at most, a drawdown of 0.18% shows as -0.0%), so the page formats it itself.
    var percent = {
      type: 'custom',
      minMove: 0.01,
      formatter: function (v) {
        return v.toFixed(2) + '%';
      },
    };
    var counts = { strategies: data.series.length, equitySeries: 0, drawdownSeries: 0, points: [] };
    data.series.forEach(function (s) {
      equity.addSeries(LC.LineSeries, line(s)).setData(s.equity);
      drawdown.addSeries(LC.LineSeries, line(s, { lineWidth: 1, priceFormat: percent })).setData(s.drawdown);
      counts.equitySeries++;
      counts.drawdownSeries++;
      counts.points.push({ name: s.name, equity: s.equity.length, drawdown: s.drawdown.length });
    });

    var charts = [equity, drawdown];
    charts.forEach(function (c) {
      c.timeScale().fitContent();
    });
    // Keep the two time axes in step; the flag stops the echo from the chart we move.
    var syncing = false;
    charts.forEach(function (src) {
      src.timeScale().subscribeVisibleTimeRangeChange(function (range) {
        if (syncing || !range) return;
        syncing = true;
        charts.forEach(function (dst) {
          if (dst === src) return;
          try {
            dst.timeScale().setVisibleRange(range);
          } catch (e) {
            void e;
          }
        });
        syncing = false;
      });
    });

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
