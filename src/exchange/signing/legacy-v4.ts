/**
 * Legacy v4 signing (`openapi/migration/v4/*`, protocol notes 2.4).
 *
 * Signature = hex HMAC-SHA256(secret, nonce + full URL + compact JSON body); a GET signs
 * `?` + the unencoded query in place of the body. The nonce is 10-digit seconds.
 */
import { hmacSha256Hex } from './hmac.ts';

export interface LegacyV4SignInput {
  apiKey: string;
  secret: string;
  /** Milliseconds since the epoch, from the injected clock; the nonce is its whole seconds. */
  nowMs: number;
  /** Absolute URL without query. */
  url: string;
  method: string;
  /** Unencoded query (GET only). */
  query?: string | undefined;
  /** Compact JSON body as sent (non-GET). */
  body?: string | undefined;
}

export interface LegacyV4Headers {
  'ACCESS-KEY': string;
  'ACCESS-SIGNATURE': string;
  'ACCESS-NONCE': string;
}

export function legacyV4Nonce(nowMs: number): string {
  return String(Math.floor(nowMs / 1000));
}

export function legacyV4Message(nonce: string, input: Pick<LegacyV4SignInput, 'url' | 'method' | 'query' | 'body'>): string {
  const tail =
    input.method.toUpperCase() === 'GET'
      ? input.query !== undefined && input.query !== ''
        ? `?${input.query}`
        : ''
      : (input.body ?? '');
  return nonce + input.url + tail;
}

export function signLegacyV4(input: LegacyV4SignInput): LegacyV4Headers {
  const nonce = legacyV4Nonce(input.nowMs);
  return {
    'ACCESS-KEY': input.apiKey,
    'ACCESS-SIGNATURE': hmacSha256Hex(input.secret, legacyV4Message(nonce, input)),
    'ACCESS-NONCE': nonce,
  };
}
