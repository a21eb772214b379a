/**
 * Parameters from the raw query string and raw body (spec 1.5-1.8, protocol notes 2.1).
 *
 * - Form text (`k=v&k=v`, query or `application/x-www-form-urlencoded` body): `+` is a space,
 *   `%XX` is decoded; empty segments (the stray `&&` of a third-party client) are skipped; a key
 *   without `=` has the empty value. A repeated key is joined with `,` (notes 2.1: `symbols=A&symbols=B`
 *   is a list); empty repeats are dropped. Keys repeated with values are reported (`repeated`):
 *   the pipeline refuses them unless the parameter is a list, so `newClientOrderId=a&newClientOrderId=b`
 *   is not read as the id "a,b" (issue 24). Bad percent-encoding is a 400.
 * - JSON body (content type `application/json`, or no content type and a body starting `{`):
 *   parsed losslessly (ids above 2^53 stay exact); it must be an object, nested at most
 *   MAX_JSON_DEPTH deep (checked before parsing: a body nested thousands deep overflowed the
 *   stack further on and answered 500), naming each of its keys once.
 * - Spec 1.8: a parameter in both the query and the body takes the query's value. Path
 *   parameters win over both. Empty values stay '' here: checkParams treats them as absent.
 */
import { parseJsonLossless } from '../../exchange/transport/lossless-json.ts';
import { venueErrors } from './error-codes.ts';

export type BodyKind = 'none' | 'form' | 'json';

export function bodyKindOf(rawBody: string, contentType: string | undefined): BodyKind {
  if (rawBody.length === 0) return 'none';
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('json')) return 'json';
  if (type === '' && rawBody.trimStart().startsWith('{')) return 'json';
  return 'form';
}

/**
 * Form text to name -> value; throws a VenueError for malformed percent-encoding. Keys sent more
 * than once with non-empty values are added to `repeated` when given.
 */
export function parseFormText(text: string, where: 'query string' | 'body', repeated?: Set<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const segment of text.split('&')) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const rawKey = eq < 0 ? segment : segment.slice(0, eq);
    const rawValue = eq < 0 ? '' : segment.slice(eq + 1);
    const key = decode(rawKey);
    if (key === undefined) throw venueErrors.badRequest(`the ${where} is not valid URL encoding near '${rawKey.slice(0, 40)}'`);
    const value = decode(rawValue);
    if (value === undefined) throw venueErrors.invalidParam(key, 'malformed percent-encoding');
    const prior = out.get(key);
    if (prior === undefined || prior === '') out.set(key, value);
    else if (value !== '') {
      out.set(key, `${prior},${value}`);
      repeated?.add(key);
    }
  }
  return out;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Deepest nesting of arrays and objects a JSON body may have (the venue's bodies nest 2-3 deep). */
export const MAX_JSON_DEPTH = 32;

/**
 * The nesting depth of JSON text, counted without parsing (brackets inside strings skipped),
 * stopping as soon as it passes `limit`. Malformed text is the parser's business.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * A key the top-level object of valid JSON text names twice (`{"a":1,"a":2}`), which JSON.parse
 * would silently read as its last value; undefined when none.
 */
export function repeatedTopLevelKey(text: string): string | undefined {
  const seen = new Set<string>();
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      if (depth === 1 && /^\s*:/.test(text.slice(end + 1, end + 64))) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (seen.has(key)) return key;
        seen.add(key);
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/** The JSON body as an object; bigint-sized numbers arrive as decimal strings. */
export function parseJsonBody(text: string): Record<string, unknown> {
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw venueErrors.badRequest(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = parseJsonLossless(text);
  } catch {
    throw venueErrors.badRequest('the request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw venueErrors.badRequest('the JSON body must be an object');
  // As for a form key sent twice: the signer signed both values, the handler would see one.
  const twice = repeatedTopLevelKey(text);
  if (twice !== undefined) throw venueErrors.invalidParam(twice, 'sent more than once in the JSON body');
  return parsed as Record<string, unknown>;
}

export interface RawInput {
  rawQuery: string;
  rawBody: string;
  bodyKind: BodyKind;
  pathParams?: Readonly<Record<string, string>>;
  /** Receives the keys the query or the form body repeated (see parseFormText). */
  repeated?: Set<string>;
}

/** Everything the caller sent, merged with the spec's precedence (path > query > body). */
export function collectParams(input: RawInput): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (input.bodyKind === 'json') Object.assign(values, parseJsonBody(input.rawBody));
  else if (input.bodyKind === 'form') for (const [k, v] of parseFormText(input.rawBody, 'body', input.repeated)) values[k] = v;
  for (const [k, v] of parseFormText(input.rawQuery, 'query string', input.repeated)) {
    // Spec 1.8: the query string wins, but an empty query value must not hide a body value.
    if (v !== '' || values[k] === undefined) values[k] = v;
  }
  Object.assign(values, input.pathParams ?? {});
  return values;
}
