/** The journal's public surface. */
export { openJournal, type Journal } from './journal.ts';
export type { OpenOptions } from './db.ts';
export { JournalError, type JournalErrorCode } from './errors.ts';
export { APPLICATION_ID, MAGIC } from './identity.ts';
export { LATEST_SCHEMA_VERSION } from './migrations/index.ts';
export { K, KlineStore, type KlineInput, type KlineRange, type KlineRecord, type KlineTuple, type SeriesInfo } from './kline-store.ts';
export { ExchangeInfoStore, type ExchangeInfoSnapshot } from './exchange-info-store.ts';
export { RUN_KINDS, RunStore, type IntentRecord, type NewIntent, type NewRun, type RunKind, type RunRecord } from './run-store.ts';
export { ACTIVE_ORDER_STATUSES, OrderStore, type NewOrder, type NewOrderEvent, type OrderChange, type OrderEvent, type OrderRecord } from './order-store.ts';
export { FillStore, type FillQuery, type FillRecord, type NewFill } from './fill-store.ts';
export { BalanceStore, type AssetBalance, type BalanceSnapshot, type NewBalanceSnapshot } from './balance-store.ts';
export { TreasuryStore, type NewTreasuryAction, type TreasuryAction } from './treasury-store.ts';
export { DEFAULT_JOURNAL_PATH, resolveJournalPath } from './journal-path.ts';
