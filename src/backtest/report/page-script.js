/* global window, document, requestAnimationFrame */
/**
 * Browser side of the backtest report (inlined by html-report.ts after the lightweight-charts v5
 * standalone bundle, which defines window.LightweightCharts). Reads the JSON in
 * #report-data, draws the price (candles + fill markers + what the strategy plotted), equity and drawdown charts, keeps their
 * time axes in step, then sets <body data-ready="true"> and window.__report (counts) so a test
 * can wait for the drawing and check it. On any error: data-ready="error" and a console error.
 */
(function () {
  'use strict';
  var LC = window.LightweightCharts;
  var body = document.body;
  try {
    var data = JSON.parse(document.getElementById('report-data').textContent);
    var kit = window.HalyardCharts;
    // A small minimum bar spacing lets fitContent show every candle of a long run (the default 0.5 px does not).
    var base = kit.options(0.05);
    var make = function (id) {
      return LC.createChart(document.getElementById(id), base);
    };

    var price = make('price-chart');
    var minMove = Math.pow(10, -data.pricePrecision);
    var candles = price.addSeries(LC.CandlestickSeries, {
      upColor: '#16a34a',
      downColor: '#dc2626',
      borderVisible: false,
      wickUpColor: '#16a34a',
      wickDownColor: '#dc2626',
      priceFormat: { type: 'price', precision: data.pricePrecision, minMove: minMove },
    });
    candles.setData(data.candles);
    var markers = LC.createSeriesMarkers(candles, data.markers);
    // What the strategy plotted (ctx.plot): lines over the candles, or in a pane below them.
    var plotted = 0;
    var below = false;
    (data.plots || []).forEach(function (p) {
      var pane = p.pane === 'below' ? 1 : 0;
      below = below || pane === 1;
      var line = price.addSeries(LC.LineSeries, { color: p.color, lineWidth: 1, title: p.name, priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false }, pane);
      line.setData(p.points);
      plotted++;
    });
    // The candles keep most of the height; the pane below is a strip under them.
    if (below) {
      price.panes()[0].setStretchFactor(3);
      price.panes()[1].setStretchFactor(1);
    }

    // A run of several symbols: the other symbols' price charts, each with its fills' markers.
    var symbolCharts = (data.symbols || []).map(function (x, i) {
      var chart = make('price-chart-' + (i + 1));
      var series = chart.addSeries(LC.CandlestickSeries, {
        upColor: '#16a34a',
        downColor: '#dc2626',
        borderVisible: false,
        wickUpColor: '#16a34a',
        wickDownColor: '#dc2626',
        priceFormat: { type: 'price', precision: x.pricePrecision, minMove: Math.pow(10, -x.pricePrecision) },
      });
      series.setData(x.candles);
      var m = LC.createSeriesMarkers(series, x.markers);
      return { chart: chart, count: { symbol: x.symbol, candles: x.candles.length, markers: m.markers().length } };
    });

    var equity = make('equity-chart');
    var equityLine = equity.addSeries(LC.AreaSeries, {
      lineColor: '#2563eb',
      topColor: 'rgba(37,99,235,0.25)',
      bottomColor: 'rgba(37,99,235,0.02)',
      lineWidth: 2,
    });
    equityLine.setData(data.equity);

    var drawdown = make('drawdown-chart');
    // An area hanging from the zero line (baseline series): the underwater curve.
    var ddArea = drawdown.addSeries(LC.BaselineSeries, {
      baseValue: { type: 'price', price: 0 },
      topLineColor: 'rgba(0,0,0,0)',
      topFillColor1: 'rgba(0,0,0,0)',
      topFillColor2: 'rgba(0,0,0,0)',
      bottomLineColor: '#dc2626',
      bottomFillColor1: 'rgba(220,38,38,0.08)',
      bottomFillColor2: 'rgba(220,38,38,0.35)',
      lineWidth: 1,
      priceFormat: kit.percentFormat,
    });
    ddArea.setData(data.drawdown);

    var charts = [price].concat(symbolCharts.map(function (x) { return x.chart; }), [equity, drawdown]);
    kit.syncTimeScales(charts);

    window.__report = {
      candles: data.candles.length,
      markers: markers.markers().length,
      equityPoints: data.equity.length,
      drawdownPoints: data.drawdown.length,
      plots: plotted,
      panes: price.panes().length,
      symbolCharts: symbolCharts.map(function (x) { return x.count; }),
    };
    // Two frames: the charts paint on the next animation frame after setData.
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        body.setAttribute('data-ready', 'true');
      });
    });
  } catch (e) {
    body.setAttribute('data-ready', 'error');
    console.error('backtest report failed to draw:', e);
  }
})();
