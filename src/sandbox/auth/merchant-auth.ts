/**
 * Merchant scheme (spec 5.4, protocol notes 2.3): headers X-Merchant-Key, X-Merchant-Sign,
 * X-Timestamp (X-Trace-Id optional). Message = X-Timestamp + absolute URL (+ `?` + unencoded query
 * for GET) + body; lower-case hex HMAC-SHA256 with the merchant key's secret. X-Timestamp may be
 * seconds (10 digits) or ms (13 digits), per `variants.merchantTimestampUnits`; it must be within
 * `auth.merchantToleranceMs` of server time (the real window is unknown, notes 10).
 * Missing headers -> -1024; anything else -> -1150, its message naming the check that failed.
 * Order (why: authenticate.ts): headers -> key exists -> signature -> X-Timestamp -> IP whitelist
 * (-1023/-2017, as for any key) -> merchant key type. The key type comes last, so a caller without
 * the secret cannot learn whether a key it holds is a merchant key.
 * Replays within the window are accepted, as for the HMAC schemes: X-Timestamp is a timestamp, not
 * a nonce, and two calls may share one (seconds); see replay-guard.ts.
 */
import { hexSignaturesEqual, hmacSha256Hex } from '../../exchange/signing/hmac.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { SandboxConfig } from '../config/schema.ts';
import { venueErrors } from '../http/error-codes.ts';
import type { HeaderMap } from '../http/route-types.ts';
import { header } from './headers.ts';
import { checkIp, type KeyedCaller } from './key-check.ts';
import { rawAndDecoded, signedUrlBases } from './url-candidates.ts';

export interface MerchantRequest {
  method: string;
  /** Raw path as received. */
  path: string;
  rawQuery: string;
  rawBody: string;
  headers: HeaderMap;
  ip: string;
  now: number;
}

export function authenticateMerchant(req: MerchantRequest, accounts: AccountRegistry, config: SandboxConfig): KeyedCaller {
  const need = (name: string): string => {
    const v = header(req.headers, name);
    if (v === undefined) throw venueErrors.missingHeader(name);
    return v;
  };
  const merchantKey = need('X-Merchant-Key');
  const sign = need('X-Merchant-Sign');
  const timestamp = need('X-Timestamp');

  const key = accounts.getKey(merchantKey);
  const account = key === undefined ? undefined : accounts.getAccount(key.accountId);
  if (!key || !account || !key.enabled) throw venueErrors.merchantAuth('unknown or disabled merchant key');
  if (!signatureMatches(req, config, key.secret, timestamp, sign)) throw venueErrors.merchantAuth('X-Merchant-Sign is not valid');

  const ms = timestampMs(timestamp, config.variants.merchantTimestampUnits);
  if (ms === undefined) throw venueErrors.merchantAuth('X-Timestamp must be seconds or milliseconds since the epoch');
  if (Math.abs(req.now - ms) > config.auth.merchantToleranceMs) throw venueErrors.merchantAuth('X-Timestamp is too far from server time');

  checkIp(key, req.ip);
  if (!key.merchant) throw venueErrors.merchantAuth('the key is not a merchant key');
  return { key, account };
}

function signatureMatches(req: MerchantRequest, config: SandboxConfig, secret: string, timestamp: string, sign: string): boolean {
  const get = req.method.toUpperCase() === 'GET';
  const bases = signedUrlBases(config.publicUrl, header(req.headers, 'host'));
  const queries = req.rawQuery === '' ? [''] : rawAndDecoded(req.rawQuery).map((q) => `?${q}`);
  const tails = get ? queries : rawAndDecoded(req.rawBody).flatMap((body) => (req.rawQuery === '' ? [body] : [body, ...queries.map((q) => q + body)]));
  for (const base of bases) {
    for (const tail of tails) {
      if (hexSignaturesEqual(hmacSha256Hex(secret, timestamp + base + req.path + tail), sign)) return true;
    }
  }
  return false;
}

/** 10 digits: seconds; 13: milliseconds; others refused. */
export function timestampMs(text: string, units: readonly ('ms' | 'seconds')[]): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  if (text.length <= 10 && units.includes('seconds')) return Number(text) * 1000;
  if (text.length >= 12 && text.length <= 13 && units.includes('ms')) return Number(text);
  return undefined;
}
