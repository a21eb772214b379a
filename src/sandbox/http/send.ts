/**
 * Writing answers: bodies go through stringifyWire (bigint ids become bare JSON numbers, notes 5.1).
 * Every error becomes the venue's shape; anything unexpected is HTTP 500 -1000 and is logged,
 * never a stack trace on the wire (spec 7.2).
 */
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { stringifyWire } from '../wire-json.ts';
import { venueErrors } from './error-codes.ts';
import { EnvelopeFailure, VenueError, WireReply } from './venue-error.ts';

export function sendWire(reply: FastifyReply, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): FastifyReply {
  return reply
    .code(status)
    .headers({ ...headers, 'content-type': 'application/json; charset=utf-8' })
    .send(stringifyWire(body === undefined ? {} : body));
}

export function sendResult(reply: FastifyReply, result: unknown): FastifyReply {
  if (result instanceof WireReply) return sendWire(reply, result.status, result.body, result.headers);
  return sendWire(reply, 200, result);
}

export function sendError(reply: FastifyReply, error: unknown, log: Logger, context: Record<string, unknown> = {}): FastifyReply {
  if (error instanceof VenueError) return sendWire(reply, error.httpStatus, error.body(), error.headers);
  if (error instanceof EnvelopeFailure) return sendWire(reply, 200, error.body());
  log.error({ ...context, err: error }, 'sandbox: internal error while handling a request');
  const unknown = venueErrors.unknown();
  return sendWire(reply, unknown.httpStatus, unknown.body());
}

/** The 5xx body of injected server faults (spec 7.3 -1001: internal error). */
export function faultBody(): Record<string, unknown> {
  return { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' };
}
