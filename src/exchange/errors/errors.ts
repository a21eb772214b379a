/**
 * Typed errors of the exchange client (spec section 7, protocol notes section 9).
 *
 * Every error carries a stable `code` string, and exchange errors an `outcome` from the one
 * classification table (`classify.ts`). Callers branch on `outcome` / `category`, never on
 * substrings of a message.
 */

/** What the caller may do next. */
export type ErrorOutcome =
  /** Safe to try again (idempotent request, transient failure). */
  | 'retryable'
  /** 429 / 418: wait for the budget; the request was not processed. */
  | 'rate-limited'
  /** The venue refused the request; it had no effect. */
  | 'rejected'
  /** Misconfiguration (bad key, no permission): retrying will not help. */
  | 'fatal'
  /** A write may or may not have happened: resolve by querying, never by resending. */
  | 'unknown-outcome'
  /**
   * Part of a compound write took effect and part did not (cancelReplace -1133, notes 6): the
   * error says which (`PartialFailureError`). Not a rejection: state changed on the venue.
   */
  | 'partial';

/** Finer grouping, after protocol notes section 9. */
export type ErrorCategory =
  | 'auth'
  | 'permission'
  | 'clock'
  | 'rate'
  | 'not-found'
  | 'duplicate'
  | 'funds'
  | 'post-only'
  | 'invalid-order'
  | 'bad-request'
  | 'server'
  | 'network'
  | 'timeout'
  | 'envelope'
  | 'decode'
  | 'parameter';

export class HalyardError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A parameter failed the spec's rules before anything was sent. */
export class ParameterError extends HalyardError {
  readonly endpoint: string;
  readonly param: string;
  /** The venue code the same mistake would earn (-1105 missing, -1025/-1102 invalid, -1107 conflict ...). */
  readonly venueCode: number;
  constructor(endpoint: string, param: string, venueCode: number, message: string) {
    super('PARAMETER', `${endpoint}: ${message}`);
    this.endpoint = endpoint;
    this.param = param;
    this.venueCode = venueCode;
  }
}

/**
 * What the client sent, as far as it is safe to log: the checked parameters' wire text (no API key,
 * no signature, and `timestamp` / `recvWindow` apart), so a write whose outcome is unknown can be
 * found again (`reconcileOrder`) and an operator can see exactly what went out.
 */
export interface SentRequest {
  readonly method: string;
  /** The endpoint's path with path parameters filled in. */
  readonly path: string;
  /** Parameter name -> wire text, in the order sent; includes a generated client id. */
  readonly params: Readonly<Record<string, string>>;
  /** The write's own id (`newClientOrderId`, `withdrawOrderId` ...); `generated` when the client made it. */
  readonly clientId?: { readonly param: string; readonly value: string; readonly generated: boolean } | undefined;
  /** The `timestamp` the request carried (server-aligned ms; for merchant / legacy calls their stamp's source). */
  readonly timestamp: number;
  /** The `recvWindow` of a signed request (spec 5.3): after timestamp + recvWindow the venue refuses it. */
  readonly recvWindow?: number | undefined;
}

export interface ExchangeErrorInit {
  endpoint: string;
  httpStatus?: number | undefined;
  venueCode?: number | undefined;
  envelopeStatus?: number | undefined;
  venueMessage?: string | undefined;
  outcome: ErrorOutcome;
  category: ErrorCategory;
  /** Extra body the venue sent with the error (cancelReplace carries `data`). */
  data?: unknown;
  /** What was sent, when the request left (absent for failures before sending). */
  request?: SentRequest | undefined;
  cause?: unknown;
}

/** Anything the venue (or the road to it) answered that is not a success. */
export class ExchangeError extends HalyardError {
  readonly endpoint: string;
  readonly httpStatus: number | undefined;
  readonly venueCode: number | undefined;
  readonly envelopeStatus: number | undefined;
  readonly venueMessage: string | undefined;
  readonly outcome: ErrorOutcome;
  readonly category: ErrorCategory;
  readonly data: unknown;
  /** What was sent (parameters without secrets, client id, timestamp); undefined if nothing left. */
  readonly request: SentRequest | undefined;

  constructor(code: string, message: string, init: ExchangeErrorInit) {
    super(code, message, init.cause === undefined ? undefined : { cause: init.cause });
    this.endpoint = init.endpoint;
    this.httpStatus = init.httpStatus;
    this.venueCode = init.venueCode;
    this.envelopeStatus = init.envelopeStatus;
    this.venueMessage = init.venueMessage;
    this.outcome = init.outcome;
    this.category = init.category;
    this.data = init.data;
    this.request = init.request;
  }

  /** The write's client id (sent by the caller or generated), when the endpoint has one. */
  get clientId(): string | undefined {
    return this.request?.clientId?.value;
  }

  /** What this error was made from: to make a variant of it (`RateLimitedError.withPausedUntil`). */
  protected get init(): ExchangeErrorInit {
    return {
      endpoint: this.endpoint,
      httpStatus: this.httpStatus,
      venueCode: this.venueCode,
      envelopeStatus: this.envelopeStatus,
      venueMessage: this.venueMessage,
      outcome: this.outcome,
      category: this.category,
      data: this.data,
      request: this.request,
      cause: this.cause,
    };
  }

  toJSON(): Record<string, unknown> {
    // The fields it was made from (`init`, in that order), without the cause, and data / request only when set.
    const { data, request, cause: _cause, ...fields } = this.init;
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...fields,
      ...(data === undefined ? {} : { data }),
      ...(request === undefined ? {} : { request }),
    };
  }
}

/** The venue answered `{code, msg}` (or a 4xx) and refused the request. */
export class VenueRejectedError extends ExchangeError {}

/** A convert or fiat envelope with `status != 0`, whatever the HTTP status. */
export class EnvelopeError extends ExchangeError {}

/**
 * 429 or 418 (`banned`). `retryAfterMs` is undefined when the venue sent no usable `Retry-After`
 * (order-rate 429, spec 8.4). `pausedUntil` is when the client will send again (its clock, ms): the
 * Retry-After, a back-off, or for a 418 without one at least the spec's 2-minute minimum ban. A 418
 * is never retried automatically; a 429 on a read only when the pause fits the call's wait bound.
 */
export class RateLimitedError extends ExchangeError {
  readonly retryAfterMs: number | undefined;
  readonly banned: boolean;
  readonly pausedUntil: number | undefined;
  constructor(message: string, init: ExchangeErrorInit & { retryAfterMs: number | undefined; banned: boolean; pausedUntil?: number | undefined }) {
    super(init.banned ? 'IP_BANNED' : 'RATE_LIMITED', message, init);
    this.retryAfterMs = init.retryAfterMs;
    this.banned = init.banned;
    this.pausedUntil = init.pausedUntil;
  }

  /** The same error, knowing until when the client pauses. */
  withPausedUntil(until: number): RateLimitedError {
    return new RateLimitedError(`${this.message}; no request is sent until ${new Date(until).toISOString()}`, {
      ...this.init,
      retryAfterMs: this.retryAfterMs,
      banned: this.banned,
      pausedUntil: until,
    });
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), banned: this.banned, retryAfterMs: this.retryAfterMs, pausedUntil: this.pausedUntil };
  }
}

/**
 * The call gave up before sending: the weight budget could not let it out within its bound
 * (`CallOptions.maxQueueMs`; writes default to their `timeoutMs`, reads to `maxWaitMs`), because a
 * 429/418 pause runs past it (`reason` `paused`, `banned` for a 418, `until` its end) or the pools
 * had no room (`capacity`). Nothing was sent: safe to retry later, no need to query.
 */
export class QueueTimeoutError extends ExchangeError {
  readonly sent = false;
  readonly reason: 'paused' | 'capacity';
  readonly maxWaitMs: number;
  readonly until: number | undefined;
  readonly banned: boolean;
  constructor(
    message: string,
    init: ExchangeErrorInit & { reason: 'paused' | 'capacity'; maxWaitMs: number; until: number | undefined; banned: boolean },
  ) {
    super('QUEUE_TIMEOUT', message, init);
    this.reason = init.reason;
    this.maxWaitMs = init.maxWaitMs;
    this.until = init.until;
    this.banned = init.banned;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), sent: false, reason: this.reason, maxWaitMs: this.maxWaitMs, until: this.until, banned: this.banned };
  }
}

/**
 * A write that may have happened: it timed out, the connection dropped mid-request, it got a 5xx
 * (spec 7.1), a server-side-error envelope (spec 7.6, 88010000) or a success status with a body
 * that cannot be read. Query, never resend. Every write failure whose outcome is `unknown-outcome`
 * is this class or a subclass, so one `instanceof UnknownOutcomeError` catches them all.
 *
 * `endpoint` names the call, `request` holds what was sent: the parameters (no secrets, no
 * signature) including the client id, generated when the caller gave none (`clientId`), and the
 * timestamp. For orders, `client.reconcileOrder(error)` looks the order up by that id.
 */
export class UnknownOutcomeError extends ExchangeError {}

/**
 * A write answered with a success status (2xx) whose body is not JSON or not the documented shape:
 * the venue most likely acted, but what it answered cannot be read. Names the field, keeps the body.
 */
export class MalformedWriteResponseError extends UnknownOutcomeError {
  readonly field: string | undefined;
  readonly body: string;
  constructor(message: string, init: ExchangeErrorInit & { field?: string | undefined; body: string }) {
    super('UNKNOWN_OUTCOME', message, init);
    this.field = init.field;
    this.body = init.body;
  }
}

/** The legs of a cancel-replace (notes 6) as the venue reported them. */
export interface CancelReplaceLegs {
  /** `SUCCESS`, `FAILURE` (cancel), `NOT_ATTEMPTED` (new order), as sent. */
  readonly cancelResult: string;
  readonly newOrderResult: string;
  /** The canceled order, or the leg's `{code, msg}`; decoded (ids as exact strings). */
  readonly cancelResponse: unknown;
  /** The new order (ACK/RESULT/FULL), its `{code, msg}`, or null when not attempted. */
  readonly newOrderResponse: unknown;
}

/**
 * A compound write that partly took effect (outcome `partial`): cancelReplace -1133 (notes 6,
 * spec 7.3), where either the cancel failed and the new order was placed anyway (ALLOW_FAILURE)
 * or the cancel went through and the new order was rejected. `succeeded` names the legs that took
 * effect; `legs` carries both answers. Nothing here is to be resent: the state changed.
 */
export class PartialFailureError extends ExchangeError {
  readonly succeeded: readonly ('cancel' | 'newOrder')[];
  readonly legs: CancelReplaceLegs;
  constructor(message: string, init: ExchangeErrorInit & { legs: CancelReplaceLegs }) {
    super('PARTIAL_FAILURE', message, { ...init, data: init.data ?? init.legs });
    this.legs = init.legs;
    this.succeeded = [
      ...(init.legs.cancelResult === 'SUCCESS' ? (['cancel'] as const) : []),
      ...(init.legs.newOrderResult === 'SUCCESS' ? (['newOrder'] as const) : []),
    ];
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), succeeded: this.succeeded };
  }
}

/** A 5xx on a read, after the retries were spent. */
export class ServerError extends ExchangeError {}

/** Connection refused, reset, DNS failure: nothing reached the venue (or nothing came back). */
export class NetworkError extends ExchangeError {}

/** The response could not be read: not JSON, or not the documented shape. Names the field. */
export class MalformedResponseError extends ExchangeError {
  readonly field: string | undefined;
  readonly body: string;
  constructor(message: string, init: ExchangeErrorInit & { field?: string | undefined; body: string }) {
    super('MALFORMED_RESPONSE', message, init);
    this.field = init.field;
    this.body = init.body;
  }
}
