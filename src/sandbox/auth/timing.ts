/**
 * Timing security of signed requests (spec 5.3): `timestamp` (ms) from the query, the body or a
 * `timestamp` header; optional `recvWindow` (default 5000, max 60000 or the endpoint's lower max,
 * spec 4.9 asset transaction history "under 60000", else -1025 naming it), required (-1105) where
 * the endpoint's row says so (spec 4.3 crypto-accounts and the transfer query) unless the
 * `recvWindowOptional` variant accepts its absence (notes 2.5: the third-party client sends none).
 * Accepted when timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow; else
 * -1021. A JSON-body (fiat) call without any timestamp passes only under the
 * `fiatTimestampOptional` variant (protocol notes 2.2).
 */
import type { RecvWindowTerms } from '../../exchange/endpoints/types.ts';
import { venueErrors } from '../http/error-codes.ts';
import type { HeaderMap } from '../http/route-types.ts';
import { header } from './headers.ts';

export interface TimingRules {
  recvWindowDefault: number;
  recvWindowMax: number;
  futureToleranceMs: number;
}

export interface TimingInput {
  values: Readonly<Record<string, unknown>>;
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

function pick(values: Readonly<Record<string, unknown>>, headers: HeaderMap, name: string): string | undefined {
  const v = values[name];
  if (v !== undefined && v !== null && v !== '') return String(v);
  return header(headers, name);
}

export function checkTiming(input: TimingInput, rules: TimingRules): void {
  const rawWindow = pick(input.values, input.headers, 'recvWindow');
  const max = Math.min(rules.recvWindowMax, input.recvWindowTerms?.max ?? Infinity);
  let recvWindow = rules.recvWindowDefault;
  if (rawWindow === undefined) {
    if (input.recvWindowTerms?.required === true && !input.recvWindowOptional) throw venueErrors.missingParam('recvWindow');
  } else {
    const n = DIGITS.test(rawWindow.trim()) ? Number(rawWindow.trim()) : NaN;
    if (!(n >= 1 && n <= max)) throw venueErrors.invalidParam('recvWindow', `must be an integer from 1 to ${max}`);
    recvWindow = n;
  }
  const rawTimestamp = pick(input.values, input.headers, 'timestamp');
  if (rawTimestamp === undefined) {
    if (input.json && input.timestampOptional) return;
    throw input.json ? venueErrors.missingHeader('timestamp') : venueErrors.missingParam('timestamp');
  }
  if (!DIGITS.test(rawTimestamp.trim())) throw venueErrors.invalidParam('timestamp', 'must be milliseconds since the epoch');
  const timestamp = Number(rawTimestamp.trim());
  const ok = timestamp < input.now + rules.futureToleranceMs && input.now - timestamp <= recvWindow;
  if (!ok) throw venueErrors.timestampOutside();
}
