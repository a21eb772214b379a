/** callback-auth.ts: spec 6.1's `Authorization: Token <merchant key>`, and nothing else, authenticates. */
import { describe, expect, it } from 'vitest';
import { checkCallbackAuth } from './callback-auth.ts';

const KEY = 'merchantKey0123456789';

describe('checkCallbackAuth', () => {
  it('accepts the token of a configured key', () => {
    expect(checkCallbackAuth(`Token ${KEY}`, [KEY])).toEqual({ ok: true });
    expect(checkCallbackAuth(`Token ${KEY}`, ['other', KEY])).toEqual({ ok: true });
  });

  it.each([
    [undefined, /no Authorization header/],
    ['', /no Authorization header/],
    [[`Token ${KEY}`, `Token ${KEY}`], /more than one/],
    [KEY, /not of the form Token/],
    [`Bearer ${KEY}`, /not of the form Token/],
    [`token ${KEY}`, /not of the form Token/],
    [`Token ${KEY} extra`, /not of the form Token/],
    [`Token ${KEY}0`, /not a configured merchant key/],
    [`Token ${KEY.slice(1)}`, /not a configured merchant key/],
  ])('refuses %j', (header, reason) => {
    const r = checkCallbackAuth(header, [KEY]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(reason);
  });

  it('refuses everything when no key is configured', () => {
    expect(checkCallbackAuth(`Token ${KEY}`, []).ok).toBe(false);
  });
});
