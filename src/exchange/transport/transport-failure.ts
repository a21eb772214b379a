/**
 * A request that got no HTTP answer (spec 7.1: a write whose outcome is unknown must be
 * resolved by querying, never by resending; design rule 7).
 *
 * `kind` says where it failed, `mayHaveReachedServer` whether the venue may have acted on it.
 * Classification maps undici's error codes (design rule 7: undici's errors carry codes), never
 * message text.
 */

export type TransportFailureKind =
  /** Nothing was sent: refused, DNS failure, connect timeout, dispatcher closed. */
  | 'connect'
  /** Sent, no complete answer in time: the venue may have processed it. */
  | 'timeout'
  /** The socket closed mid-request: the venue may have processed it. */
  | 'reset'
  /** The caller aborted it. */
  | 'aborted';

export class TransportFailure extends Error {
  readonly kind: TransportFailureKind;
  readonly mayHaveReachedServer: boolean;
  /** The first error code found on the error or its causes (`ECONNREFUSED`, `UND_ERR_SOCKET` ...). */
  readonly errorCode: string | undefined;

  constructor(kind: TransportFailureKind, message: string, opts: { mayHaveReachedServer: boolean; errorCode?: string | undefined; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TransportFailure';
    this.kind = kind;
    this.mayHaveReachedServer = opts.mayHaveReachedServer;
    this.errorCode = opts.errorCode;
  }
}

/** Nothing left the machine for these: the connection was never made. */
const CONNECT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** Walks `err`, its `cause` chain and AggregateError members for the first string `code`. */
export function findErrorCode(err: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const found = findErrorCode(inner, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return findErrorCode((err as { cause?: unknown }).cause, depth + 1);
}

/**
 * Maps an undici failure. Anything unrecognised counts as `reset` with the request possibly
 * processed: the safe assumption for a write.
 */
export function toTransportFailure(err: unknown, target: string): TransportFailure {
  if (err instanceof TransportFailure) return err;
  const code = findErrorCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  const what = `${target}: ${detail}${code !== undefined && !detail.includes(code) ? ` (${code})` : ''}`;
  if (code !== undefined && CONNECT_CODES.has(code)) {
    return new TransportFailure('connect', `connection failed, nothing sent: ${what}`, { mayHaveReachedServer: false, errorCode: code, cause: err });
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new TransportFailure('timeout', `no answer in time: ${what}`, { mayHaveReachedServer: true, errorCode: code, cause: err });
  }
  return new TransportFailure('reset', `connection lost mid-request: ${what}`, { mayHaveReachedServer: true, errorCode: code, cause: err });
}
