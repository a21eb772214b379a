import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from './hmac.ts';
import { legacyV4Message, signLegacyV4 } from './legacy-v4.ts';

describe('legacy v4', () => {
  const base = { apiKey: 'k', secret: 's', nowMs: 1_700_000_000_987, url: 'https://h/openapi/migration/v4/sellorder' };

  it('POST signs nonce + URL + compact JSON body; nonce is 10-digit seconds', () => {
    const body = JSON.stringify({ a: 1 });
    const h = signLegacyV4({ ...base, method: 'POST', body });
    expect(h['ACCESS-NONCE']).toBe('1700000000');
    expect(h['ACCESS-KEY']).toBe('k');
    expect(h['ACCESS-SIGNATURE']).toBe(hmacSha256Hex('s', `1700000000${base.url}{"a":1}`));
  });

  it('GET signs ? + unencoded query in place of the body', () => {
    expect(legacyV4Message('1', { method: 'GET', url: 'https://h/x', query: 'a=b@c' })).toBe('1https://h/x?a=b@c');
    expect(legacyV4Message('1', { method: 'get', url: 'https://h/x' })).toBe('1https://h/x');
    const h = signLegacyV4({ ...base, method: 'GET', query: 'id=1' });
    expect(h['ACCESS-SIGNATURE']).toBe(hmacSha256Hex('s', `1700000000${base.url}?id=1`));
  });
});
