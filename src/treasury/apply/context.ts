/**
 * What every move's handler shares while a plan is applied: the client, the journal of moves, the
 * clocks, the log, and the two steps every money-moving request goes through (spec 7.1):
 * `beforeSend` commits the row as `sent` (with the request's parameters and server time, so a
 * later apply can look it up even after a crash) before the request leaves; `unknown` commits the
 * unknown outcome before anything is looked up.
 */
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import { UnknownOutcomeError, type ExchangeError, type SentRequest } from '../../exchange/errors/errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { MoveRow, MoveStore } from '../journal/move-store.ts';
import type { Move, MoveState } from '../moves.ts';
import type { ApplyEvent, ApplyOptions, ExecutorPolicy, LogFn } from './types.ts';

/** What `beforeSend` journals of a request: enough to look it up again after a crash. */
export interface JournaledRequest {
  endpoint: string;
  method: string;
  path: string;
  params: Record<string, string>;
  /** Server-clock ms just before it left (the request's timestamp is this or a little later). */
  serverTime: number;
  recvWindow: number;
}

export class ApplyContext {
  readonly client: ExchangeClient;
  readonly store: MoveStore;
  readonly policy: ExecutorPolicy;
  readonly approve: boolean;
  readonly clock: Clock;
  readonly pollMs: number;
  readonly maxWaitMs: number;
  readonly quoteMarginMs: number;
  private readonly logFn: LogFn | undefined;
  private readonly onEvent: ApplyOptions['onEvent'];

  constructor(options: ApplyOptions, store: MoveStore) {
    this.client = options.client;
    this.store = store;
    this.policy = options.policy;
    this.approve = options.approve;
    this.clock = options.clock ?? options.client.rest.clock;
    this.pollMs = options.follow?.pollMs ?? 2000;
    this.maxWaitMs = options.follow?.maxWaitMs ?? 300_000;
    this.quoteMarginMs = options.quoteMarginMs ?? 2000;
    this.logFn = options.log;
    this.onEvent = options.onEvent;
  }

  /** The venue's time as this client estimates it (spec 5.3); quotes expire on it. */
  serverNow(): number {
    return this.client.rest.serverClock.now();
  }

  now(): number {
    return this.clock.now();
  }

  log(level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>): void {
    this.logFn?.(level, msg, data);
  }

  async emit(event: ApplyEvent): Promise<void> {
    await this.onEvent?.(event);
  }

  /** Commit `sent` (one more attempt) with the request about to leave; the row is on disk before it does. */
  async beforeSend(move: Move, endpoint: string, method: string, path: string, params: Record<string, string>, extra: Record<string, unknown> = {}): Promise<MoveRow> {
    // The signed request needs a synced clock; syncing here keeps the journaled server time honest.
    await this.client.rest.serverClock.ensureSynced();
    const request: JournaledRequest = { endpoint, method, path, params, serverTime: this.serverNow(), recvWindow: this.client.rest.recvWindow };
    const row = this.store.markSent(move.clientId, this.now(), { ...extra, request });
    await this.emit({ kind: 'sent', clientId: move.clientId, endpoint });
    return row;
  }

  /** Commit a state change (and what came with it). */
  async set(move: Move, state: MoveState, change: Omit<Parameters<MoveStore['update']>[2], 'state'> = {}): Promise<MoveRow> {
    const row = this.store.update(move.clientId, this.now(), { ...change, state });
    await this.emit({ kind: 'state', clientId: move.clientId, state });
    return row;
  }
}

/**
 * The unknown-outcome error of a request journaled as sent, for a look-up after a crash: what
 * `reconcileWrite` needs (endpoint, parameters, client id, the time it could still land by).
 */
export function errorOfJournaled(request: JournaledRequest, clientIdParam: string | undefined): ExchangeError {
  const value = clientIdParam === undefined ? undefined : request.params[clientIdParam];
  const sent: SentRequest = {
    method: request.method,
    path: request.path,
    params: request.params,
    clientId: clientIdParam !== undefined && value !== undefined ? { param: clientIdParam, value, generated: false } : undefined,
    timestamp: request.serverTime,
    recvWindow: request.recvWindow,
  };
  return new UnknownOutcomeError('UNKNOWN_OUTCOME', `${request.endpoint}: journaled as sent, no answer recorded (the process stopped or the answer was lost)`, {
    endpoint: request.endpoint,
    outcome: 'unknown-outcome',
    category: 'network',
    request: sent,
  });
}

/** The journaled request of a row, when it has one. */
export function journaledRequest(row: MoveRow): JournaledRequest | undefined {
  const r = row.detail?.['request'];
  return r !== null && typeof r === 'object' ? (r as JournaledRequest) : undefined;
}
