/**
 * Merchant signing (spec 5.4, protocol notes 2.3).
 *
 * Message = X-Timestamp + full absolute URL (scheme, host, port, path; a GET adds `?` and the
 * UNENCODED query) + the body as unencoded form text `k1=v1&k2=v2`. Lower-case hex HMAC-SHA256
 * with the merchant secret. The timestamp is documented in seconds but sent as ms in practice, so
 * both units are offered; the host is part of the message, so sign the URL exactly as sent.
 */
import { hmacSha256Hex } from './hmac.ts';

export type MerchantTimestampUnit = 'ms' | 'seconds';

/** `X-Timestamp` value for a clock reading. */
export function merchantTimestamp(nowMs: number, unit: MerchantTimestampUnit = 'ms'): string {
  return String(unit === 'ms' ? Math.trunc(nowMs) : Math.floor(nowMs / 1000));
}

/** `k1=v1&k2=v2` without any encoding: the form the merchant message carries. */
export function unencodedForm(entries: readonly (readonly [string, string])[]): string {
  return entries.map(([k, v]) => `${k}=${v}`).join('&');
}

export interface MerchantMessageInput {
  timestamp: string;
  /** Absolute URL without query: `http://127.0.0.1:8080/merchant-api/v1/invoices`. */
  url: string;
  /** Unencoded query (GET); appended after `?` when non-empty. */
  query?: string | undefined;
  /** Body text as sent (unencoded form text, or raw JSON). */
  body?: string | undefined;
}

export function merchantMessage(input: MerchantMessageInput): string {
  const query = input.query !== undefined && input.query !== '' ? `?${input.query}` : '';
  return input.timestamp + input.url + query + (input.body ?? '');
}

export interface MerchantSignInput extends MerchantMessageInput {
  merchantKey: string;
  secret: string;
  traceId?: string | undefined;
}

export interface MerchantHeaders {
  'X-Merchant-Key': string;
  'X-Merchant-Sign': string;
  'X-Timestamp': string;
  'X-Trace-Id'?: string;
}

export function signMerchant(input: MerchantSignInput): MerchantHeaders {
  const headers: MerchantHeaders = {
    'X-Merchant-Key': input.merchantKey,
    'X-Merchant-Sign': hmacSha256Hex(input.secret, merchantMessage(input)),
    'X-Timestamp': input.timestamp,
  };
  if (input.traceId !== undefined) headers['X-Trace-Id'] = input.traceId;
  return headers;
}
