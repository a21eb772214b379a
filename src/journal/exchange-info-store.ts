/**
 * exchangeInfo snapshots (spec 2.2): the rules in force change over time (tick sizes, filters), so
 * a replay of day D must use the snapshot taken last before D, not today's.
 */
import type { Database, Statement } from 'better-sqlite3';
import { fromJson, toJson } from './json-column.ts';
import { guardWrite } from './write-guard.ts';

export interface ExchangeInfoSnapshot {
  id: number;
  takenAt: number;
  /** The exchangeInfo body as decoded by the client (ids and decimals as strings). */
  body: unknown;
}

type Row = { id: number; taken_at: number; body: string };

export class ExchangeInfoStore {
  private readonly insert: Statement;
  private readonly selectAt: Statement;
  private readonly selectAll: Statement;
  private readonly selectListingAt: Statement;
  private readonly selectListingAfter: Statement;

  constructor(
    db: Database,
    private readonly file: string,
  ) {
    this.insert = db.prepare('INSERT INTO exchange_info (taken_at, body) VALUES (?, ?)');
    // Ties on taken_at: the later write wins.
    this.selectAt = db.prepare('SELECT * FROM exchange_info WHERE taken_at <= ? ORDER BY taken_at DESC, id DESC LIMIT 1');
    this.selectAll = db.prepare('SELECT id, taken_at, NULL AS body FROM exchange_info ORDER BY taken_at, id');
    // A snapshot is what one exchangeInfo call answered, often for one symbol (record --symbol):
    // the rules of a symbol are in the last snapshot that lists it, not in the last snapshot.
    const lists = "EXISTS (SELECT 1 FROM json_each(body, '$.symbols') WHERE json_extract(value, '$.symbol') = @symbol)";
    this.selectListingAt = db.prepare(`SELECT * FROM exchange_info WHERE taken_at <= @time AND ${lists} ORDER BY taken_at DESC, id DESC LIMIT 1`);
    this.selectListingAfter = db.prepare(`SELECT * FROM exchange_info WHERE taken_at > @time AND ${lists} ORDER BY taken_at, id LIMIT 1`);
  }

  /**
   * Store a snapshot; returns its id. The same rules as the snapshot in force at `takenAt` (its
   * `serverTime` aside) are not stored again: that snapshot's id is returned (a resumed `record`
   * saved one per run, and `data` listed them all).
   */
  save(takenAt: number, body: unknown): number {
    const prev = this.at(takenAt);
    if (prev !== undefined && sameRules(prev.body, body)) return prev.id;
    return guardWrite(this.file, () => `exchangeInfo snapshot at ${takenAt}`, () => Number(this.insert.run(takenAt, toJson(body)).lastInsertRowid));
  }

  /** The snapshot in force at `time`: the last one taken at or before it; undefined if none is that old. */
  at(time: number): ExchangeInfoSnapshot | undefined {
    const row = this.selectAt.get(time) as Row | undefined;
    return row && { id: row.id, takenAt: row.taken_at, body: fromJson(row.body) };
  }

  /**
   * The snapshot with `symbol`'s rules in force at `time`: the last one taken at or before it that
   * lists the symbol, else (rules recorded after the fact beat none) the first later one that does.
   */
  listing(symbol: string, time: number): ExchangeInfoSnapshot | undefined {
    const row = (this.selectListingAt.get({ symbol, time }) ?? this.selectListingAfter.get({ symbol, time })) as Row | undefined;
    return row && { id: row.id, takenAt: row.taken_at, body: fromJson(row.body) };
  }

  /** The newest snapshot. */
  latest(): ExchangeInfoSnapshot | undefined {
    return this.at(Number.MAX_SAFE_INTEGER);
  }

  /** When snapshots were taken (bodies left out). */
  list(): { id: number; takenAt: number }[] {
    return (this.selectAll.all() as Row[]).map((r) => ({ id: r.id, takenAt: r.taken_at }));
  }
}

/** Whether two exchangeInfo bodies state the same rules: equal once their serverTime is left out. */
function sameRules(a: unknown, b: unknown): boolean {
  const rules = (x: unknown): string => {
    if (x === null || typeof x !== 'object' || Array.isArray(x)) return toJson(x);
    const { serverTime: _time, ...rest } = x as Record<string, unknown>;
    return toJson(rest);
  };
  return rules(a) === rules(b);
}
