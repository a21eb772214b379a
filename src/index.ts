/** Halyard's public API. */
export { createClient, type ClientHandle, type ClientSetup } from './app/create-client.ts';
export { parseConfig, loadConfig, secretsFromEnv, ConfigError } from './config/load.ts';
export type { HalyardConfig, ExchangeConfig } from './config/schema.ts';
export type { ExchangeClient } from './exchange/client/exchange-client.ts';
export { RestClient, type CallOptions } from './exchange/client/rest-client.ts';
export { reconcileOrder, type OrderReconciliation, type ReconcileOptions } from './exchange/client/reconcile.ts';
export { reconcileWrite, RECONCILABLE_WRITES, type MovementRecord, type WriteReconciliation } from './exchange/client/reconcile-writes.ts';
export { allEndpoints, endpointsByArea, findEndpoint } from './exchange/endpoints/index.ts';
export * from './exchange/errors/errors.ts';
export { classify } from './exchange/errors/classify.ts';
export { dec, toWire, D, type Dec } from './core/money/decimal.ts';
export * from './core/market/index.ts';
export { createLogger } from './log/logger.ts';
