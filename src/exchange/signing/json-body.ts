/**
 * Signing of JSON-body endpoints (fiat; spec 5.2.4, protocol notes 2.2).
 *
 * Message = raw query (no `?`) + the JSON body exactly as sent (compact, non-ASCII unescaped).
 * The signature and timestamp travel as headers; the caller adds `X-SERVICE-APIKEY` and
 * `Content-Type: application/json` beside them.
 */
import { hmacSha256Hex } from './hmac.ts';

export interface JsonBodySignInput {
  secret: string;
  /** Raw query string as sent, without `?`; empty when there is none. */
  query?: string;
  /** The body bytes as they will be sent (see `stringifyCompact`). */
  body: string;
  /** Milliseconds since the epoch, from the injected clock. */
  timestampMs: number;
}

export interface JsonBodySignatureHeaders {
  signature: string;
  timestamp: string;
}

export function jsonBodyMessage(query: string, body: string): string {
  return query + body;
}

export function signJsonBody(input: JsonBodySignInput): JsonBodySignatureHeaders {
  return {
    signature: hmacSha256Hex(input.secret, jsonBodyMessage(input.query ?? '', input.body)),
    timestamp: String(Math.trunc(input.timestampMs)),
  };
}
