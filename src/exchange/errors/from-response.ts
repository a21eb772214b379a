/**
 * Builds the typed error for a venue answer or a transport failure (spec 7, 1.10; protocol
 * notes 7, 9). Outcome and category always come from the one table in `classify.ts`; this file
 * only reads the body and picks the class. Messages name the endpoint, HTTP status, venue code
 * and venue message, so a log line alone says what happened.
 */
import type { HttpResponse } from '../transport/http-transport.ts';
import { zCancelReplaceResult } from '../codecs/order.ts';
import { parseJsonLossless } from '../transport/lossless-json.ts';
import type { TransportFailure } from '../transport/transport-failure.ts';
import { classify } from './classify.ts';
import {
  EnvelopeError,
  type ExchangeError,
  type ExchangeErrorInit,
  MalformedResponseError,
  MalformedWriteResponseError,
  NetworkError,
  PartialFailureError,
  RateLimitedError,
  type SentRequest,
  ServerError,
  UnknownOutcomeError,
  VenueRejectedError,
} from './errors.ts';

export const EXCHANGE_ERROR_CODES = {
  rejected: 'VENUE_REJECTED',
  envelope: 'ENVELOPE_ERROR',
  unknownOutcome: 'UNKNOWN_OUTCOME',
  server: 'SERVER_ERROR',
  network: 'NETWORK_ERROR',
} as const;

export interface ErrorFromResponseInput {
  /** Endpoint id, e.g. `spot.newOrder`. */
  endpoint: string;
  idempotent: boolean;
  response: HttpResponse;
  /** The body already parsed (lossless); parsed here when absent. */
  parsed?: unknown;
  /** The endpoint's envelope kind; when absent a `{status:number, error|data}` body counts as one. */
  envelope?: 'bare' | 'status' | undefined;
  /** What was sent; carried by the error. */
  request?: SentRequest | undefined;
  /** Local ms now, for a `Retry-After` given as an HTTP date (default Date.now()). */
  now?: number | undefined;
}

const NOT_JSON = Symbol('not-json');
const UNKNOWN_HINT = 'outcome unknown: query before resending';

/** Returns the error the answer carries, or undefined when it is a success. */
export function errorFromResponse(input: ErrorFromResponseInput): ExchangeError | undefined {
  const { endpoint, idempotent, response } = input;
  const status = response.status;
  const parsed = input.parsed !== undefined ? input.parsed : tryParse(response.body);
  const obj = isRecord(parsed) ? parsed : undefined;
  const venueCode = obj === undefined ? undefined : toInt(obj.code);
  const venueMessage = typeof obj?.msg === 'string' ? obj.msg : undefined;
  const envelopeStatus = obj !== undefined && input.envelope !== 'bare' && ('error' in obj || 'data' in obj) ? toInt(obj.status) : undefined;
  const isEnvelopeError = envelopeStatus !== undefined && envelopeStatus !== 0;
  const isVenueError = venueCode !== undefined && venueCode !== 0 && venueMessage !== undefined;
  const ok = status >= 200 && status < 300;

  if (ok && parsed === NOT_JSON) {
    return malformedResponse({ endpoint, idempotent, httpStatus: status, body: response.body, request: input.request, problem: `with a body that is not JSON (${snippet(response.body)})` });
  }
  if (ok && !isEnvelopeError && !(isVenueError && venueCode < 0)) return undefined;

  const text = isEnvelopeError ? (typeof obj?.error === 'string' ? obj.error : undefined) : venueMessage;
  const c = classify({ httpStatus: status, venueCode, message: text, envelopeStatus, idempotent });
  const init: ExchangeErrorInit = {
    endpoint,
    httpStatus: status,
    venueCode,
    envelopeStatus,
    venueMessage: text,
    outcome: c.outcome,
    category: c.category,
    data: obj !== undefined && obj.data !== null && (isVenueError || isEnvelopeError) ? obj.data : undefined,
    request: input.request,
  };
  const parts = [`${endpoint}: HTTP ${status}`];
  if (isEnvelopeError) parts.push(`envelope status ${envelopeStatus}: ${text ?? '(no error text)'}`);
  else if (isVenueError) parts.push(`venue code ${venueCode}: ${venueMessage}`);
  else if (response.body === '') parts.push('empty body');
  else parts.push(`${parsed === NOT_JSON ? 'not JSON' : 'body'}: ${snippet(response.body)}`);
  let message = `${parts.join(', ')} [${c.outcome}/${c.category}]`;
  if (c.outcome === 'unknown-outcome') message += `; ${UNKNOWN_HINT}`;

  if (c.outcome === 'rate-limited') {
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], input.now ?? Date.now());
    return new RateLimitedError(message, { ...init, retryAfterMs, banned: status === 418 });
  }
  if (c.outcome === 'partial') return partialFailure(init, message, obj?.data);
  // Unknown outcome first, whatever the body's shape: a 5xx, a -1000/-1001 or a server-side-error
  // envelope on a write may have been executed, and every such failure is an UnknownOutcomeError.
  if (c.outcome === 'unknown-outcome') return new UnknownOutcomeError(EXCHANGE_ERROR_CODES.unknownOutcome, message, init);
  if (isEnvelopeError && status < 500) return new EnvelopeError(EXCHANGE_ERROR_CODES.envelope, message, init);
  if (c.category === 'server') return new ServerError(EXCHANGE_ERROR_CODES.server, message, init);
  return new VenueRejectedError(EXCHANGE_ERROR_CODES.rejected, message, init);
}

/**
 * cancelReplace -1133 (notes 6): decode the legs from `data`. When they cannot be read, or read as
 * if nothing took effect (contradicting the code), which leg took effect is unknown: query.
 */
function partialFailure(init: ExchangeErrorInit, message: string, data: unknown): ExchangeError {
  const legs = zCancelReplaceResult.safeParse(data);
  if (legs.success && (legs.data.cancelResult === 'SUCCESS' || legs.data.newOrderResult === 'SUCCESS')) {
    const done = [legs.data.cancelResult === 'SUCCESS' ? 'the cancel succeeded' : 'the cancel failed', legs.data.newOrderResult === 'SUCCESS' ? 'the new order was placed' : `the new order ${legs.data.newOrderResult === 'NOT_ATTEMPTED' ? 'was not attempted' : 'failed'}`];
    return new PartialFailureError(`${message}: ${done.join(', ')}`, { ...init, data: legs.data, legs: legs.data });
  }
  return new UnknownOutcomeError(EXCHANGE_ERROR_CODES.unknownOutcome, `${message}; which leg took effect cannot be read from the answer; ${UNKNOWN_HINT}`, {
    ...init,
    outcome: 'unknown-outcome',
  });
}

export interface MalformedResponseInput {
  endpoint: string;
  idempotent: boolean;
  httpStatus: number;
  body: string;
  /** What is wrong, completing "<endpoint>: HTTP <status> ...". */
  problem: string;
  field?: string | undefined;
  request?: SentRequest | undefined;
}

/**
 * A success status whose body cannot be read. On a read that is retryable (MalformedResponseError);
 * on a write the venue most likely acted, so it is an unknown outcome (MalformedWriteResponseError,
 * an UnknownOutcomeError): query, never resend.
 */
export function malformedResponse(input: MalformedResponseInput): MalformedResponseError | MalformedWriteResponseError {
  const { endpoint, idempotent, httpStatus, body, field } = input;
  const init = { endpoint, httpStatus, category: 'decode' as const, field, body, request: input.request };
  if (idempotent) return new MalformedResponseError(`${endpoint}: HTTP ${httpStatus} ${input.problem} [retryable/decode]`, { ...init, outcome: 'retryable' });
  return new MalformedWriteResponseError(`${endpoint}: HTTP ${httpStatus} ${input.problem} [unknown-outcome/decode]; ${UNKNOWN_HINT}`, {
    ...init,
    outcome: 'unknown-outcome',
  });
}

export interface ErrorFromTransportFailureInput {
  endpoint: string;
  idempotent: boolean;
  failure: TransportFailure;
  request?: SentRequest | undefined;
}

/** No HTTP answer: a NetworkError when nothing was sent or a resend is safe, else unknown outcome. */
export function errorFromTransportFailure(input: ErrorFromTransportFailureInput): ExchangeError {
  const { endpoint, idempotent, failure, request } = input;
  const category = failure.kind === 'timeout' ? 'timeout' : 'network';
  if (!failure.mayHaveReachedServer || idempotent) {
    const message = `${endpoint}: ${failure.kind}: ${failure.message} [retryable/${category}]`;
    return new NetworkError(EXCHANGE_ERROR_CODES.network, message, { endpoint, outcome: 'retryable', category, request, cause: failure });
  }
  const message = `${endpoint}: ${failure.kind}: ${failure.message} [unknown-outcome/${category}]; ${UNKNOWN_HINT}`;
  return new UnknownOutcomeError(EXCHANGE_ERROR_CODES.unknownOutcome, message, { endpoint, outcome: 'unknown-outcome', category, request, cause: failure });
}

/**
 * `Retry-After` in ms: seconds as spec 8.6 says, or an HTTP date (RFC 9110 allows either), counted
 * from `now` and never negative. Garbage gives undefined: the pause then backs off on its own.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

function tryParse(body: string): unknown {
  try {
    return parseJsonLossless(body);
  } catch {
    return NOT_JSON;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Integer from a JSON number or an integer string (lossless parsing may yield either). */
function toInt(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return Number(v);
  return undefined;
}

/** First 120 characters of a body, tags and runs of white space collapsed, for messages. */
function snippet(body: string): string {
  const flat = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 120)}...` : flat);
}
