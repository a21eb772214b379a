/* global window */
/**
 * Chart helpers the report pages share, inlined after the lightweight-charts bundle and before a
 * page's own script (html-report.ts chartBundle): the charts' look, the percent axis format and
 * time axes kept in step. Defines window.HalyardCharts.
 */
(function () {
  'use strict';
  window.HalyardCharts = {
    /** The options every chart starts from; `minBarSpacing` small enough that fitContent shows every point of a long run. */
    options: function (minBarSpacing) {
      return {
        autoSize: true,
        layout: { background: { color: '#ffffff' }, textColor: '#374151', fontSize: 12 },
        grid: { vertLines: { color: '#f1f5f9' }, horzLines: { color: '#f1f5f9' } },
        timeScale: { timeVisible: true, secondsVisible: false, borderColor: '#e5e7eb', minBarSpacing: minBarSpacing },
        rightPriceScale: { borderColor: '#e5e7eb' },
        crosshair: { mode: 0 },
      };
    },
    /**
     * Two decimals and a '%': v5's 'percent' format takes its precision for a scale (a drawdown of
     * 0.18% read -0.0% on the axis), so the pages format it themselves.
     */
    percentFormat: {
      type: 'custom',
      minMove: 0.01,
      formatter: function (v) {
        return v.toFixed(2) + '%';
      },
    },
    /** Fit each chart to its data and keep their time axes in step (the flag stops the echo from the charts moved). */
    syncTimeScales: function (charts) {
      charts.forEach(function (c) {
        c.timeScale().fitContent();
      });
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
              // A chart without data in that range cannot follow; it keeps its own range.
              void e;
            }
          });
          syncing = false;
        });
      });
    },
  };
})();
