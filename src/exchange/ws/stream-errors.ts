/**
 * Typed errors of the venue's WebSocket streams (protocol notes 1). Callers branch on `code`
 * (design rule 7), never on message text:
 *   STREAM_INVALID_REQUEST  `{"code":2,"msg":"Invalid request: <reason>"}`
 *   STREAM_INVALID_JSON     `{"code":3,"msg":"Invalid JSON"}`
 *   STREAM_INVALID_SYMBOLS  `{"code":"-100010","desc":"Invalid Symbols!"}` (string code, `desc`)
 *   STREAM_ERROR            any other `{code, msg|desc}` reply
 * plus what happens on our side: no reply in time, the socket lost before the reply, the
 * connection closed, the upgrade refused with an HTTP status (a dead listen key: 400 with -1125).
 */
import { HalyardError } from '../errors/errors.ts';

/** The control request a reply belongs to. */
export interface StreamRequest {
  readonly method: 'SUBSCRIBE' | 'UNSUBSCRIBE' | 'LIST_SUBSCRIPTIONS';
  readonly params?: readonly string[] | undefined;
  readonly id: number;
}

const CODE_NAMES: Readonly<Record<string, string>> = { '2': 'STREAM_INVALID_REQUEST', '3': 'STREAM_INVALID_JSON', '-100010': 'STREAM_INVALID_SYMBOLS' };

/** The venue answered a control request with an error. */
export class StreamRequestError extends HalyardError {
  /** As sent: 2 and 3 are numbers, -100010 is the string "-100010". */
  readonly venueCode: number | string;
  readonly venueMessage: string;
  /** The request the error answered (the oldest one waiting: error replies carry no id). */
  readonly request: StreamRequest | undefined;
  constructor(venueCode: number | string, venueMessage: string, request?: StreamRequest) {
    const what = request ? `${request.method}${request.params ? ` ${request.params.join(',')}` : ''} (id ${request.id})` : 'stream request';
    super(CODE_NAMES[String(venueCode)] ?? 'STREAM_ERROR', `${what} refused: ${venueMessage} (code ${String(venueCode)})`);
    this.venueCode = venueCode;
    this.venueMessage = venueMessage;
    this.request = request;
  }

  /** The same error, knowing which request it answered. */
  forRequest(request: StreamRequest): StreamRequestError {
    return new StreamRequestError(this.venueCode, this.venueMessage, request);
  }
}

/** No reply to a control request within the bound. */
export class StreamRequestTimeoutError extends HalyardError {
  constructor(readonly request: StreamRequest, timeoutMs: number) {
    super('STREAM_REQUEST_TIMEOUT', `${request.method} (id ${request.id}): no reply within ${timeoutMs} ms`);
  }
}

/**
 * The socket was lost (or the connection closed) before the request was answered. Streams asked
 * for stay wanted: the reconnect subscribes them again.
 */
export class StreamConnectionLostError extends HalyardError {
  constructor(reason: string, readonly request?: StreamRequest) {
    super('STREAM_CONNECTION_LOST', `${request ? `${request.method} (id ${request.id}): ` : ''}${reason}`);
  }
}

/** The connection was closed by its owner; nothing more is sent or received. */
export class StreamClosedError extends HalyardError {
  constructor(what = 'the stream connection is closed') {
    super('STREAM_CLOSED', what);
  }
}

/**
 * The server refused the WebSocket upgrade with an HTTP answer, e.g. 400 `{"code":-1125,...}` for a
 * listen key that no longer exists. `venueCode` is the body's code when it has one.
 */
export class StreamUpgradeRejectedError extends HalyardError {
  constructor(
    readonly httpStatus: number,
    readonly venueCode: number | string | undefined,
    readonly body: string,
  ) {
    super('STREAM_UPGRADE_REJECTED', `upgrade refused: HTTP ${httpStatus}${body ? ` ${body.slice(0, 200)}` : ''}`);
  }
}

/** An error for a reason text: its message, with a Node or Halyard code when the message lacks it. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return code !== undefined && !err.message.includes(String(code)) ? `${err.message} (${String(code)})` : err.message;
  }
  return String(err);
}
