/**
 * A run's trades and fills as CSV (RFC 4180: a header row, comma-separated, fields quoted when they
 * hold a comma, a quote or a line break), for spreadsheets and dataframes. Amounts are the run's
 * exact decimal texts; times are ISO 8601 UTC beside their epoch milliseconds.
 */
import type { BacktestFill, RoundTrip } from '../types.ts';

/** One CSV field. */
export function csvField(v: string | number | boolean): string {
  const t = String(v);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

function csv(header: readonly string[], rows: readonly (readonly (string | number | boolean)[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function tradesCsv(trades: readonly RoundTrip[]): string {
  return csv(
    ['entry_time', 'entry_ms', 'exit_time', 'exit_ms', 'symbol', 'direction', 'entry_price', 'exit_price', 'qty', 'pnl', 'return_ratio', 'fees', 'bars_held', 'entry_tag', 'exit_tag'],
    trades.map((t) => [iso(t.entryTime), t.entryTime, iso(t.exitTime), t.exitTime, t.symbol, t.direction, t.entryPrice, t.exitPrice, t.qty, t.pnl, t.returnRatio, t.fees, t.barsHeld, t.entryTag ?? '', t.exitTag ?? '']),
  );
}

export function fillsCsv(fills: readonly BacktestFill[]): string {
  return csv(
    ['time', 'time_ms', 'symbol', 'side', 'price', 'qty', 'quote_qty', 'commission', 'commission_asset', 'is_maker', 'order_id', 'client_order_id', 'trade_id', 'tag'],
    fills.map((f) => [iso(f.time), f.time, f.symbol, f.side, f.price, f.qty, f.quoteQty, f.commission, f.commissionAsset, f.isMaker, f.orderId, f.clientOrderId, f.tradeId, f.tag ?? '']),
  );
}
