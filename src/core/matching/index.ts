/** Public surface of core/matching: the pure spot matching engine (model and assumptions in engine.ts). */
export { SpotEngine } from './engine.ts';
export type { SpotEngineOptions } from './engine.ts';
export type { MarketRefs } from './admission.ts';
export { AccountStream, venueReason } from './accounts/account-stream.ts';
export type { CancelReplaceData, CancelReplaceRequest, CancelReplaceResult, LegError, LegResult, NewOrderLeg } from './cancel-replace.ts';
export { CANCEL_REPLACE_FAILED, CANCEL_REPLACE_PARTIAL, CANCEL_RESTRICTED } from './cancel-replace.ts';
export type { Print, PrintResult } from './external.ts';
export { ENGINE_DUMP_VERSION } from './dump/dump.ts';
export type { AccountDump, EngineDump, IdRange, OrderDump, SymbolDump, TradeDump, TradeSide } from './dump/dump.ts';
export { assembleDump, isOpenKey, OpenStamp } from './dump/dump-history.ts';
export type { HistoryItem, HistoryRecord } from './dump/dump-history.ts';
export type { DroppedRecord, RestoreReport } from './dump/restore.ts';
export type { IdReserver } from './book/id-sequence.ts';
export { compareIds } from './accounts/queries.ts';
export type { DepthSnapshot, HistoryQuery, TopOfBook, TradeQuery } from './accounts/queries.ts';
export type { FeeRates } from './numbers/symbol-spec.ts';
export type * from './types.ts';
