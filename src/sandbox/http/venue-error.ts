/**
 * What handlers and the pipeline throw to answer with an error (spec 7.2, 1.10).
 *
 * - `VenueError(code, msg, httpStatus = 400, data?)` -> HTTP `httpStatus`, body `{code, msg}` (plus
 *   `data` when given: cancelReplace's -1132/-1133 carry one, protocol notes 6).
 * - `EnvelopeFailure(status, error)` -> HTTP 200, body `{status, error, data: null, params: null}`
 *   for the convert and fiat endpoints (spec 7.6: the status code is the error).
 */
export class VenueError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  readonly data: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: number, msg: string, httpStatus = 400, data?: unknown, headers: Record<string, string> = {}) {
    super(msg);
    this.name = 'VenueError';
    this.code = code;
    this.httpStatus = httpStatus;
    this.data = data;
    this.headers = headers;
  }

  body(): Record<string, unknown> {
    return this.data === undefined ? { code: this.code, msg: this.message } : { code: this.code, msg: this.message, data: this.data };
  }
}

export class EnvelopeFailure extends Error {
  readonly status: number;
  readonly error: string;

  constructor(status: number, error: string) {
    super(error);
    this.name = 'EnvelopeFailure';
    this.status = status;
    this.error = error;
  }

  body(): Record<string, unknown> {
    return { status: this.status, error: this.error, data: null, params: null };
  }
}

/** A handler's answer with its own status or headers (rarely needed: return the body instead). */
export class WireReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}
