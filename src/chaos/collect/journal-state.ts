/**
 * The journal side of a finished chaos run (issue 22 deliverable 2: "orders sent", "fills the
 * journal saw", "final balances of journal", and the stream health the blind check reads), from
 * the journal file every run of the bot wrote (a `--kill` run is several processes on one file):
 *
 * - requests and orders: every row, whichever run wrote it (an intent journaled by a killed run is
 *   resolved by the next one);
 * - fills: the fill store keeps one row per (symbol, trade id, side) (journal/fill-store.ts: a
 *   second write is a no-op), so a fill applied twice cannot show there. What the process tried to
 *   write does: each fill the live venue applies also appends the order event `fill <tradeId>` in
 *   the same transaction (live/venue/venue-journal.ts), and order events are never deduplicated.
 *   A fill row is therefore listed once per such event (at least once), so a doubled application
 *   reaches checkFills as two rows;
 * - balances: the last line of each asset across snapshots (a stream snapshot lists only the
 *   assets that moved; startup-reconcile.ts reads them the same way);
 * - stream health: every change, in time order.
 */
import type { AssetBalance } from '../../journal/balance-store.ts';
import type { Journal } from '../../journal/journal.ts';
import type { JournalState } from '../input.ts';

type FillRow = { symbol: string; trade_id: string; client_order_id: string | null; exchange_order_id: string | null; side: 'BUY' | 'SELL'; applied: number };

/** Read a journal's trading record (the journal may be opened read-only). */
export function collectJournal(journal: Pick<Journal, 'db'>): JournalState {
  const db = journal.db;
  const requests = (
    db.prepare('SELECT client_order_id, kind, attempt, state FROM requests ORDER BY id').all() as { client_order_id: string; kind: 'place' | 'cancel' | 'cancelReplace'; attempt: number; state: 'sent' | 'acknowledged' | 'rejected' | 'unknown' | 'resolved' }[]
  ).map((r) => ({ clientOrderId: r.client_order_id, kind: r.kind, attempt: r.attempt, state: r.state }));
  const orders = (db.prepare('SELECT client_order_id, exchange_order_id, status FROM orders ORDER BY created_at, client_order_id').all() as { client_order_id: string; exchange_order_id: string | null; status: string }[]).map(
    (o) => ({ clientOrderId: o.client_order_id, exchangeOrderId: o.exchange_order_id, status: o.status }),
  );
  const fillRows = db
    .prepare(
      `SELECT f.symbol, f.trade_id, f.client_order_id, f.exchange_order_id, f.side,
              (SELECT count(*) FROM order_events e WHERE e.client_order_id = f.client_order_id AND e.kind = 'fill ' || f.trade_id) AS applied
       FROM fills f ORDER BY f.time, f.symbol, length(f.trade_id), f.trade_id, f.side`,
    )
    .all() as FillRow[];
  const fills: JournalState['fills'][number][] = [];
  for (const f of fillRows) {
    const row = { symbol: f.symbol, tradeId: f.trade_id, clientOrderId: f.client_order_id, exchangeOrderId: f.exchange_order_id, side: f.side };
    for (let i = 0; i < Math.max(1, f.applied); i++) fills.push(row);
  }
  const streamHealth = (db.prepare('SELECT time, stream, to_state FROM stream_health ORDER BY time, id').all() as { time: number; stream: string; to_state: string }[]).map((h) => ({ time: h.time, stream: h.stream, to: h.to_state }));
  return { requests, orders, fills, balances: latestBalances(journal), streamHealth };
}

/** The last journaled free/locked of each asset, oldest snapshot first so the newest line stands. */
export function latestBalances(journal: Pick<Journal, 'db'>): AssetBalance[] {
  const lines = journal.db
    .prepare('SELECT b.asset, b.free, b.locked FROM balances b JOIN balance_snapshots s ON s.id = b.snapshot_id ORDER BY s.taken_at, s.id')
    .all() as AssetBalance[];
  const byAsset = new Map<string, AssetBalance>();
  for (const l of lines) byAsset.set(l.asset, { asset: l.asset, free: l.free, locked: l.locked });
  return [...byAsset.values()].sort((a, b) => (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0));
}
