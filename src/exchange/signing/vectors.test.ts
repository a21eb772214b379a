// Every official and derived vector of protocol notes section 3 reproduces exactly.
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from './hmac.ts';
import { encodeParams, signTotalParams } from './query-signing.ts';
import { signJsonBody } from './json-body.ts';
import { merchantTimestamp, signMerchant, unencodedForm } from './merchant.ts';

const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const ORDER = 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';

describe('protocol notes 3: official vectors', () => {
  it('examples 1 and 2: query string, or the same bytes as form body', () => {
    const sig = 'd7b09aa959094bafd1de10be3985651691fff6cc04b5cd94aea8cc1ca02e0ed8';
    expect(signTotalParams(SECRET, ORDER)).toBe(sig);
    expect(signTotalParams(SECRET, '', ORDER)).toBe(sig);
  });

  it('the order query is what encodeParams produces from its entries', () => {
    const entries: [string, string][] = ORDER.split('&').map((p) => p.split('=') as [string, string]);
    expect(encodeParams(entries)).toBe(ORDER);
  });

  it('example 3: mixed query and body, no separator', () => {
    const query = 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC';
    const body = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
    expect(signTotalParams(SECRET, query, body)).toBe('340037ed5366e650bd0e09e170db4a6ace0a9cba3e8af4e5c37ba2143fb84de0');
  });

  it('fiat JSON body with a query, signature as header', () => {
    const h = signJsonBody({ secret: SECRET, query: 'k1=v1&k2=v2', body: JSON.stringify({ key: 'value' }), timestampMs: 1538323200000 });
    expect(h).toEqual({ signature: 'ef230e573e76e304d4579ef7f777a7f236aec25b8881ccc9797bb91b186e24dd', timestamp: '1538323200000' });
  });

  it('older ETHBTC edition of the first example', () => {
    const q = ORDER.replace('BTCPHP', 'ETHBTC');
    expect(signTotalParams(SECRET, q)).toBe('5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6');
  });
});

describe('protocol notes 3: derived vectors', () => {
  it('trailing & and without it', () => {
    expect(signTotalParams(SECRET, 'type=spot&timestamp=1699458293874&')).toBe('a7c75a07680aed59ecc3da8ae9e458d04d75fa2c6b3d6f4625b9fae35c1126b2');
    expect(signTotalParams(SECRET, 'type=spot&timestamp=1699458293874')).toBe('ac8ecf555bf78ef0c0cbaf39c51c83f4325aa168a5ea7494d976065dbfbd62c7');
  });

  it('raw (encoded) and percent-decoded forms of one request', () => {
    const entries: [string, string][] = [
      ['account', 'PHP'],
      ['target_address', 'test@example.com'],
      ['amount', '1'],
      ['timestamp', '1538323200000'],
    ];
    const encoded = encodeParams(entries);
    expect(encoded).toBe('account=PHP&target_address=test%40example.com&amount=1&timestamp=1538323200000');
    expect(signTotalParams(SECRET, encoded)).toBe('6d1cffb618e771de87229a206b5542677064ce5d67f3b546854c52bc047714cb');
    expect(signTotalParams(SECRET, decodeURIComponent(encoded))).toBe('d33b09009072cffd19ef519056cb1bae74a08be72b01c3649d5879db4498b271');
  });

  it('merchant GET, timestamp in seconds', () => {
    const h = signMerchant({
      merchantKey: 'mk',
      secret: SECRET,
      timestamp: merchantTimestamp(1671158910123, 'seconds'),
      url: 'http://127.0.0.1/merchant-api/v1/get-invoices',
      query: 'invoice_id=1539174220746990336',
    });
    expect(h).toEqual({
      'X-Merchant-Key': 'mk',
      'X-Merchant-Sign': '7ab0024fe51ea17e670a91b7448d1f0f95a4295a5f53697936742c854ab2eb91',
      'X-Timestamp': '1671158910',
    });
  });

  it('merchant POST, timestamp in ms, unencoded form body, trace id', () => {
    const body = unencodedForm([
      ['amount', '100'],
      ['currency', 'PHP'],
      ['supported_payment_collectors', '["service_peso_wallet"]'],
      ['external_transaction_id', '1'],
      ['expires_at', '1w'],
    ]);
    const h = signMerchant({
      merchantKey: 'mk',
      secret: SECRET,
      timestamp: merchantTimestamp(1671158910000),
      url: 'http://127.0.0.1:8080/merchant-api/v1/invoices',
      body,
      traceId: 't-1',
    });
    expect(h['X-Merchant-Sign']).toBe('692c720bab3f49abee05ea17e32e819fcf74f26657d2c6a76fa8a50855b95dcd');
    expect(h['X-Timestamp']).toBe('1671158910000');
    expect(h['X-Trace-Id']).toBe('t-1');
  });

  it('fiat, JSON body only (nested object, compact)', () => {
    const body = JSON.stringify({
      internalOrderId: '1212323211',
      currency: 'PHP',
      amount: '50',
      channelName: 'SWIFTPAY_PESONET',
      channelSubject: 'gcash',
      extendInfo: { recipientName: 'sandy openapitest', recipientAccountNumber: '123456789' },
    });
    const h = signJsonBody({ secret: SECRET, body, timestampMs: 1 });
    expect(h.signature).toBe('27830e1eb9e1297ab75bcf84072ca6a1887189666be1038f9109661e3a2b9754');
  });

  it('hmacSha256Hex is lower-case hex', () => {
    expect(hmacSha256Hex(SECRET, ORDER)).toMatch(/^[0-9a-f]{64}$/);
  });
});
