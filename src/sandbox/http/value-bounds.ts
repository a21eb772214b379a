/**
 * Bounds the parameter checker of the endpoint table does not hold, applied to every route (issue
 * 24: what the sandbox accepts it must be able to store and load again; spec 7.3 -1025 naming
 * the parameter for each refusal):
 *
 * - a key sent more than once (query or form body) is refused unless the parameter is a list
 *   (notes 2.1: `symbols=A&symbols=B`; LIST parameters and the comma lists below); joined, `newClientOrderId=a&newClientOrderId=b` became the
 *   id "a,b";
 * - a JSON parameter sent as text (fiat `extendInfo` in a form body) nests at most MAX_JSON_DEPTH;
 * - every DECIMAL is within the request amount bound shared with the stored records
 *   (persistence/bounds.ts: at most 20 digits before the point and 18 after);
 * - text has a length limit: the spec's where it gives one (spec 8.13: the endpoint table's
 *   `maxLength` and client-id terms, e.g. withdrawOrderId 30), 254 for e-mail addresses (RFC 5321's
 *   path limit), the order client id's 36 wherever it is sent, 100 for a merchant's
 *   external_transaction_id (as client_transfer_id), and TEXT_LIMIT for other free text; a JSON
 *   parameter (fiat `extendInfo`) JSON_TEXT_LIMIT serialised.
 */
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import type { ParamShape } from '../../exchange/params/dsl.ts';
import { isAbsent } from '../../exchange/params/normalize.ts';
import { requestAmountProblem } from '../persistence/bounds.ts';
import { venueErrors } from './error-codes.ts';
import { jsonDepth, MAX_JSON_DEPTH } from './raw-params.ts';

/** Free text of no published limit (messages, names, addresses). */
export const TEXT_LIMIT = 1000;

/** A JSON parameter (fiat `extendInfo`), serialised. */
export const JSON_TEXT_LIMIT = 4 * TEXT_LIMIT;

/** RFC 5321: a forward path is at most 256 octets, the address inside it 254. */
export const EMAIL_LIMIT = 254;

/** Limits by parameter name, on every endpoint that takes it. */
const NAMED_LIMITS: Readonly<Record<string, number>> = {
  email: EMAIL_LIMIT,
  fromEmail: EMAIL_LIMIT,
  toEmail: EMAIL_LIMIT,
  sender_email: EMAIL_LIMIT,
  // "typically an email" (spec 4.3).
  payer_contact_info: EMAIL_LIMIT,
  newClientOrderId: 36,
  external_transaction_id: 100,
};

/**
 * Text parameters the table declares as comma lists (exchangeInfo `symbols`, wallet `statuses`,
 * sub-account `ipAddress`): repeated keys join into one, as for LIST parameters (notes 2.1).
 */
const COMMA_LISTS: ReadonlySet<string> = new Set(['symbols', 'statuses', 'ipAddress']);

/** May `name` be sent more than once on `def`? */
export function mayRepeat(def: AnyEndpoint, name: string): boolean {
  const spec = (def.params as ParamShape)[name];
  return spec !== undefined && (spec.kind === 'LIST' || COMMA_LISTS.has(name));
}

/** Before the parameter check: repeated keys and deep JSON text. */
export function checkRawValues(def: AnyEndpoint, values: Readonly<Record<string, unknown>>, repeated: ReadonlySet<string>): void {
  for (const name of repeated) {
    if (mayRepeat(def, name)) continue;
    throw venueErrors.invalidParam(name, 'sent more than once; send it once (only list parameters may repeat)');
  }
  for (const [name, spec] of Object.entries(def.params as ParamShape)) {
    const value = values[name];
    if (spec.kind === 'JSON' && typeof value === 'string' && jsonDepth(value) > MAX_JSON_DEPTH) {
      throw venueErrors.invalidParam(name, `nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
  }
}

/** The longest text `name` may carry on `def`. */
export function textLimit(def: AnyEndpoint, name: string): number {
  const declared = (def.params as ParamShape)[name]?.options.maxLength;
  const clientId = def.clientId?.param === name ? def.clientId.maxLength : undefined;
  return Math.min(declared ?? TEXT_LIMIT, clientId ?? TEXT_LIMIT, NAMED_LIMITS[name] ?? TEXT_LIMIT);
}

/** After the parameter check (values normalised): amounts and text lengths. */
export function checkValueBounds(def: AnyEndpoint, values: Readonly<Record<string, unknown>>): void {
  for (const [name, spec] of Object.entries(def.params as ParamShape)) {
    const value = values[name];
    if (isAbsent(value)) continue;
    if (spec.kind === 'DECIMAL') {
      const problem = requestAmountProblem(String(value));
      if (problem !== undefined) throw venueErrors.invalidParam(name, problem);
    } else if (spec.kind === 'JSON') {
      // Kept with the record it came with (fiat extendInfo: a few recipient fields).
      const size = JSON.stringify(value)?.length ?? 0;
      if (size > JSON_TEXT_LIMIT) throw venueErrors.invalidParam(name, `longer than ${JSON_TEXT_LIMIT} characters as JSON`);
    } else if (spec.kind === 'STRING' || spec.kind === 'LIST') {
      const limit = textLimit(def, name);
      const texts = Array.isArray(value) ? (value as unknown[]).map(String) : [String(value)];
      if (texts.some((t) => t.length > limit)) throw venueErrors.invalidParam(name, `longer than ${limit} characters`);
    }
  }
}
