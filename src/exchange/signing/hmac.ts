/**
 * HMAC-SHA256 as every signing scheme of the venue uses it (spec 5.2, 5.4; protocol notes 2).
 *
 * Output is lower-case hex: the venue compares case-insensitively (spec 5.2.1), and the merchant
 * scheme needs lower case (notes 2.3).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lower-case hex HMAC-SHA256. A string message is hashed as its UTF-8 bytes. */
export function hmacSha256Hex(secret: string, message: string | Uint8Array): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Constant-time comparison of an expected lower-case hex digest with a candidate of any case.
 * Anything that is not 64 hex digits is rejected without comparing.
 */
export function hexSignaturesEqual(expectedLowerHex: string, candidate: string): boolean {
  const lowered = candidate.toLowerCase();
  if (!HEX_SHA256.test(lowered) || expectedLowerHex.length !== lowered.length) return false;
  return timingSafeEqual(Buffer.from(expectedLowerHex, 'latin1'), Buffer.from(lowered, 'latin1'));
}
