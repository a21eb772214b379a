/**
 * Authentication of an invoice callback (spec 6.1 item 2): the header `Authorization` is required
 * and reads `Token <MERCHANT_APIKEY>`, the merchant API key the invoice was created with. That key
 * is the only credential the spec gives a callback (no signature over the body, unlike the
 * requests of spec 5.4), so a callback is authentic when its token is one of the merchant keys
 * configured for the receiver. Compared in constant time, so the answer's timing tells a forger
 * nothing about how much of a guess was right.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export type AuthResult = { ok: true } | { ok: false; reason: string };

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function checkCallbackAuth(header: string | string[] | undefined, merchantKeys: readonly string[]): AuthResult {
  if (header === undefined || header === '') return { ok: false, reason: 'no Authorization header (spec 6.1: Token <merchant key>)' };
  if (Array.isArray(header)) return { ok: false, reason: 'more than one Authorization header' };
  const m = /^Token (\S+)$/.exec(header.trim());
  if (!m) return { ok: false, reason: 'Authorization is not of the form Token <merchant key>' };
  // Equal-length digests: timingSafeEqual needs equal lengths, and the key's length stays hidden too.
  const given = digest(m[1] as string);
  let match = false;
  for (const key of merchantKeys) match = timingSafeEqual(given, digest(key)) || match;
  return match ? { ok: true } : { ok: false, reason: 'the token is not a configured merchant key' };
}
