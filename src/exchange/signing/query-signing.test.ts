import { describe, expect, it } from 'vitest';
import { encodeParams, percentDecodeBytes, signTotalParams, stripSignature, verifyHmacRequest } from './query-signing.ts';

const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const ORDER = 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
const ORDER_SIG = 'd7b09aa959094bafd1de10be3985651691fff6cc04b5cd94aea8cc1ca02e0ed8';

describe('encodeParams', () => {
  it('encodes keys and values once, @ as %40, no trailing &', () => {
    expect(encodeParams([['email', 'a+b@x.com'], ['note', 'a b&c=d'], ['k y', 'é']])).toBe(
      'email=a%2Bb%40x.com&note=a%20b%26c%3Dd&k%20y=%C3%A9',
    );
    expect(encodeParams([])).toBe('');
  });

  it("writes ' as %27, so the URL parser sends the very bytes that were signed", () => {
    // Every printable ASCII character: undici parses the URL (WHATWG), which re-encodes a bare '.
    const all = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    const text = encodeParams([['v', all], ['email', "o'brien@example.com"]]);
    expect(text).toContain('o%27brien%40example.com');
    expect(new URL(`http://127.0.0.1/p?${text}`).search).toBe(`?${text}`);
  });
});

describe('stripSignature', () => {
  it('cuts the pair with the & before it', () => {
    expect(stripSignature('a=1&signature=abc&b=2')).toEqual({ rest: 'a=1&b=2', signature: 'abc' });
    expect(stripSignature('a=1&signature=abc')).toEqual({ rest: 'a=1', signature: 'abc' });
  });
  it('cuts the & after it when first, or nothing when alone', () => {
    expect(stripSignature('signature=abc&a=1')).toEqual({ rest: 'a=1', signature: 'abc' });
    expect(stripSignature('signature=abc')).toEqual({ rest: '', signature: 'abc' });
  });
  it('leaves the stray & of the third-party client in place', () => {
    expect(stripSignature('type=spot&timestamp=1699458293874&&signature=ff')).toEqual({
      rest: 'type=spot&timestamp=1699458293874&',
      signature: 'ff',
    });
  });
  it('returns no signature when there is none (and ignores look-alike keys)', () => {
    expect(stripSignature('a=1&xsignature=2')).toEqual({ rest: 'a=1&xsignature=2' });
    expect(stripSignature('')).toEqual({ rest: '' });
  });
});

describe('percentDecodeBytes', () => {
  it('decodes %XX only, keeps + and malformed escapes', () => {
    expect(percentDecodeBytes('a%40b+c%2x%').toString('utf8')).toBe('a@b+c%2x%');
    expect(percentDecodeBytes('%C3%A9%e2%82%ac').toString('utf8')).toBe('é€');
  });
});

describe('verifyHmacRequest', () => {
  it('accepts the official query and form-body examples', () => {
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: `${ORDER}&signature=${ORDER_SIG}` })).toBe(true);
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: '', rawBody: `${ORDER}&signature=${ORDER_SIG}` })).toBe(true);
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: `signature=${ORDER_SIG}&${ORDER}` })).toBe(true);
  });

  it('accepts example 3 (mixed) with the signature in the body', () => {
    const q = 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC';
    const b = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=340037ed5366e650bd0e09e170db4a6ace0a9cba3e8af4e5c37ba2143fb84de0';
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: q, rawBody: b })).toBe(true);
  });

  it('accepts the stray && signature wire form', () => {
    const wire = 'type=spot&timestamp=1699458293874&&signature=a7c75a07680aed59ecc3da8ae9e458d04d75fa2c6b3d6f4625b9fae35c1126b2';
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: wire })).toBe(true);
  });

  it('accepts an encoded request signed in its percent-decoded form, and in its raw form', () => {
    const encoded = encodeParams([['account', 'PHP'], ['target_address', 'test@example.com'], ['amount', '1'], ['timestamp', '1538323200000']]);
    const decodedSig = 'd33b09009072cffd19ef519056cb1bae74a08be72b01c3649d5879db4498b271';
    const rawSig = '6d1cffb618e771de87229a206b5542677064ce5d67f3b546854c52bc047714cb';
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: `${encoded}&signature=${decodedSig}` })).toBe(true);
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: '', rawBody: `${encoded}&signature=${rawSig}` })).toBe(true);
  });

  it('accepts the signature in a header, in any letter case', () => {
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: ORDER, headerSignature: ORDER_SIG.toUpperCase() })).toBe(true);
  });

  it('verifies a JSON body as sent, signature in the header', () => {
    const ok = { secret: SECRET, rawQuery: 'k1=v1&k2=v2', rawBody: '{"key":"value"}', bodyKind: 'json' as const };
    const sig = 'ef230e573e76e304d4579ef7f777a7f236aec25b8881ccc9797bb91b186e24dd';
    expect(verifyHmacRequest({ ...ok, headerSignature: sig })).toBe(true);
    expect(verifyHmacRequest({ ...ok, rawBody: '{"key":"valuf"}', headerSignature: sig })).toBe(false);
  });

  it('rejects one changed byte, a missing signature, a wrong secret and non-hex', () => {
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: `${ORDER.replace('quantity=1', 'quantity=2')}&signature=${ORDER_SIG}` })).toBe(false);
    const flipped = ORDER_SIG.slice(0, -1) + (ORDER_SIG.endsWith('8') ? '9' : '8');
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: `${ORDER}&signature=${flipped}` })).toBe(false);
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: ORDER })).toBe(false);
    expect(verifyHmacRequest({ secret: `${SECRET}x`, rawQuery: `${ORDER}&signature=${ORDER_SIG}` })).toBe(false);
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: `${ORDER}&signature=zz` })).toBe(false);
  });

  it('round-trips whatever the client signs', () => {
    const q = encodeParams([['symbol', 'BTCPHP'], ['email', 'a@b.c'], ['timestamp', '1']]);
    const sig = signTotalParams(SECRET, q, 'x=1');
    expect(verifyHmacRequest({ secret: SECRET, rawQuery: q, rawBody: `x=1&signature=${sig}` })).toBe(true);
  });
});
