/**
 * Authentication by the endpoint's security type (spec 5.1 table, 5.4; protocol notes 2):
 * NONE open; USER_STREAM and MARKET_DATA the key header only; TRADE and USER_DATA signed
 * (hmac-auth.ts); MERCHANT the merchant headers; LEGACY_V4 the ACCESS-* headers.
 * Notes 6: check-sys-status has no stated security and clients sign it ("accept both"), so it is
 * served signed when the call carries a signature (query, form body or header) and open otherwise.
 * A key header alone does not make it signed: connectors that put the key header on every request
 * call it unsigned with the key attached.
 *
 * Order of checks, the same in every scheme (issue 24 defect 6; spec 7.3 codes, notes 8 permissions):
 *
 *   headers present (-1002/-1024/-1105) -> key exists and is enabled (-2015; merchant -1150)
 *   -> signature valid (-1022; merchant -1150) -> timestamp or nonce inside its window (-1021;
 *   v4 -1025 malformed, -10324 repeated; merchant -1150) -> IP whitelist (-1023/-2017)
 *   -> key type and permission (-2019, -1020, -1152; merchant -1150).
 *
 * Why: until the signature verifies, the caller has shown only that it knows a key string (keys
 * travel in headers and logs; the secret never does). Everything after "the key exists" describes
 * the key (its IP list, its type, its roles) and is answered only to a caller who proved it holds
 * the secret; a forged or garbage-signed request learns -1022 and nothing else, whatever the key.
 * The key must come first because the secret that verifies the signature is looked up by it.
 * Timing comes after the signature so a forger cannot probe the server clock either. IP comes
 * before permission because it is a property of the whole key, and permission of one route.
 * Key-only schemes (USER_STREAM, MARKET_DATA) have nothing to verify and go from key to IP.
 */
import { stripSignature } from '../../exchange/signing/query-signing.ts';
import type { AnyEndpoint, Security } from '../../exchange/endpoints/types.ts';
import type { ApiKeyRecord, SandboxAccount } from '../contracts.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { SandboxConfig } from '../config/schema.ts';
import type { HeaderMap } from '../http/route-types.ts';
import { header } from './headers.ts';
import { authenticateKey, authenticateSigned, type SignedRequest } from './hmac-auth.ts';
import { authenticateLegacyV4 } from './legacy-v4-auth.ts';
import { authenticateMerchant } from './merchant-auth.ts';

const OPTIONAL_AUTH = new Set(['general.checkSysStatus']);

export interface AuthRequest extends SignedRequest {
  method: string;
  path: string;
}

export interface Authenticated {
  account: SandboxAccount | undefined;
  apiKey: ApiKeyRecord | undefined;
}

export function effectiveSecurity(def: AnyEndpoint, req: Pick<SignedRequest, 'headers' | 'rawQuery' | 'rawBody' | 'bodyKind'>): Security {
  if (OPTIONAL_AUTH.has(def.id) && !carriesSignature(req)) return 'NONE';
  return def.security;
}

function carriesSignature(req: Pick<SignedRequest, 'headers' | 'rawQuery' | 'rawBody' | 'bodyKind'>): boolean {
  if (header(req.headers, 'signature') !== undefined || stripSignature(req.rawQuery).signature !== undefined) return true;
  return req.bodyKind === 'form' && stripSignature(req.rawBody).signature !== undefined;
}

export function authenticate(req: AuthRequest, accounts: AccountRegistry, config: SandboxConfig): Authenticated {
  const security = effectiveSecurity(req.def, req);
  const done = (c: { key: ApiKeyRecord; account: SandboxAccount }): Authenticated => ({ account: c.account, apiKey: c.key });
  switch (security) {
    case 'NONE':
      return { account: undefined, apiKey: undefined };
    case 'USER_STREAM':
    case 'MARKET_DATA':
      return done(authenticateKey(req, accounts, config));
    case 'TRADE':
    case 'USER_DATA':
      return done(authenticateSigned(req, accounts, config));
    case 'MERCHANT':
      return done(authenticateMerchant(req, accounts, config));
    case 'LEGACY_V4':
      return done(authenticateLegacyV4(req, accounts, config));
  }
}

/** The UID a request will be charged to (rate limits run before authentication): its key's account, if the key exists. */
export function claimedUid(def: AnyEndpoint, headers: HeaderMap, accounts: AccountRegistry, config: SandboxConfig): string | undefined {
  const name = def.security === 'MERCHANT' ? 'X-Merchant-Key' : def.security === 'LEGACY_V4' ? 'ACCESS-KEY' : config.variants.apiKeyHeader;
  const key = header(headers, name);
  return key === undefined ? undefined : accounts.getKey(key)?.accountId;
}
