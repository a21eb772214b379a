/**
 * The checked ranges of kline series (schema 4, migrations/004-kline-checked.ts): where the
 * journal holds every bar the exchange has, so `record` does not ask again (data/kline-holes.ts).
 * Kept merged: adding a range joins it with every range of the series it overlaps or touches.
 */
import type { Database, Statement } from 'better-sqlite3';
import { guardWrite } from '../write-guard.ts';

export class KlineCheckedStore {
  private readonly selectWithin: Statement;
  private readonly selectTouching: Statement;
  private readonly deleteTouching: Statement;
  private readonly insert: Statement;

  constructor(
    private readonly db: Database,
    private readonly file: string,
  ) {
    this.selectWithin = db.prepare('SELECT start_time, end_time FROM kline_checked WHERE symbol = ? AND interval = ? AND start_time < ? AND end_time > ? ORDER BY start_time').raw();
    const touching = 'symbol = @symbol AND interval = @interval AND start_time <= @end AND end_time >= @start';
    this.selectTouching = db.prepare(`SELECT min(start_time), max(end_time) FROM kline_checked WHERE ${touching}`).raw();
    this.deleteTouching = db.prepare(`DELETE FROM kline_checked WHERE ${touching}`);
    this.insert = db.prepare('INSERT INTO kline_checked (symbol, interval, start_time, end_time) VALUES (?, ?, ?, ?)');
  }

  /** The series' checked ranges overlapping [from, to), oldest first, as stored (not clipped). */
  within(symbol: string, interval: string, from: number, to: number): [number, number][] {
    return this.selectWithin.all(symbol, interval, to, from) as [number, number][];
  }

  /** Mark [start, end) checked, merged with the series' ranges it overlaps or touches; one transaction. */
  add(symbol: string, interval: string, start: number, end: number): void {
    if (!(end > start)) return;
    guardWrite(this.file, () => `checked range ${symbol} ${interval} [${start}, ${end})`, () =>
      this.db
        .transaction(() => {
          const key = { symbol, interval, start, end };
          const [lo, hi] = this.selectTouching.get(key) as [number | null, number | null];
          this.deleteTouching.run(key);
          this.insert.run(symbol, interval, Math.min(start, lo ?? start), Math.max(end, hi ?? end));
        })
        .immediate(),
    );
  }
}
