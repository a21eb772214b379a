import { describe, expect, it } from 'vitest';
import { findRoute } from '../../exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import { signLegacyV4 } from '../../exchange/signing/legacy-v4.ts';
import { VenueError } from '../http/venue-error.ts';
import { authenticateLegacyV4 } from './legacy-v4-auth.ts';
import { authenticateMerchant, timestampMs } from './merchant-auth.ts';
import { VECTOR_KEY, VECTOR_SECRET, vectorSetup } from './test-support.ts';

const codeOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (e instanceof VenueError) return e.code;
    throw e;
  }
};

const GET_SIGN = '7ab0024fe51ea17e670a91b7448d1f0f95a4295a5f53697936742c854ab2eb91';
const POST_SIGN = '692c720bab3f49abee05ea17e32e819fcf74f26657d2c6a76fa8a50855b95dcd';

describe('merchant authentication (spec 5.4, notes 2.3 vectors)', () => {
  it('accepts the GET vector (seconds) through the configured public URL', () => {
    const { accounts, config } = vectorSetup({ publicUrl: 'http://127.0.0.1' }, { merchant: true });
    const req = {
      method: 'GET',
      path: '/merchant-api/v1/get-invoices',
      rawQuery: 'invoice_id=1539174220746990336',
      rawBody: '',
      headers: { 'x-merchant-key': VECTOR_KEY, 'x-merchant-sign': GET_SIGN, 'x-timestamp': '1671158910', host: '127.0.0.1:5555' },
      ip: '127.0.0.1',
      now: 1671158910000,
    };
    expect(codeOf(() => authenticateMerchant(req, accounts, config))).toBeUndefined();
    expect(codeOf(() => authenticateMerchant({ ...req, rawQuery: 'invoice_id=1539174220746990337' }, accounts, config))).toBe(-1150);
    expect(codeOf(() => authenticateMerchant({ ...req, now: 1671158910000 + 301_000 }, accounts, config))).toBe(-1150);
    expect(codeOf(() => authenticateMerchant({ ...req, headers: { ...req.headers, 'x-timestamp': '' } }, accounts, config))).toBe(-1024);
  });

  it('accepts the POST vector (ms, form body) through the Host header, raw or percent-encoded', () => {
    const { accounts, config } = vectorSetup({}, { merchant: true });
    const body = 'amount=100&currency=PHP&supported_payment_collectors=["service_peso_wallet"]&external_transaction_id=1&expires_at=1w';
    const req = {
      method: 'POST',
      path: '/merchant-api/v1/invoices',
      rawQuery: '',
      rawBody: body,
      headers: { 'x-merchant-key': VECTOR_KEY, 'x-merchant-sign': POST_SIGN, 'x-timestamp': '1671158910000', host: '127.0.0.1:8080' },
      ip: '127.0.0.1',
      now: 1671158910000,
    };
    expect(codeOf(() => authenticateMerchant(req, accounts, config))).toBeUndefined();
    const encoded = body.replace('["service_peso_wallet"]', '%5B%22service_peso_wallet%22%5D');
    expect(codeOf(() => authenticateMerchant({ ...req, rawBody: encoded }, accounts, config))).toBeUndefined();
  });

  it('refuses an exchange key on merchant routes', () => {
    const { accounts, config } = vectorSetup();
    const req = { method: 'GET', path: '/x', rawQuery: '', rawBody: '', headers: { 'x-merchant-key': VECTOR_KEY, 'x-merchant-sign': GET_SIGN, 'x-timestamp': '1671158910' }, ip: '1', now: 1671158910000 };
    expect(codeOf(() => authenticateMerchant(req, accounts, config))).toBe(-1150);
  });

  it('reads seconds and milliseconds per the configured units', () => {
    expect(timestampMs('1671158910', ['ms', 'seconds'])).toBe(1671158910000);
    expect(timestampMs('1671158910000', ['ms', 'seconds'])).toBe(1671158910000);
    expect(timestampMs('1671158910', ['ms'])).toBeUndefined();
    expect(timestampMs('abc', ['ms'])).toBeUndefined();
  });
});

describe('legacy v4 authentication (notes 2.4)', () => {
  it('accepts what the client signs and refuses a changed body', () => {
    const { accounts, config } = vectorSetup();
    const now = 1671158910000;
    const body = '{"payment_outlet":"x"}';
    const headers = signLegacyV4({ apiKey: VECTOR_KEY, secret: VECTOR_SECRET, nowMs: now, url: 'http://127.0.0.1:9000/openapi/migration/v4/sellorder', method: 'POST', body });
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const def = findRoute('POST', '/openapi/migration/v4/sellorder') as AnyEndpoint;
    const req = { def, method: 'POST', path: '/openapi/migration/v4/sellorder', rawQuery: '', rawBody: body, headers: { ...lower, host: '127.0.0.1:9000' }, ip: '127.0.0.1', now };
    expect(codeOf(() => authenticateLegacyV4(req, accounts, config))).toBeUndefined();
    expect(codeOf(() => authenticateLegacyV4({ ...req, rawBody: '{"payment_outlet":"y"}' }, accounts, config))).toBe(-1022);
    expect(codeOf(() => authenticateLegacyV4({ ...req, now: now + 3_600_000 }, accounts, config))).toBe(-1021);
  });
});
