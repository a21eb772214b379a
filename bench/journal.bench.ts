/**
 * Journal throughput (issue "Strategy plugins, the SQLite journal and the backtester", deliverable 5):
 * - fill inserts, idempotent, in transactions of 1000, next to a bare better-sqlite3 insert of the
 *   same rows into a table without constraints (what the journal layer and its checks cost);
 * - kline writes and the replay read of one year of 1-minute bars (525,600) through the chunked
 *   tuple iterator, next to a plain scan of the same bars in an in-memory array and a raw
 *   better-sqlite3 cursor over the same table.
 *   The kline writes include keeping the columnar block cache (schema 2, journal/klines/kline-blocks.ts):
 *   the triggers that drop a block a write touches, and packing full blocks after each batch.
 *   Backtests read those blocks (backtest.bench.ts); the tuple iterator reads the TEXT rows.
 * - `halyard import` of the same bars from a 12-column CSV file (runImport: streamed, checked,
 *   compared with the stored bars and written a batch at a time in one transaction), next to the
 *   same bare insert.
 * Files live in a temp folder that is removed afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { runImport } from '../src/cli/commands/data/import.ts';
import { openJournal } from '../src/journal/journal.ts';
import type { NewFill } from '../src/journal/fill-store.ts';
import type { KlineInput } from '../src/journal/klines/kline-store.ts';
import { row, type Measurement } from './harness.ts';

const FILLS = 100_000;
const FILL_BATCH = 1000;
const BARS = 525_600;
const KLINE_BATCH = 10_000;
const T0 = Date.UTC(2024, 0, 1);

/** Time one pass of `fn` that performs `ops` operations. */
function timed(name: string, ops: number, fn: () => unknown): Measurement {
  const start = process.hrtime.bigint();
  fn();
  const ns = Number(process.hrtime.bigint() - start);
  return { name, ops, ms: ns / 1e6, nsPerOp: ns / ops, opsPerSec: (ops * 1e9) / ns };
}

function makeFills(n: number, offset = 0): NewFill[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + offset;
    return {
      symbol: 'BTCPHP',
      tradeId: String(1375445991893797391n + BigInt(i)),
      clientOrderId: `c${i >> 2}`,
      exchangeOrderId: String(1375445991000000000n + BigInt(i >> 2)),
      side: i % 2 ? 'SELL' : 'BUY',
      price: `${3150000 + (i % 500)}.50`,
      qty: '0.0123',
      quoteQty: '38751.00615',
      commission: '0.0000123',
      commissionAsset: 'BTC',
      isMaker: i % 3 === 0,
      time: T0 + i * 100,
    };
  });
}

function makeBars(n: number): KlineInput[] {
  const out: KlineInput[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const p = 60000 + ((i * 7919) % 5000);
    out[i] = {
      symbol: 'BTCUSDT',
      interval: '1m',
      openTime: T0 + i * 60_000,
      open: `${p}.12`,
      high: `${p + 25}.00`,
      low: `${p - 25}.50`,
      close: `${p + 3}.99`,
      volume: '12.34567',
      closeTime: T0 + i * 60_000 + 59_999,
      quoteVolume: '740740.2',
      trades: 321,
      takerBuyBaseVolume: '6.1',
      takerBuyQuoteVolume: '366000.1',
      source: 'bench',
    };
  }
  return out;
}

function batches<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-bench-journal-'));
  try {
    return [...fillsBench(dir), '', ...(await klinesBench(dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function fillsBench(dir: string): string[] {
  const fills = batches(makeFills(FILLS), FILL_BATCH);

  // Baseline: the same values into a bare table (no checks, no unique key), plain prepared insert.
  const raw = new Sqlite(join(dir, 'raw-fills.db'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.exec(`CREATE TABLE fills (symbol TEXT, trade_id TEXT, run_id TEXT, client_order_id TEXT, exchange_order_id TEXT, side TEXT,
    price TEXT, qty TEXT, quote_qty TEXT, commission TEXT, commission_asset TEXT, is_maker INTEGER, time INTEGER, raw TEXT)`);
  const ins = raw.prepare('INSERT INTO fills VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)');
  const rawBatch = raw.transaction((batch: NewFill[]) => {
    for (const f of batch) ins.run(f.symbol, f.tradeId, f.clientOrderId, f.exchangeOrderId, f.side, f.price, f.qty, f.quoteQty, f.commission, f.commissionAsset, f.isMaker ? 1 : 0, f.time);
  });
  rawBatch(makeFills(FILL_BATCH, FILLS)); // warm-up
  const baseline = timed(`bare insert, no constraints (tx of ${FILL_BATCH})`, FILLS, () => fills.forEach((b) => rawBatch(b)));
  raw.close();

  const j = openJournal(join(dir, 'fills.db'));
  j.fills.insertMany(makeFills(FILL_BATCH, FILLS)); // warm-up
  let inserted = 0;
  const first = timed(`fills.insertMany, new (tx of ${FILL_BATCH})`, FILLS, () => fills.forEach((b) => (inserted += j.fills.insertMany(b))));
  let again = 0;
  const dup = timed('fills.insertMany, same fills again (no-ops)', FILLS, () => fills.forEach((b) => (again += j.fills.insertMany(b))));
  const single = timed('fills.insert one by one, autocommit (10,000)', 10_000, () => makeFills(10_000, FILLS * 2).forEach((f) => j.fills.insert(f)));
  j.close();
  if (inserted !== FILLS || again !== 0) throw new Error(`fill bench: inserted ${inserted}, re-inserted ${again}`);
  return [`Journal fill inserts, ${FILLS.toLocaleString('en-US')} fills, per fill (journal vs bare better-sqlite3)`, row(baseline), row(first, baseline), row(dup, baseline), row(single, baseline)];
}

async function klinesBench(dir: string): Promise<string[]> {
  const bars = makeBars(BARS);
  const chunks = batches(bars, KLINE_BATCH);

  const raw = new Sqlite(join(dir, 'raw-klines.db'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.exec(`CREATE TABLE klines (symbol TEXT, interval TEXT, open_time INTEGER, open TEXT, high TEXT, low TEXT, close TEXT, volume TEXT,
    close_time INTEGER, quote_volume TEXT, trades INTEGER, taker_buy_base TEXT, taker_buy_quote TEXT, source TEXT)`);
  const ins = raw.prepare('INSERT INTO klines VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const rawBatch = raw.transaction((batch: KlineInput[]) => {
    for (const b of batch) ins.run(b.symbol, b.interval, b.openTime, b.open, b.high, b.low, b.close, b.volume, b.closeTime, b.quoteVolume, b.trades, b.takerBuyBaseVolume, b.takerBuyQuoteVolume, b.source);
  });
  const writeBase = timed(`bare insert, no key (tx of ${KLINE_BATCH})`, BARS, () => chunks.forEach((c) => rawBatch(c)));

  const j = openJournal(join(dir, 'klines.db'));
  const write = timed(`klines.insertKlines upsert (tx of ${KLINE_BATCH})`, BARS, () => chunks.forEach((c) => j.klines.insertKlines(c)));

  // Reads: each loop sums the close prices' lengths so the work cannot be skipped.
  let sink = 0;
  const arrayScan = () => {
    for (let i = 0; i < bars.length; i++) sink += bars[i]!.close.length;
  };
  arrayScan();
  const readBase = timed('scan of the same bars in an in-memory array', BARS, arrayScan);
  const rawCursor = raw.prepare('SELECT open_time, open, high, low, close, volume, close_time, quote_volume, trades, taker_buy_base, taker_buy_quote FROM klines ORDER BY rowid').raw(true);
  const rawRead = timed('bare table, better-sqlite3 .raw().iterate()', BARS, () => {
    for (const r of rawCursor.iterate() as IterableIterator<unknown[]>) sink += (r[4] as string).length;
  });
  let n = 0;
  const iter = timed('klines.iterateKlines (tuples, chunked)', BARS, () => {
    for (const t of j.klines.iterateKlines('BTCUSDT', '1m')) {
      sink += t[4].length;
      n++;
    }
  });
  const objects = timed('klines.klines() (objects, one array)', BARS, () => {
    for (const k of j.klines.klines('BTCUSDT', '1m')) sink += k.close.length;
  });
  raw.close();
  j.close();
  if (n !== BARS || sink === 0) throw new Error(`kline bench: iterated ${n} of ${BARS}`);

  const file = join(dir, 'BTCUSDT-1m.csv');
  writeFileSync(file, bars.map((b) => `${b.openTime},${b.open},${b.high},${b.low},${b.close},${b.volume},${b.closeTime},${b.quoteVolume},${b.trades},${b.takerBuyBaseVolume},${b.takerBuyQuoteVolume},0\n`).join(''));
  const quiet = { env: {}, out: () => {}, err: () => {} };
  const start = process.hrtime.bigint();
  const imported = await runImport(quiet, { file, journal: join(dir, 'import.db') });
  const ns = Number(process.hrtime.bigint() - start);
  if (imported.barCount !== BARS) throw new Error(`kline bench: imported ${imported.barCount} of ${BARS}`);
  const importRow: Measurement = { name: 'halyard import of the bars from a CSV (streamed)', ops: BARS, ms: ns / 1e6, nsPerOp: ns / BARS, opsPerSec: (BARS * 1e9) / ns };
  return [
    `Journal klines, ${BARS.toLocaleString('en-US')} one-minute bars (a year), per bar`,
    row(writeBase),
    row(write, writeBase),
    row(importRow, writeBase),
    row(readBase),
    row(rawRead, readBase),
    row(iter, readBase),
    row(objects, readBase),
  ];
}
