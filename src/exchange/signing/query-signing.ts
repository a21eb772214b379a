/**
 * HMAC signing of TRADE and USER_DATA requests (spec 5.2, protocol notes 2.1).
 *
 * Client side: encode once, sign exactly the bytes sent, never a trailing `&`. Server side (the
 * sandbox): verify the raw bytes as received, then the percent-decoded form, because real callers
 * sign either form and some send a stray `&` before `signature` (notes 2.1).
 */
import { hexSignaturesEqual, hmacSha256Hex } from './hmac.ts';

/**
 * `k=v&k=v` with encodeURIComponent on every key and value (`@` becomes `%40`); no trailing `&`.
 * `'` is written `%27` as well: encodeURIComponent leaves it bare, but the WHATWG URL parser (undici
 * parses every URL it sends) re-encodes a bare `'` in a query, so the bytes sent would differ from
 * the bytes signed and the venue would answer -1022.
 */
export function encodeParams(entries: readonly (readonly [string, string])[]): string {
  return entries.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&');
}

function encodeComponent(text: string): string {
  return encodeURIComponent(text).replace(/'/g, '%27');
}

/** Spec 5.2.2: query string and body concatenated with no separator. */
export function totalParams(query: string, body = ''): string {
  return query + body;
}

/** Lower-case hex HMAC-SHA256 of totalParams. */
export function signTotalParams(secret: string, query: string, body = ''): string {
  return hmacSha256Hex(secret, totalParams(query, body));
}

const SIGNATURE_PAIR = /(^|&)signature=([^&]*)/;

/**
 * Cuts the first `signature=<value>` pair out of a raw query or form body, with the `&` before
 * it, or the `&` after it when it is the first pair (notes 2.1 step 1). So the stray-`&` wire
 * form `a=1&&signature=x` leaves `a=1&`, which is what such callers signed.
 */
export function stripSignature(raw: string): { rest: string; signature?: string } {
  const m = SIGNATURE_PAIR.exec(raw);
  if (m === null) return { rest: raw };
  const signature = m[2] ?? '';
  const start = m.index;
  let end = start + m[0].length;
  // First pair: drop the separator that follows instead of the (absent) one before.
  if (m[1] === '' && raw[end] === '&') end += 1;
  return { rest: raw.slice(0, start) + raw.slice(end), signature };
}

const HEX_DIGIT = /^[0-9a-fA-F]$/;

/** Decodes `%XX` escapes only, byte-wise; `+` and malformed escapes are kept as they are. */
export function percentDecodeBytes(raw: string): Buffer {
  const src = Buffer.from(raw, 'utf8');
  const out = Buffer.alloc(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const byte = src[i] as number;
    if (byte === 0x25 && isHex(src[i + 1]) && isHex(src[i + 2])) {
      out[n++] = Number.parseInt(String.fromCharCode(src[i + 1] as number, src[i + 2] as number), 16);
      i += 2;
    } else {
      out[n++] = byte;
    }
  }
  return out.subarray(0, n);
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && HEX_DIGIT.test(String.fromCharCode(byte));
}

export interface VerifyHmacRequestInput {
  secret: string;
  /** Query string as received, without `?`. */
  rawQuery: string;
  /** Body as received (form text, or JSON when `bodyKind` is `json`). */
  rawBody?: string | undefined;
  /** Value of a `signature` header, if any. */
  headerSignature?: string | undefined;
  /** A JSON body (fiat, notes 2.2) is signed as sent: nothing is cut out of it or decoded. */
  bodyKind?: 'form' | 'json';
}

/**
 * Notes 2.1 accept rules: signature from the query, else the body, else the header; HMAC over
 * query' + body' (signature cut out); accept on match, else retry with both parts percent-decoded.
 */
export function verifyHmacRequest(input: VerifyHmacRequestInput): boolean {
  const json = input.bodyKind === 'json';
  const query = stripSignature(input.rawQuery);
  const body = json ? { rest: input.rawBody ?? '' } : stripSignature(input.rawBody ?? '');
  const candidate = query.signature ?? body.signature ?? input.headerSignature;
  if (candidate === undefined) return false;
  const raw = hmacSha256Hex(input.secret, query.rest + body.rest);
  if (hexSignaturesEqual(raw, candidate)) return true;
  const decodedBody = json ? Buffer.from(body.rest, 'utf8') : percentDecodeBytes(body.rest);
  const decoded = Buffer.concat([percentDecodeBytes(query.rest), decodedBody]);
  return hexSignaturesEqual(hmacSha256Hex(input.secret, decoded), candidate);
}
