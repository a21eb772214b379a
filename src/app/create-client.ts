/**
 * Composition of the exchange client: transport, weight budget, server clock and pipeline from the
 * parsed config and the environment's secrets. The only place these adapters are chosen.
 */
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { ExchangeConfig } from '../config/schema.ts';
import type { Secrets } from '../config/load.ts';
import type { Clock } from '../ports/clock.ts';
import { systemClock } from '../time/system-clock.ts';
import { createExchangeClient, type ExchangeClient } from '../exchange/client/exchange-client.ts';
import { RestClient } from '../exchange/client/rest-client.ts';
import { ServerClock } from '../exchange/clock/server-clock.ts';
import { buildLedgerConfig } from '../exchange/rate/pool-config.ts';
import { WeightBudget } from '../exchange/rate/weight-budget.ts';
import { createUndiciTransport } from '../exchange/transport/http-transport.ts';
import type { HttpTransport } from '../exchange/transport/http-transport.ts';

export interface ClientSetup {
  baseUrl: string;
  exchange: ExchangeConfig;
  secrets?: Secrets;
  clock?: Clock;
  /** A ready transport (tests), or an undici dispatcher such as a MockAgent. */
  transport?: HttpTransport;
  dispatcher?: Dispatcher;
  logger?: Logger;
}

export interface ClientHandle {
  client: ExchangeClient;
  close(): Promise<void>;
}

export function createClient(setup: ClientSetup): ClientHandle {
  const clock = setup.clock ?? systemClock;
  const cfg = setup.exchange;
  const transport =
    setup.transport ??
    createUndiciTransport({ requestTimeoutMs: cfg.timeoutMs, ...(setup.dispatcher ? { dispatcher: setup.dispatcher } : {}) });
  const budget = new WeightBudget({
    clock,
    config: buildLedgerConfig({ profile: cfg.weightProfile, pools: cfg.pools, reservations: cfg.reservations }),
  });
  const serverClock: ServerClock = new ServerClock({
    clock,
    samples: cfg.clockSamples,
    maxAgeMs: 10 * 60_000,
    // Late-bound: the pipeline below is built with this clock and is the one that fetches /time,
    // timing each sample over its own HTTP exchange (not the wait for the weight budget before it).
    fetchServerTime: () => rest.serverTime(),
  });
  const secrets = setup.secrets ?? {};
  const rest: RestClient = new RestClient({
    baseUrl: setup.baseUrl,
    transport,
    budget,
    serverClock,
    clock,
    credentials: secrets.apiKey && secrets.apiSecret ? { apiKey: secrets.apiKey, apiSecret: secrets.apiSecret } : undefined,
    merchant:
      secrets.merchantKey && secrets.merchantSecret
        ? { merchantKey: secrets.merchantKey, merchantSecret: secrets.merchantSecret, ...cfg.merchant }
        : undefined,
    apiKeyHeader: cfg.apiKeyHeader,
    recvWindow: cfg.recvWindow,
    weightProfile: cfg.weightProfile,
    timeoutMs: cfg.timeoutMs,
    maxWaitMs: cfg.maxWaitMs,
    retry: cfg.retry,
    clientIds: { prefix: cfg.clientIdPrefix },
    logger: setup.logger,
  });
  return { client: createExchangeClient(rest), close: () => transport.close() };
}
