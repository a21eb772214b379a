/**
 * TRADE and USER_DATA authentication (spec 5.2-5.3, protocol notes 2.1-2.2): API key header,
 * key and IP checks, permissions, HMAC-SHA256 over the RAW query + RAW body (verifyHmacRequest:
 * signature from query, body or header; raw then percent-decoded; the stray `&&signature=` form
 * verifies because the cut leaves the `&` the caller signed), then timing.
 *
 * Order of checks: key header (-1002) -> key (-2015) -> IP (-1023/-2017) -> permission
 * (-1020/-1152/-2019) -> signature present (-1105, or -1024 for the JSON scheme) and valid (-1022)
 * -> recvWindow (-1105 where required, -1025) and timestamp (-1021). A forged request learns
 * nothing about timing.
 */
import { stripSignature, verifyHmacRequest } from '../../exchange/signing/query-signing.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { SandboxConfig } from '../config/schema.ts';
import { venueErrors } from '../http/error-codes.ts';
import type { BodyKind } from '../http/raw-params.ts';
import type { HeaderMap } from '../http/route-types.ts';
import { header } from './headers.ts';
import { findUsableKey, type KeyedCaller } from './key-check.ts';
import { checkPermission } from './permissions.ts';
import { checkTiming } from './timing.ts';

export interface SignedRequest {
  def: AnyEndpoint;
  rawQuery: string;
  rawBody: string;
  bodyKind: BodyKind;
  headers: HeaderMap;
  values: Readonly<Record<string, unknown>>;
  ip: string;
  /** Server time for the timestamp check. */
  now: number;
}

/** The key header alone (USER_STREAM, MARKET_DATA, and the first step of signed schemes). */
export function authenticateKey(req: Pick<SignedRequest, 'def' | 'headers' | 'ip'>, accounts: AccountRegistry, config: SandboxConfig): KeyedCaller {
  const name = config.variants.apiKeyHeader;
  const apiKey = header(req.headers, name);
  if (apiKey === undefined) throw venueErrors.missingKeyHeader(name);
  const caller = findUsableKey(accounts, apiKey, req.ip);
  checkPermission(caller.key, req.def);
  return caller;
}

export function authenticateSigned(req: SignedRequest, accounts: AccountRegistry, config: SandboxConfig): KeyedCaller {
  const caller = authenticateKey(req, accounts, config);
  const json = req.bodyKind === 'json';
  const headerSignature = header(req.headers, 'signature');
  const present =
    stripSignature(req.rawQuery).signature !== undefined ||
    (!json && stripSignature(req.rawBody).signature !== undefined) ||
    headerSignature !== undefined;
  if (!present) throw json ? venueErrors.missingHeader('signature') : venueErrors.missingParam('signature');
  const valid = verifyHmacRequest({
    secret: caller.key.secret,
    rawQuery: req.rawQuery,
    rawBody: req.rawBody,
    headerSignature,
    bodyKind: json ? 'json' : 'form',
  });
  if (!valid) throw venueErrors.badSignature();
  checkTiming(
    {
      values: req.values,
      headers: req.headers,
      now: req.now,
      json,
      timestampOptional: config.variants.fiatTimestampOptional,
      recvWindowTerms: req.def.recvWindow,
      recvWindowOptional: config.variants.recvWindowOptional,
    },
    config.auth,
  );
  return caller;
}
