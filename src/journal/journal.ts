/**
 * The journal: one SQLite file (better-sqlite3, synchronous) holding market data and the trading
 * record. `openJournal` refuses anything that is not a Halyard journal, migrates, and hands back
 * one typed store per concern. Writes are synchronous and short; batch writes run in a transaction.
 */
import type { Database } from 'better-sqlite3';
import { BalanceStore } from './balance-store.ts';
import { openDatabase, type OpenOptions } from './db.ts';
import { JournalError } from './errors.ts';
import { ExchangeInfoStore } from './exchange-info-store.ts';
import { FillStore } from './fill-store.ts';
import { KlineCheckedStore } from './klines/kline-checked-store.ts';
import { KlineStore } from './klines/kline-store.ts';
import { LiveRunStore } from './runs/live-run-store.ts';
import { OrderStore } from './order-store.ts';
import { ReconciliationStore } from './runs/reconciliation-store.ts';
import { RequestStore } from './request-store.ts';
import { RunLogStore } from './runs/run-log-store.ts';
import { RunStore } from './runs/run-store.ts';
import { StreamHealthStore } from './runs/stream-health-store.ts';
import { TreasuryStore } from './treasury-store.ts';

export interface Journal {
  /** The path given to openJournal (or `:memory:`). */
  readonly file: string;
  readonly schemaVersion: number;
  /** True when this open turned an empty or new file into a journal. */
  readonly created: boolean;
  readonly klines: KlineStore;
  /** Where the journal holds every bar the exchange has (record's memory of the holes it asked about). */
  readonly klineChecked: KlineCheckedStore;
  readonly exchangeInfo: ExchangeInfoStore;
  readonly runs: RunStore;
  readonly orders: OrderStore;
  readonly fills: FillStore;
  readonly balances: BalanceStore;
  readonly treasury: TreasuryStore;
  /** Live and sandbox runs: start with config and strategies, stop with exit reason, crash detection (schema 5). */
  readonly liveRuns: LiveRunStore;
  /** Outbound order requests, journaled before they leave; what start-up reconciliation reads. */
  readonly requests: RequestStore;
  readonly streamHealth: StreamHealthStore;
  readonly reconciliations: ReconciliationStore;
  /** What each run journaled, in order across tables (explain-run.ts reads it). */
  readonly runLog: RunLogStore;
  /**
   * Run `fn` in one transaction (nested calls become savepoints). The transaction takes the write
   * lock when it begins (BEGIN IMMEDIATE), waiting up to the busy timeout for another process's:
   * a deferred one that read before its first write would fail at once with SQLITE_BUSY when
   * another process wrote meanwhile (WAL cannot move a reader's snapshot forward to write).
   * A journal opened read-only begins a plain (deferred) one: it never writes.
   */
  transaction<T>(fn: () => T): T;
  /** The connection, for what the stores do not cover (tests, benchmarks, ad-hoc reads). */
  readonly db: Database;
  close(): void;
}

/**
 * Open; a journal of an older schema opened read-only (a backtest, a sweep worker) is upgraded
 * first, read-write, as any writer of this Halyard would (numbered migrations, klines packed),
 * then opened read-only. When it cannot be written (a read-only file or directory) the error
 * says so instead.
 */
function openUpgraded(file: string, options: OpenOptions): ReturnType<typeof openDatabase> {
  try {
    return openDatabase(file, options);
  } catch (e) {
    if (!(e instanceof JournalError && e.code === 'OLDER_SCHEMA' && options.readonly)) throw e;
    try {
      openJournal(file, { ...options, readonly: false }).close();
    } catch (upgrade) {
      throw new JournalError('OLDER_SCHEMA', file, `${e.message.replace(`journal ${file}: `, '')}; upgrading it failed: ${(upgrade as Error).message}`, { cause: upgrade });
    }
    return openDatabase(file, options);
  }
}

export function openJournal(file: string, options: OpenOptions = {}): Journal {
  const opened = openUpgraded(file, options);
  const { db } = opened;
  try {
    return journalOver(file, opened, options);
  } catch (e) {
    // Preparing the stores or packing an upgraded journal's klines failed: the caller gets the
    // error and no handle, so the connection (and its lock) must not outlive this call.
    if (db.open) db.close();
    throw e;
  }
}

function journalOver(file: string, opened: ReturnType<typeof openDatabase>, options: OpenOptions): Journal {
  const { db } = opened;
  const klines = new KlineStore(db, file);
  // Schema 2 added the kline block cache: a journal upgraded to it gets its existing klines packed once.
  if (opened.applied.includes(2) && !opened.created) klines.packBlocks();
  return {
    file,
    schemaVersion: opened.version,
    created: opened.created,
    klines,
    klineChecked: new KlineCheckedStore(db, file),
    exchangeInfo: new ExchangeInfoStore(db, file),
    runs: new RunStore(db, file),
    orders: new OrderStore(db, file),
    fills: new FillStore(db, file),
    balances: new BalanceStore(db, file),
    treasury: new TreasuryStore(db, file),
    liveRuns: new LiveRunStore(db, file),
    requests: new RequestStore(db, file),
    streamHealth: new StreamHealthStore(db, file),
    reconciliations: new ReconciliationStore(db, file),
    runLog: new RunLogStore(db),
    transaction: options.readonly ? <T>(fn: () => T): T => db.transaction(fn)() : <T>(fn: () => T): T => db.transaction(fn).immediate(),
    db,
    close: () => {
      if (db.open) db.close();
    },
  };
}
