/**
 * Legacy v4 scheme (`openapi/migration/v4/*`, protocol notes 2.4): headers ACCESS-KEY,
 * ACCESS-SIGNATURE, ACCESS-NONCE (10-digit seconds). Signature = hex HMAC-SHA256(secret,
 * nonce + absolute URL + compact JSON body); GET signs `?` + the unencoded query instead of a body.
 * No codes are documented for it; the sandbox answers as the main scheme does: missing headers
 * -1024, unknown key -2015, IP -1023/-2017, stale nonce -1021, bad signature -1022.
 */
import { hexSignaturesEqual, hmacSha256Hex } from '../../exchange/signing/hmac.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { SandboxConfig } from '../config/schema.ts';
import { venueErrors } from '../http/error-codes.ts';
import { header } from './headers.ts';
import { findUsableKey, type KeyedCaller } from './key-check.ts';
import type { MerchantRequest } from './merchant-auth.ts';
import { rawAndDecoded, signedUrlBases } from './url-candidates.ts';

export function authenticateLegacyV4(req: MerchantRequest, accounts: AccountRegistry, config: SandboxConfig): KeyedCaller {
  const need = (name: string): string => {
    const v = header(req.headers, name);
    if (v === undefined) throw venueErrors.missingHeader(name);
    return v;
  };
  const apiKey = need('ACCESS-KEY');
  const signature = need('ACCESS-SIGNATURE');
  const nonce = need('ACCESS-NONCE');
  const caller = findUsableKey(accounts, apiKey, req.ip);
  if (caller.key.merchant) throw venueErrors.wrongKeyType('a merchant key cannot call the exchange API');
  if (!/^\d{10}$/.test(nonce)) throw venueErrors.invalidParam('ACCESS-NONCE', 'must be 10-digit seconds');
  if (Math.abs(req.now - Number(nonce) * 1000) > config.auth.merchantToleranceMs) throw venueErrors.timestampOutside();

  const get = req.method.toUpperCase() === 'GET';
  const tails = get ? (req.rawQuery === '' ? [''] : rawAndDecoded(req.rawQuery).map((q) => `?${q}`)) : [req.rawBody];
  for (const base of signedUrlBases(config.publicUrl, header(req.headers, 'host'))) {
    for (const tail of tails) {
      if (hexSignaturesEqual(hmacSha256Hex(caller.key.secret, nonce + base + req.path + tail), signature)) return caller;
    }
  }
  throw venueErrors.badSignature();
}
