/**
 * The fastify instance: every request body is kept as raw text (signatures are verified over the
 * raw bytes, spec 5.2 / notes 2.1), every path goes to the pipeline (which answers 404/405 itself
 * in the venue's shape), the admin prefix to the admin dispatcher when enabled. Framework-level
 * failures (oversize body, malformed URL, aborted body) get the venue's `{code, msg}` too: never
 * a stack trace, never a 500 for bad input. So do the answers Node's HTTP parser gives before
 * fastify sees a request (client-error.ts: bad request line 400, headers too large 431, a request
 * whose headers or body stall past the configured timeouts 408; issue 24 saw them held 75 s).
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { answerClientError } from './client-error.ts';
import { venueErrors } from './error-codes.ts';
import { sendError, sendWire } from './send.ts';

type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

export interface AppOptions {
  bodyLimit: number;
  /** How long a client may take to send the request headers, and the whole request (ms). */
  headersTimeoutMs?: number | undefined;
  requestTimeoutMs?: number | undefined;
  pipeline: RouteHandler;
  admin?: { prefix: string; dispatch: RouteHandler } | undefined;
  log: Logger;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

export function buildApp(options: AppOptions): FastifyInstance {
  const headersTimeout = options.headersTimeoutMs ?? 5000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 10_000, headersTimeout);
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit,
    // Node checks the timeouts every connectionsCheckingInterval (30 s by default): check often
    // enough that a stalled request is cut close to its timeout.
    requestTimeout,
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(headersTimeout / 4))) },
    clientErrorHandler: answerClientError,
    // Graceful: idle keep-alive sockets close at once, requests in flight finish (hung ones are released first).
    forceCloseConnections: 'idle',
    exposeHeadRoutes: false,
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 8192 },
    frameworkErrors: (error, _request, reply) => {
      sendWire(reply, 400, venueErrors.badRequest(error.message).body());
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 413) return sendWire(reply, 413, venueErrors.badRequest(`the request body is larger than ${options.bodyLimit} bytes`, 413).body());
    if (status >= 400 && status < 500) return sendWire(reply, status, venueErrors.badRequest(error.message, status).body());
    return sendError(reply, error, options.log, { framework: true });
  });
  app.setNotFoundHandler(options.pipeline);
  if (options.admin) {
    const { prefix, dispatch } = options.admin;
    app.route({ method: ['GET', 'POST', 'PUT', 'DELETE'], url: prefix, handler: dispatch });
    app.route({ method: ['GET', 'POST', 'PUT', 'DELETE'], url: `${prefix}/*`, handler: dispatch });
  }
  app.route({ method: METHODS, url: '/*', handler: options.pipeline });
  return app;
}
