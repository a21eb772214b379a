/**
 * A backtest's strategy log (`ctx.log` lines, stamped with the backtest's clock) written to a text
 * file as the run goes: one line an entry, `<time UTC>  <message> <data as JSON>`. Lines go to
 * `file` in batches (a strategy may log every bar of a year) and the file is created with the
 * first batch, so a strategy that logs nothing leaves none; `close` may move it to its final
 * name (the CLI names it after the run's range, known once the run is over). The first few lines
 * are kept for the terminal.
 */
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import type { StrategyLogEntry } from '../../strategy/types.ts';
import { fmtTime } from '../metrics/metrics-format.ts';

/** Lines held before they are written. */
const BATCH = 1000;

export class StrategyLogFile {
  private fd: number | undefined;
  private pending: string[] = [];
  /** Lines logged so far. */
  count = 0;
  /** The first lines, as written, for the terminal. */
  readonly first: string[] = [];
  /**
   * Why the file could not be written, once that happened: the lines after it are counted, not
   * written (a log the disk refuses must not fail the strategy that logged).
   */
  error: Error | undefined;

  constructor(
    readonly file: string,
    private readonly keepFirst = 3,
  ) {}

  /** Record one entry (what `runBacktest`'s onLog receives). */
  add(e: StrategyLogEntry): void {
    const line = formatLogLine(e);
    this.count++;
    if (this.first.length < this.keepFirst) this.first.push(line);
    this.pending.push(line);
    if (this.pending.length >= BATCH) this.flush();
  }

  /**
   * Write what is pending and close the file, moved to `finalFile` if given; the file's path, or
   * undefined when nothing was logged or it could not be written (`error` says why).
   */
  close(finalFile?: string): string | undefined {
    this.flush();
    if (this.fd === undefined) return undefined;
    const fd = this.fd;
    this.fd = undefined;
    try {
      closeSync(fd);
      if (finalFile === undefined || finalFile === this.file) return this.file;
      renameSync(this.file, finalFile);
      return finalFile;
    } catch (e) {
      this.error = e as Error;
      return undefined;
    }
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    if (this.error !== undefined) return;
    try {
      this.fd ??= openSync(this.file, 'w');
      writeSync(this.fd, lines.join('\n') + '\n');
    } catch (e) {
      this.error = e as Error;
    }
  }
}

/** `2026-02-01 00:01 UTC  message {"data":...}` (data that JSON cannot write is shown as text). */
export function formatLogLine(e: StrategyLogEntry): string {
  let data = '';
  if (e.data !== undefined) {
    try {
      data = ' ' + JSON.stringify(e.data);
    } catch {
      data = ' ' + String(e.data);
    }
  }
  return `${fmtTime(e.time)}  ${e.message}${data}`;
}
