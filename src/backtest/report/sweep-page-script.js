/* global window, document */
/**
 * Browser side of the sweep and walk-forward reports (inlined by sweep-report.ts). Reads the JSON
 * in #sweep-data. The #metric selector recolours every heatmap cell and rewrites its value from
 * the texts and colours the report precomputed (nothing is computed here); a click on a header of
 * a table.sortable sorts its rows by the cells' data-v (numbers as numbers, empty last), again to
 * reverse. Then <body data-ready="true"> and window.__sweep (counts) for a test; on any error,
 * data-ready="error" and a console error.
 */
(function () {
  'use strict';
  var body = document.body;
  try {
    var data = JSON.parse(document.getElementById('sweep-data').textContent);
    var heatmaps = data.heatmaps || [];

    var show = function (metric) {
      heatmaps.forEach(function (map, i) {
        var values = map[metric];
        if (!values) return;
        var cells = document.querySelectorAll('[data-heatmap="' + i + '"] td[data-cell]');
        for (var k = 0; k < cells.length; k++) {
          var n = Number(cells[k].getAttribute('data-cell'));
          cells[k].textContent = values.texts[n];
          cells[k].style.background = values.colours[n];
        }
      });
      var l = data.legend && data.legend[metric];
      if (l) {
        var low = document.getElementById('legend-low');
        var high = document.getElementById('legend-high');
        var note = document.getElementById('legend-note');
        if (low) {
          low.textContent = l.low;
          low.style.background = l.lowColour;
        }
        if (high) {
          high.textContent = l.high;
          high.style.background = l.highColour;
        }
        if (note) note.textContent = '(' + l.note + '; grey: n/a, no closed trade)';
      }
      body.setAttribute('data-metric', metric);
    };
    var select = document.getElementById('metric');
    if (select) {
      select.addEventListener('change', function () {
        show(select.value);
      });
    }

    var key = function (td) {
      var v = td ? td.getAttribute('data-v') : '';
      if (v === null || v === '') return { empty: true };
      var n = Number(v);
      return isNaN(n) ? { text: v } : { num: n };
    };
    var compare = function (a, b) {
      if (a.empty || b.empty) return a.empty && b.empty ? 0 : a.empty ? 1 : -1;
      if (a.num !== undefined && b.num !== undefined) return a.num === b.num ? 0 : a.num < b.num ? -1 : 1;
      return String(a.text !== undefined ? a.text : a.num).localeCompare(String(b.text !== undefined ? b.text : b.num), undefined, { numeric: true });
    };
    var tables = document.querySelectorAll('table.sortable');
    Array.prototype.forEach.call(tables, function (table) {
      var heads = table.querySelectorAll('thead th');
      Array.prototype.forEach.call(heads, function (th, col) {
        th.addEventListener('click', function () {
          var desc = th.classList.contains('asc');
          Array.prototype.forEach.call(heads, function (h) {
            h.classList.remove('asc', 'desc');
          });
          th.classList.add(desc ? 'desc' : 'asc');
          var tbody = table.tBodies[0];
          var rows = Array.prototype.slice.call(tbody.rows);
          rows
            .map(function (row, i) {
              return { row: row, k: key(row.cells[col]), i: i };
            })
            .sort(function (a, b) {
              var c = compare(a.k, b.k);
              // Empty values stay last whichever the direction; ties keep their order.
              if (a.k.empty || b.k.empty) return c || a.i - b.i;
              return (desc ? -c : c) || a.i - b.i;
            })
            .forEach(function (x) {
              tbody.appendChild(x.row);
            });
        });
      });
    });

    window.__sweep = {
      heatmaps: heatmaps.length,
      cells: document.querySelectorAll('td.cell').length,
      ranCells: document.querySelectorAll('td.cell.ran').length,
      charts: document.querySelectorAll('figure.line-chart').length,
      rows: document.querySelectorAll('table.sortable tbody tr').length,
    };
    body.setAttribute('data-ready', 'true');
  } catch (err) {
    body.setAttribute('data-ready', 'error');
    console.error('sweep report: ' + (err && err.message ? err.message : String(err)));
  }
})();
