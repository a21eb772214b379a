/**
 * Timing security of signed requests (spec 5.3): `timestamp` (ms) from the query, the body or a
 * `timestamp` header (notes 2.1 allows the header); optional `recvWindow` (default 5000, max 60000
 * or the endpoint's lower max, spec 4.9 asset transaction history "under 60000", else -1025 naming
 * it), required (-1105) where the endpoint's row says so (spec 4.3 crypto-accounts and the transfer
 * query) unless the `recvWindowOptional` variant accepts its absence (notes 2.5: the third-party
 * client sends none). Accepted when timestamp < serverTime + 1000 and serverTime - timestamp <=
 * recvWindow; else -1021. A JSON-body (fiat) call without any timestamp passes only under the
 * `fiatTimestampOptional` variant (protocol notes 2.2).
 *
 * `recvWindow` is read from the SIGNED query or body only (issue 24 defect 3). Notes 2.1 lets only
 * `signature` and `timestamp` travel as headers; a `recvWindow` header is outside the signature,
 * so anyone holding a captured request could add one and stretch its window to 60 s. Such a
 * header is ignored, and the -1021 answer says so for a caller who meant it.
 */
import type { RecvWindowTerms } from '../../exchange/endpoints/types.ts';
import { venueErrors } from '../http/error-codes.ts';
import type { HeaderMap } from '../http/route-types.ts';
import { VenueError } from '../http/venue-error.ts';
import { header } from './headers.ts';

export interface TimingRules {
  recvWindowDefault: number;
  recvWindowMax: number;
  futureToleranceMs: number;
}

export interface TimingInput {
  /** The parameters of the signed query and body only (not path parameters, not headers). */
  signedValues: Readonly<Record<string, unknown>>;
  headers: HeaderMap;
  /** Server time for the check (sandbox clock plus any clock-skew fault). */
  now: number;
  json: boolean;
  timestampOptional: boolean;
  /** The endpoint's own recvWindow terms (EndpointDef.recvWindow). */
  recvWindowTerms: RecvWindowTerms | undefined;
  /** Variant: a missing recvWindow is accepted even where the endpoint requires one. */
  recvWindowOptional: boolean;
}

const DIGITS = /^\d{1,16}$/;

function signed(values: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = values[name];
  return v !== undefined && v !== null && v !== '' ? String(v) : undefined;
}

export function checkTiming(input: TimingInput, rules: TimingRules): void {
  const rawWindow = signed(input.signedValues, 'recvWindow');
  const max = Math.min(rules.recvWindowMax, input.recvWindowTerms?.max ?? Infinity);
  let recvWindow = rules.recvWindowDefault;
  if (rawWindow === undefined) {
    if (input.recvWindowTerms?.required === true && !input.recvWindowOptional) throw venueErrors.missingParam('recvWindow');
  } else {
    const n = DIGITS.test(rawWindow.trim()) ? Number(rawWindow.trim()) : NaN;
    if (!(n >= 1 && n <= max)) throw venueErrors.invalidParam('recvWindow', `must be an integer from 1 to ${max}`);
    recvWindow = n;
  }
  const rawTimestamp = signed(input.signedValues, 'timestamp') ?? header(input.headers, 'timestamp');
  if (rawTimestamp === undefined) {
    if (input.json && input.timestampOptional) return;
    throw input.json ? venueErrors.missingHeader('timestamp') : venueErrors.missingParam('timestamp');
  }
  if (!DIGITS.test(rawTimestamp.trim())) throw venueErrors.invalidParam('timestamp', 'must be milliseconds since the epoch');
  const timestamp = Number(rawTimestamp.trim());
  const ok = timestamp < input.now + rules.futureToleranceMs && input.now - timestamp <= recvWindow;
  if (!ok) throw outsideWindow(rawWindow === undefined && header(input.headers, 'recvWindow') !== undefined);
}

function outsideWindow(unsignedWindowHeader: boolean): VenueError {
  const error = venueErrors.timestampOutside();
  if (!unsignedWindowHeader) return error;
  return new VenueError(error.code, `${error.message} Note: a 'recvWindow' header is not signed and does not count; send recvWindow in the signed query or body.`, error.httpStatus);
}
