/**
 * TRADE and USER_DATA authentication (spec 5.2-5.3, protocol notes 2.1-2.2): API key header,
 * HMAC-SHA256 over the RAW query + RAW body (verifyHmacRequest: signature from query, body or
 * header; raw then percent-decoded; the stray `&&signature=` form verifies because the cut leaves
 * the `&` the caller signed), then timing, then what the key may do.
 *
 * Order of checks (why: authenticate.ts): key header (-1002) -> key exists (-2015) -> signature
 * present (-1105, or -1024 for the JSON scheme) and valid (-1022) -> recvWindow (-1105 where
 * required, -1025) and timestamp (-1021) -> IP (-1023/-2017) -> key type and permission
 * (-2019/-1020/-1152). Timing reads only the signed query and body, never a `recvWindow` header
 * (timing.ts).
 */
import { stripSignature, verifyHmacRequest } from '../../exchange/signing/query-signing.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { SandboxConfig } from '../config/schema.ts';
import { venueErrors } from '../http/error-codes.ts';
import { collectParams, type BodyKind } from '../http/raw-params.ts';
import type { HeaderMap } from '../http/route-types.ts';
import { header } from './headers.ts';
import { authorise, findKey, type KeyedCaller } from './key-check.ts';
import { checkTiming } from './timing.ts';

export interface SignedRequest {
  def: AnyEndpoint;
  rawQuery: string;
  rawBody: string;
  bodyKind: BodyKind;
  headers: HeaderMap;
  /** Every parameter, path ones included (the pipeline's view); timing re-reads the signed raw text instead. */
  values: Readonly<Record<string, unknown>>;
  ip: string;
  /** Server time for the timestamp check. */
  now: number;
}

type KeyedRequest = Pick<SignedRequest, 'def' | 'headers' | 'ip'>;

/** The key named by the key header (-1002 without one, -2015 when unknown or disabled). */
function keyFromHeader(req: KeyedRequest, accounts: AccountRegistry, config: SandboxConfig): KeyedCaller {
  const name = config.variants.apiKeyHeader;
  const apiKey = header(req.headers, name);
  if (apiKey === undefined) throw venueErrors.missingKeyHeader(name);
  return findKey(accounts, apiKey);
}

/** The key header alone (USER_STREAM, MARKET_DATA): nothing to verify, so straight to IP and permission. */
export function authenticateKey(req: KeyedRequest, accounts: AccountRegistry, config: SandboxConfig): KeyedCaller {
  const caller = keyFromHeader(req, accounts, config);
  authorise(caller.key, req.ip, req.def);
  return caller;
}

export function authenticateSigned(req: SignedRequest, accounts: AccountRegistry, config: SandboxConfig): KeyedCaller {
  const caller = keyFromHeader(req, accounts, config);
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
      // The query and body are what the signature covers (notes 2.1-2.2); path parameters and
      // headers are not, so they never reach the timing check (the timestamp header excepted).
      signedValues: collectParams({ rawQuery: req.rawQuery, rawBody: req.rawBody, bodyKind: req.bodyKind }),
      headers: req.headers,
      now: req.now,
      json,
      timestampOptional: config.variants.fiatTimestampOptional,
      recvWindowTerms: req.def.recvWindow,
      recvWindowOptional: config.variants.recvWindowOptional,
    },
    config.auth,
  );
  authorise(caller.key, req.ip, req.def);
  return caller;
}
