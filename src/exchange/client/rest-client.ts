/**
 * The request pipeline every endpoint call goes through (spec 5, 7, 8; protocol notes 2, 5, 7, 9):
 *
 *   check parameters -> charge the weight budget -> stamp the server-aligned timestamp -> sign ->
 *   send -> classify the answer -> decode losslessly -> typed result or typed error.
 *
 * Retry rules (design rule 7; all in `nextStep`): reads (idempotent) are retried on anything
 * classified `retryable` (network errors, 5xx, a 2xx that cannot be read) with backoff, and after
 * a 429 once the pause is over; a write whose outcome is unknown (timeout, 5xx, unreadable 2xx)
 * raises UnknownOutcomeError and is NEVER resent. A -1021 (timestamp outside recvWindow) answered
 * with a 4xx means the request was refused before processing, so it triggers one clock resync and
 * exactly one retry, for reads and writes alike; a -1021 inside a 5xx body is still a 5xx (spec
 * 7.1: execution status unknown) and is never resent.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../ports/clock.ts';
import { systemClock } from '../../time/system-clock.ts';
import type { AnyEndpoint, ParamsOfEndpoint, ResponseOfEndpoint, WeightCharge, WeightProfile } from '../endpoints/types.ts';
import type { ExchangeError, SentRequest } from '../errors/errors.ts';
import { ParameterError, QueueTimeoutError, RateLimitedError } from '../errors/errors.ts';
import { errorFromResponse, errorFromTransportFailure, malformedResponse } from '../errors/from-response.ts';
import { checkParams, type CheckedParams } from '../params/check-params.ts';
import { isAbsent } from '../params/normalize.ts';
import { chargesFor } from '../rate/weights.ts';
import { BudgetWaitError, type BudgetBooking, type WeightBudget } from '../rate/weight-budget.ts';
import type { ServerClock, ServerTimeReading } from '../clock/server-clock.ts';
import { time } from '../endpoints/areas/general.ts';
import type { HttpResponse, HttpTransport } from '../transport/http-transport.ts';
import { TransportFailure } from '../transport/transport-failure.ts';
import { parseJsonLossless } from '../transport/lossless-json.ts';
import { ClientIdGenerator } from './client-ids.ts';
import { V4SignatureGuard } from '../signing/v4-signature-guard.ts';
import { buildRequest, recvWindowFor, resolvePath, type ApiCredentials, type MerchantCredentials } from './request-builder.ts';

export interface RetryPolicy {
  /** Total attempts for idempotent requests (1 = no retry). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface RestClientDeps {
  baseUrl: string;
  transport: HttpTransport;
  budget: WeightBudget;
  /** Server-aligned clock for `timestamp`; signed calls sync it lazily. */
  serverClock: ServerClock;
  clock?: Clock;
  credentials?: ApiCredentials | undefined;
  merchant?: MerchantCredentials | undefined;
  legacy?: ApiCredentials | undefined;
  apiKeyHeader?: string;
  recvWindow?: number;
  weightProfile?: WeightProfile;
  timeoutMs?: number;
  /**
   * Longest a call waits before its request leaves (default 60 s): for room in the weight budget,
   * for a 429/418 pause to end, or for an automatic retry after a 429. Beyond it the call fails
   * without sending (QueueTimeoutError, or the RateLimitedError it got). Writes wait at most their
   * timeoutMs unless `CallOptions.maxQueueMs` says otherwise.
   */
  maxWaitMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Generated client ids: `prefix` (default `hc`), and a fixed `session` for tests. */
  clientIds?: { prefix?: string | undefined; session?: string | undefined };
  /** Undeclared parameters: rejected (default, catches typos) or passed through. */
  unknownParams?: 'reject' | 'pass';
  logger?: Logger | undefined;
}

export interface CallOptions {
  /** Named weight reservation to draw from (see WeightBudget). */
  consumer?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Longest this call waits in the weight budget's queue (room in the pools, or a 429/418 pause to
   * end) before its request leaves; past it, it fails with QueueTimeoutError and nothing is sent.
   * Default: a write's timeoutMs (an order that cannot leave in time is not sent late), a read's
   * `maxWaitMs` (60 s); never more than `maxWaitMs` unless given here.
   */
  maxQueueMs?: number;
  traceId?: string;
  /**
   * Told the local times (this client's clock) just before a request was handed to the transport and
   * just after its answer arrived, for every attempt that got an answer (the last call is the one
   * that answered): the exchange alone, without the wait in the weight budget or a backoff before it.
   * `serverTime()` uses it to time clock samples.
   */
  onExchange?: (sentAt: number, receivedAt: number) => void;
  /**
   * A write with a client-id parameter the caller left out gets a generated id (default true).
   * `false` sends it without one, so the venue makes it up: an unknown outcome can then not be
   * looked up by id. For tests of the venue's own generation, not for trading.
   */
  generateClientId?: boolean;
}

/** Security types whose `timestamp` the venue checks against recvWindow (spec 5.3): sync the clock first. */
const RECV_WINDOW_CHECKED = new Set(['TRADE', 'USER_DATA']);
export const RECV_WINDOW_MAX = 60_000;
/** Default `maxWaitMs`: the longest a call waits before its request leaves. */
export const DEFAULT_MAX_WAIT_MS = 60_000;

export class RestClient {
  private readonly deps: RestClientDeps;
  /** The local clock (sleeps, deadlines). */
  readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly v4Signatures = new V4SignatureGuard();
  private readonly maxWaitMs: number;
  /** Makes the client ids of writes sent without one (`client-ids.ts`). */
  readonly clientIds: ClientIdGenerator;
  readonly recvWindow: number;

  constructor(deps: RestClientDeps) {
    const recvWindow = deps.recvWindow ?? 5000;
    if (!Number.isInteger(recvWindow) || recvWindow <= 0 || recvWindow > RECV_WINDOW_MAX) {
      throw new RangeError(`recvWindow must be an integer from 1 to ${RECV_WINDOW_MAX} ms (spec 5.3), got ${recvWindow}`);
    }
    this.deps = deps;
    this.recvWindow = recvWindow;
    this.clock = deps.clock ?? systemClock;
    this.retry = { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 5000, ...deps.retry };
    this.maxWaitMs = deps.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.clientIds = new ClientIdGenerator({ prefix: deps.clientIds?.prefix, session: deps.clientIds?.session, now: this.clock.now() });
  }

  get budget(): WeightBudget {
    return this.deps.budget;
  }

  get serverClock(): ServerClock {
    return this.deps.serverClock;
  }

  /**
   * GET /openapi/v1/time (spec 4.1) as a clock sample: the server time with the local times around
   * the request that answered, so the sample is not skewed by a wait for the budget before it left.
   */
  async serverTime(options: CallOptions = {}): Promise<ServerTimeReading> {
    let sentAt = Number.NaN;
    let receivedAt = Number.NaN;
    const onExchange = (a: number, b: number): void => {
      sentAt = a;
      receivedAt = b;
      options.onExchange?.(a, b);
    };
    const { serverTime } = await this.call(time, {}, { ...options, onExchange });
    return { serverTime, sentAt, receivedAt };
  }

  /** Call one endpoint with typed parameters; resolves to its decoded response. */
  async call<E extends AnyEndpoint>(def: E, params: ParamsOfEndpoint<E>, options: CallOptions = {}): Promise<ResponseOfEndpoint<E>> {
    // A write with a client-id parameter always leaves with an id, made here once per call (a -1021
    // resend carries the same one), so an unknown outcome can be found by querying.
    const given = params as Record<string, unknown>;
    const idTerms = def.clientId;
    const generate = idTerms !== undefined && options.generateClientId !== false && isAbsent(given[idTerms.param]);
    const generatedId = generate ? this.clientIds.next(idTerms) : undefined;
    const input = generatedId === undefined || idTerms === undefined ? given : { ...given, [idTerms.param]: generatedId };
    const checked = checkParams(def.params, def.rules, input, { unknown: this.deps.unknownParams ?? 'reject', decimalNumbers: 'refuse' });
    if (checked.violations.length > 0) {
      const first = checked.violations[0]!;
      throw new ParameterError(def.id, first.param, first.code, checked.violations.map((v) => v.message).join('; '));
    }
    const charges = chargesFor(def, checked.values, this.deps.weightProfile ?? 'spec');
    const maxWaitMs = this.queueBound(def, options);
    let attempt = 0;
    let clockRetried = false;
    for (;;) {
      attempt++;
      const booked = await this.acquire(def, charges, maxWaitMs, options);
      let result: Awaited<ReturnType<RestClient['attempt']>>;
      try {
        result = await this.attempt(def, checked, generatedId !== undefined, options);
      } finally {
        // The venue counted it on arrival, before now: the ledger counts it from now (weight-ledger.ts).
        this.deps.budget.settle(booked);
      }
      if (result.ok) return result.value as ResponseOfEndpoint<E>;
      let error = result.error;
      if (error instanceof RateLimitedError) {
        const until = this.deps.budget.onRateLimited({
          status: error.banned ? 418 : 429,
          retryAfterMs: error.retryAfterMs,
          orderRate: error.venueCode === -1015 || (def.countsAsOrder === true && error.retryAfterMs === undefined),
        });
        const limited = error.withPausedUntil(until);
        error = limited;
        if (limited.banned) this.deps.logger?.error({ endpoint: def.id, until: new Date(until).toISOString() }, 'IP banned (418): nothing is sent until the ban ends');
      }
      const step = this.nextStep(def, error, attempt, clockRetried, maxWaitMs);
      switch (step) {
        case 'throw':
          throw error;
        case 'resync':
          clockRetried = true;
          attempt--;
          this.deps.logger?.warn({ endpoint: def.id }, 'timestamp outside recvWindow (-1021): resyncing clock, retrying once');
          await this.deps.serverClock.resync();
          break;
        case 'backoff':
          await this.backoff(attempt, def.id, error, options.signal);
          break;
        case 'wait':
          // The budget holds the next attempt until the rate-limit pause is over.
          break;
      }
    }
  }

  /**
   * What to do after a failed attempt: the one place the retry rules live (design rule 7).
   *
   * 1. A request that may have been executed (`unknown-outcome`) or partly was (`partial`) is never
   *    resent, read or write, whatever code its body carries.
   * 2. A -1021 refusal (4xx, spec 5.3) resyncs the clock and is resent once, reads and writes alike.
   * 3. Beyond that only idempotent requests are resent, up to `maxAttempts`: after a 429 once the
   *    pause is over, after anything classified `retryable` (network errors, 5xx, a 2xx that is not
   *    JSON or not the documented shape, envelope 88010000) with backoff.
   */
  private nextStep(def: AnyEndpoint, error: ExchangeError, attempt: number, clockRetried: boolean, maxWaitMs: number): 'throw' | 'resync' | 'backoff' | 'wait' {
    if (error.outcome === 'unknown-outcome' || error.outcome === 'partial') return 'throw';
    if (isClockRefusal(error)) return clockRetried ? 'throw' : 'resync';
    if (!def.idempotent || attempt >= this.retry.maxAttempts) return 'throw';
    if (error instanceof RateLimitedError) {
      // A ban is never waited out inside a call (spec 8.5: requests during a ban lengthen it), and a
      // pause longer than the call may wait is the caller's to handle.
      if (error.banned) return 'throw';
      return this.deps.budget.pausedUntil - this.clock.now() <= maxWaitMs ? 'wait' : 'throw';
    }
    if (error.outcome === 'retryable') return 'backoff';
    return 'throw';
  }

  /** How long this call may wait for the budget: see `CallOptions.maxQueueMs`. */
  private queueBound(def: AnyEndpoint, options: CallOptions): number {
    if (options.maxQueueMs !== undefined) return Math.max(0, options.maxQueueMs);
    const cap = this.maxWaitMs;
    return def.idempotent ? cap : Math.min(cap, options.timeoutMs ?? this.deps.timeoutMs ?? 10_000);
  }

  /** Book the charges, or fail without sending when that cannot happen within `maxWaitMs`. */
  private async acquire(def: AnyEndpoint, charges: readonly WeightCharge[], maxWaitMs: number, options: CallOptions): Promise<BudgetBooking> {
    try {
      return await this.deps.budget.acquire(charges, { consumer: options.consumer, signal: options.signal, maxWaitMs });
    } catch (e) {
      if (!(e instanceof BudgetWaitError)) throw e;
      const until = e.until === undefined ? '' : ` (until ${new Date(e.until).toISOString()})`;
      const why = e.reason === 'paused' ? (e.banned ? `the IP is banned (418)${until}` : `sending is paused after a 429${until}`) : 'the weight budget had no room';
      throw new QueueTimeoutError(`${def.id}: not sent: ${why}, longer than this call may wait (${maxWaitMs} ms) [rate-limited/rate]`, {
        endpoint: def.id,
        outcome: 'rate-limited',
        category: 'rate',
        reason: e.reason,
        maxWaitMs,
        until: e.until,
        banned: e.banned,
        cause: e,
      });
    }
  }

  /** One request: stamp, sign, send, classify, decode. Resolves to the value or the typed error. */
  private async attempt(
    def: AnyEndpoint,
    checked: CheckedParams,
    generatedId: boolean,
    options: CallOptions,
  ): Promise<{ ok: true; value: unknown } | { ok: false; error: ExchangeError }> {
    if (RECV_WINDOW_CHECKED.has(def.security)) {
      await this.deps.serverClock.ensureSynced();
    }
    let timestamp = Math.round(this.deps.serverClock.now());
    let request = this.build(def, checked, timestamp, options);
    // A v4 signature is single-use within its nonce second (v4-signature-guard.ts): wait for the next one.
    for (let wait = this.v4Wait(def, request, timestamp); wait > 0; wait = this.v4Wait(def, request, timestamp)) {
      await this.clock.sleep(wait, options.signal);
      timestamp = Math.round(this.deps.serverClock.now());
      request = this.build(def, checked, timestamp, options);
    }
    const sent = this.sentRequest(def, checked.wire, timestamp, generatedId);
    const started = this.clock.now();
    let response: HttpResponse;
    try {
      response = await this.deps.transport.send({
        ...request,
        timeoutMs: options.timeoutMs ?? this.deps.timeoutMs ?? 10_000,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (cause) {
      if (!(cause instanceof TransportFailure)) throw cause;
      return { ok: false, error: errorFromTransportFailure({ endpoint: def.id, idempotent: def.idempotent, failure: cause, request: sent }) };
    }
    options.onExchange?.(started, this.clock.now());
    this.deps.logger?.debug({ endpoint: def.id, status: response.status, ms: this.clock.now() - started }, 'exchange call');

    const parsed = tryParse(response.body);
    const error = errorFromResponse({
      endpoint: def.id,
      idempotent: def.idempotent,
      envelope: def.envelope,
      response,
      parsed: parsed.ok ? parsed.value : undefined,
      request: sent,
      now: this.clock.now(),
    });
    if (error) return { ok: false, error };
    if (!parsed.ok) {
      // errorFromResponse answers a 2xx that is not JSON; this is a guard for any other path.
      const problem = `with a body that is not JSON: ${snippet(response.body)}`;
      return { ok: false, error: malformedResponse({ endpoint: def.id, idempotent: def.idempotent, httpStatus: response.status, body: response.body, request: sent, problem }) };
    }
    return decode(def, parsed.value, response, sent);
  }

  private build(def: AnyEndpoint, checked: CheckedParams, timestamp: number, options: CallOptions) {
    return buildRequest(def, checked.wire, checked.values, {
      baseUrl: this.deps.baseUrl,
      apiKeyHeader: this.deps.apiKeyHeader ?? 'X-SERVICE-APIKEY',
      credentials: this.deps.credentials,
      merchant: this.deps.merchant,
      legacy: this.deps.legacy,
      recvWindow: this.recvWindow,
      timestamp,
      traceId: options.traceId,
    });
  }

  private v4Wait(def: AnyEndpoint, request: { headers: Record<string, string> }, timestamp: number): number {
    const signature = def.security === 'LEGACY_V4' ? request.headers['ACCESS-SIGNATURE'] : undefined;
    return signature === undefined ? 0 : this.v4Signatures.waitBefore(signature, timestamp);
  }

  /** What left, for errors: wire parameters (never the key or signature), the client id, timestamp. */
  private sentRequest(def: AnyEndpoint, wire: readonly [string, string][], timestamp: number, generated: boolean): SentRequest {
    const { path, rest } = resolvePath(def.path, [...wire]);
    const params = Object.fromEntries(rest);
    const idParam = def.clientId?.param;
    const idValue = idParam === undefined ? undefined : params[idParam];
    return {
      method: def.method,
      path,
      params,
      clientId: idParam !== undefined && idValue !== undefined ? { param: idParam, value: idValue, generated } : undefined,
      timestamp,
      recvWindow: RECV_WINDOW_CHECKED.has(def.security) ? recvWindowFor(def, this.recvWindow) : undefined,
    };
  }

  private async backoff(attempt: number, endpoint: string, error: ExchangeError, signal?: AbortSignal): Promise<void> {
    const delay = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    this.deps.logger?.warn({ endpoint, attempt, delay, error: error.message }, 'retrying read');
    await this.clock.sleep(delay, signal);
  }
}

/**
 * A -1021 the venue answered with a 4xx: the request was refused before processing (spec 5.3), so a
 * resync and one resend are safe. A -1021 inside a 5xx is not: the status says the fate is unknown.
 */
function isClockRefusal(error: ExchangeError): boolean {
  return (
    error.venueCode === -1021 &&
    error.category === 'clock' &&
    error.outcome !== 'unknown-outcome' &&
    error.httpStatus !== undefined &&
    error.httpStatus < 500
  );
}

function tryParse(body: string): { ok: true; value: unknown } | { ok: false } {
  if (body.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: parseJsonLossless(body) };
  } catch {
    return { ok: false };
  }
}

function decode(def: AnyEndpoint, value: unknown, response: HttpResponse, request: SentRequest): { ok: true; value: unknown } | { ok: false; error: ExchangeError } {
  const result = def.response.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const field = issue ? fieldPath(issue.path) : '(root)';
  const error = malformedResponse({
    endpoint: def.id,
    idempotent: def.idempotent,
    httpStatus: response.status,
    body: response.body,
    field,
    request,
    problem: `with a body that does not have the documented shape at '${field}': ${issue?.message ?? 'invalid'}`,
  });
  return { ok: false, error };
}

/** `fills[1].commissionAsset` from zod's `['fills', 1, 'commissionAsset']`; `(root)` for the whole body. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  return out === '' ? '(root)' : out;
}

function snippet(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}...` : text);
}
