/**
 * HTTP transport on undici (design: exchange/transport; protocol notes 1, spec 7.1).
 *
 * One keep-alive Agent (a pool per origin). Every request has a total deadline covering connect,
 * headers and body; a failure without an HTTP answer becomes a `TransportFailure` that says
 * whether the venue may have seen the request. Nothing is retried here: whether a retry is safe
 * depends on the endpoint (design rule 7), so that is the caller's decision.
 */
import { Agent, type Dispatcher } from 'undici';
import { TransportFailure, toTransportFailure } from './transport-failure.ts';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Absolute URL; a path starting with `/` is resolved against the transport's `baseUrl`. */
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** Total deadline for this request; defaults to the transport's `requestTimeoutMs`. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

export interface HttpTransport {
  send(req: HttpRequest): Promise<HttpResponse>;
  /** Closes the pooled connections this transport opened (an injected dispatcher is left open). */
  close(): Promise<void>;
}

export interface UndiciTransportOptions {
  baseUrl?: string;
  /** Max sockets per origin. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** E.g. a MockAgent in tests. */
  dispatcher?: Dispatcher;
}

export const TRANSPORT_DEFAULTS = {
  connections: 8,
  keepAliveTimeoutMs: 30_000,
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
} as const;

export function createUndiciTransport(opts: UndiciTransportOptions = {}): HttpTransport {
  const requestTimeoutMs = opts.requestTimeoutMs ?? TRANSPORT_DEFAULTS.requestTimeoutMs;
  const owned =
    opts.dispatcher === undefined
      ? new Agent({
          connections: opts.connections ?? TRANSPORT_DEFAULTS.connections,
          keepAliveTimeout: opts.keepAliveTimeoutMs ?? TRANSPORT_DEFAULTS.keepAliveTimeoutMs,
          connect: { timeout: opts.connectTimeoutMs ?? TRANSPORT_DEFAULTS.connectTimeoutMs },
        })
      : undefined;
  const dispatcher: Dispatcher = opts.dispatcher ?? (owned as Agent);

  async function send(req: HttpRequest): Promise<HttpResponse> {
    const url = opts.baseUrl !== undefined && req.url.startsWith('/') ? new URL(req.url, opts.baseUrl) : new URL(req.url);
    const target = `${req.method} ${url.origin}${url.pathname}`;
    if (isAborted(req.signal)) {
      throw new TransportFailure('aborted', `${target}: aborted before sending`, { mayHaveReachedServer: false, cause: req.signal?.reason });
    }
    const timeoutMs = req.timeoutMs ?? requestTimeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort();
    req.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const res = await dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: controller.signal,
        // The total deadline above governs; these only keep undici from giving up earlier.
        headersTimeout: timeoutMs + 1_000,
        bodyTimeout: timeoutMs + 1_000,
      });
      const body = await res.body.text();
      return { status: res.statusCode, headers: flattenHeaders(res.headers), body };
    } catch (err) {
      if (timedOut) {
        throw new TransportFailure('timeout', `${target}: no answer within ${timeoutMs} ms`, { mayHaveReachedServer: true, cause: err });
      }
      if (isAborted(req.signal)) {
        throw new TransportFailure('aborted', `${target}: aborted by the caller`, { mayHaveReachedServer: true, cause: err });
      }
      throw toTransportFailure(err, target);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return {
    send,
    close: async () => {
      if (owned !== undefined) await owned.close();
    },
  };
}

// A function, so the pre-send check does not narrow `aborted` to false for the catch block.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
