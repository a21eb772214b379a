/**
 * Legacy v4 scheme (`openapi/migration/v4/*`, protocol notes 2.4): headers ACCESS-KEY,
 * ACCESS-SIGNATURE, ACCESS-NONCE (10-digit seconds). Signature = hex HMAC-SHA256(secret,
 * nonce + absolute URL + compact JSON body); GET signs `?` + the unencoded query instead of a body.
 * No codes are documented for it; the sandbox answers as the main scheme does, in the order of
 * authenticate.ts: missing headers -1024, unknown key -2015, bad signature -1022, nonce not
 * 10-digit seconds -1025, nonce outside `auth.merchantToleranceMs` -1021, signature already used
 * inside that window -10324 "Request repeated" (spec 7.3; replay-guard.ts, issue 24 defect 4), then
 * IP -1023/-2017, a merchant key -2019, a read-only key on a POST -1020 (permissions.ts).
 */
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import { hexSignaturesEqual, hmacSha256Hex } from '../../exchange/signing/hmac.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { SandboxConfig } from '../config/schema.ts';
import { venueErrors } from '../http/error-codes.ts';
import { VenueError } from '../http/venue-error.ts';
import { header } from './headers.ts';
import { authorise, findKey, type KeyedCaller } from './key-check.ts';
import type { MerchantRequest } from './merchant-auth.ts';
import { replayGuardFor } from './replay-guard.ts';
import { rawAndDecoded, signedUrlBases } from './url-candidates.ts';

export interface LegacyV4Request extends MerchantRequest {
  def: AnyEndpoint;
}

export function authenticateLegacyV4(req: LegacyV4Request, accounts: AccountRegistry, config: SandboxConfig): KeyedCaller {
  const need = (name: string): string => {
    const v = header(req.headers, name);
    if (v === undefined) throw venueErrors.missingHeader(name);
    return v;
  };
  const apiKey = need('ACCESS-KEY');
  const signature = need('ACCESS-SIGNATURE');
  const nonce = need('ACCESS-NONCE');
  const caller = findKey(accounts, apiKey);
  if (!signatureMatches(req, config, caller.key.secret, nonce, signature)) throw venueErrors.badSignature();

  if (!/^\d{10}$/.test(nonce)) throw venueErrors.invalidParam('ACCESS-NONCE', 'must be 10-digit seconds');
  const tolerance = config.auth.merchantToleranceMs;
  const nonceMs = Number(nonce) * 1000;
  if (Math.abs(req.now - nonceMs) > tolerance) throw venueErrors.timestampOutside();
  const verdict = replayGuardFor(accounts).admit(`${apiKey}\n${signature.toLowerCase()}`, nonceMs + tolerance, req.now);
  if (verdict === 'repeated') throw new VenueError(-10324, `Request repeated: this ACCESS-SIGNATURE (ACCESS-NONCE ${nonce}) was already used; sign each request with a new nonce or body.`, 400);
  if (verdict === 'full') throw new VenueError(-1003, 'Too many requests: too many legacy v4 signatures are still inside their nonce window; retry later.', 429);

  authorise(caller.key, req.ip, req.def);
  return caller;
}

function signatureMatches(req: LegacyV4Request, config: SandboxConfig, secret: string, nonce: string, signature: string): boolean {
  const get = req.method.toUpperCase() === 'GET';
  const tails = get ? (req.rawQuery === '' ? [''] : rawAndDecoded(req.rawQuery).map((q) => `?${q}`)) : [req.rawBody];
  for (const base of signedUrlBases(config.publicUrl, header(req.headers, 'host'))) {
    for (const tail of tails) {
      if (hexSignaturesEqual(hmacSha256Hex(secret, nonce + base + req.path + tail), signature)) return true;
    }
  }
  return false;
}
