/** The journal's public surface. */
export { openJournal, type Journal } from './journal.ts';
export type { OpenOptions } from './db.ts';
export { JournalError, type JournalErrorCode } from './errors.ts';
export { APPLICATION_ID, MAGIC } from './identity.ts';
export { LATEST_SCHEMA_VERSION } from './migrations/index.ts';
export { K, KlineStore, type KlineInput, type KlineRange, type KlineRecord, type KlineTuple, type SeriesInfo } from './klines/kline-store.ts';
export { ExchangeInfoStore, type ExchangeInfoSnapshot } from './exchange-info-store.ts';
export { RUN_KINDS, RunStore, type IntentRecord, type NewIntent, type NewRun, type RunKind, type RunRecord } from './runs/run-store.ts';
export { ACTIVE_ORDER_STATUSES, OrderStore, type NewOrder, type NewOrderEvent, type OrderChange, type OrderEvent, type OrderRecord } from './order-store.ts';
export { FillStore, type FillQuery, type FillRecord, type NewFill } from './fill-store.ts';
export { BalanceStore, type AssetBalance, type BalanceSnapshot, type NewBalanceSnapshot } from './balance-store.ts';
export { TreasuryStore, type NewTreasuryAction, type TreasuryAction } from './treasury-store.ts';
export { DEFAULT_JOURNAL_PATH, resolveJournalPath } from './journal-path.ts';
export { EXIT_REASONS, LiveRunStore, type CrashDetail, type ExitReason, type LiveRunKind, type LiveRunRecord, type NewLiveRun, type RunStop, type RunStrategy } from './runs/live-run-store.ts';
export {
  REQUEST_KINDS,
  REQUEST_STATES,
  RequestStore,
  commandRequest,
  pendingRequests,
  type AnswerState,
  type NewRequest,
  type RequestAnswer,
  type RequestKind,
  type RequestRecord,
  type RequestState,
} from './request-store.ts';
export { StreamHealthStore, type NewStreamHealthChange, type StreamHealthChange } from './runs/stream-health-store.ts';
export {
  RECONCILIATION_KINDS,
  ReconciliationStore,
  summarizeReconciliation,
  type AdoptedOrder,
  type BalanceDifference,
  type ForeignOrder,
  type MissedFill,
  type NewReconciliation,
  type ReconciliationKind,
  type ReconciliationRecord,
  type ReconciliationReport,
  type ResolvedRequest,
} from './runs/reconciliation-store.ts';
export { RunLogStore, type RunLogRow } from './runs/run-log-store.ts';
export { explainRun, type ExplainOptions, type RunTimeline, type TimelineEntry } from './runs/explain-run.ts';
export { REDACTED, redactSecrets } from './runs/redact-secrets.ts';
