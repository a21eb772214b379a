/**
 * The order of authentication checks in every scheme (authenticate.ts; issue 24 defects 3 and 6),
 * against a reference model, over generated requests: every key kind x signature x time x scheme,
 * with and without an unsigned `recvWindow` header (which must never change the verdict).
 * test/sandbox-auth-hardening.test.ts runs the same over HTTP; this runs many more cases in-process.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findEndpoint } from '../../exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import { hmacSha256Hex } from '../../exchange/signing/hmac.ts';
import { AccountRegistry } from '../accounts/registry.ts';
import { parseSandboxConfig } from '../config/load.ts';
import type { ApiKeyRecord } from '../contracts.ts';
import { bodyKindOf, collectParams } from '../http/raw-params.ts';
import { VenueError } from '../http/venue-error.ts';
import { authenticate } from './authenticate.ts';

const T = 1_736_942_400_000;
const TOL = 300_000;
const HOST = '127.0.0.1:9000';
const BASE = `http://${HOST}`;

const KINDS = ['full', 'readOnly', 'spot', 'wallet', 'fiat', 'otherIp', 'whitelistUnset', 'merchant', 'disabled', 'unknown'] as const;
type Kind = (typeof KINDS)[number];
const OPTIONS: Record<Exclude<Kind, 'unknown'>, Partial<ApiKeyRecord>> = {
  full: {},
  readOnly: { roles: [0] },
  spot: { roles: [2] },
  wallet: { roles: [4] },
  fiat: { roles: [5] },
  otherIp: { ipRestrict: true, ipList: ['203.0.113.7'] },
  whitelistUnset: { requiresWhitelist: true },
  merchant: { merchant: true },
  disabled: { enabled: false },
};
const SIGS = ['missing', 'garbage', 'otherSecret', 'valid'] as const;
type Sig = (typeof SIGS)[number];
const SCHEMES = ['query', 'form', 'json', 'keyOnly', 'v4', 'merchant'] as const;
type Scheme = (typeof SCHEMES)[number];

const config = parseSandboxConfig({ accounts: [] });

/** A fresh registry (and so a fresh replay guard) per case: each case is one first request. */
function registry(): AccountRegistry {
  const accounts = new AccountRegistry({ maxSubAccounts: 1 });
  const owner = accounts.createAccount({ email: 'order@example.com', createdAt: 0 });
  for (const [kind, over] of Object.entries(OPTIONS)) accounts.createKey({ accountId: owner.id, apiKey: `${kind}-key`, secret: `${kind}-secret`, createdAt: 0, ...over });
  return accounts;
}
const secretOf = (kind: Kind) => `${kind}-secret`;
const ep = (id: string) => findEndpoint(id) as AnyEndpoint;

interface Case {
  scheme: Scheme;
  kind: Kind;
  sig: Sig;
  stale: boolean;
  write: boolean;
  recvWindowHeader: boolean;
}

type Verdict = number | 'ok';

/** The reference: key -> signature -> timestamp/nonce -> IP -> key type and permission. */
function expected(c: Case): Verdict {
  const { kind } = c;
  if (c.scheme === 'keyOnly') {
    if (kind === 'unknown' || kind === 'disabled') return -2015;
    return authorisation(c, 'GET');
  }
  if (c.scheme === 'merchant') {
    if (c.sig === 'missing') return -1024;
    if (kind === 'unknown' || kind === 'disabled') return -1150;
    if (c.sig !== 'valid' || c.stale) return -1150;
    if (kind === 'whitelistUnset') return -1023;
    if (kind === 'otherIp') return -2017;
    return kind === 'merchant' ? 'ok' : -1150;
  }
  if (c.scheme === 'v4' && c.sig === 'missing') return -1024;
  if (kind === 'unknown' || kind === 'disabled') return -2015;
  if (c.sig === 'missing') return c.scheme === 'json' ? -1024 : -1105;
  if (c.sig !== 'valid') return -1022;
  if (c.stale) return -1021;
  return authorisation(c, c.write || c.scheme === 'json' ? 'POST' : 'GET');
}

function authorisation(c: Case, method: 'GET' | 'POST'): Verdict {
  if (c.kind === 'whitelistUnset') return -1023;
  if (c.kind === 'otherIp') return -2017;
  if (c.kind === 'merchant') return -2019;
  if (c.scheme === 'keyOnly' || (c.kind === 'readOnly' && method === 'GET')) return 'ok';
  if (c.kind === 'readOnly') return -1020;
  if (c.scheme === 'v4') return 'ok'; // ungrouped: any key with a role
  const area = c.scheme === 'json' ? 'fiat' : 'spot';
  if (c.kind === 'full' || c.kind === area) return 'ok';
  return -1152;
}

const signature = (c: Case, message: string): string | undefined =>
  c.sig === 'missing' ? undefined : c.sig === 'garbage' ? 'a'.repeat(64) : hmacSha256Hex(c.sig === 'otherSecret' ? 'another-secret' : secretOf(c.kind), message);

function run(c: Case): Verdict {
  const apiKey = `${c.kind}-key`;
  const headers: Record<string, string> = { host: HOST, ...(c.recvWindowHeader ? { recvwindow: '60000' } : {}) };
  let def: AnyEndpoint;
  let method = 'GET';
  let path: string;
  let rawQuery = '';
  let rawBody = '';
  const now = T;
  if (c.scheme === 'v4' || c.scheme === 'merchant') {
    const ts = now - (c.stale ? 2 * TOL : 0);
    if (c.scheme === 'v4') {
      def = ep(c.write ? 'legacyV4.validateField' : 'legacyV4.payoutOutletCategories');
      method = def.method;
      path = def.path.replace('/{id?}', '');
      rawBody = c.write ? '{"field_type":"mobile_number","mobile_number":"+639171234567","region":"PH"}' : '';
      const nonce = String(Math.floor(ts / 1000));
      const sig = signature(c, nonce + BASE + path + rawBody);
      Object.assign(headers, { 'access-key': apiKey, 'access-nonce': nonce, ...(sig === undefined ? {} : { 'access-signature': sig }) });
      if (c.write) headers['content-type'] = 'application/json';
    } else {
      def = ep('merchant.getInvoices');
      path = def.path;
      const sig = signature(c, String(ts) + BASE + path);
      Object.assign(headers, { 'x-merchant-key': apiKey, 'x-timestamp': String(ts), ...(sig === undefined ? {} : { 'x-merchant-sign': sig }) });
    }
  } else {
    headers['x-service-apikey'] = apiKey;
    const ts = now - (c.stale ? 10_000 : 0);
    if (c.scheme === 'keyOnly') {
      def = ep('userStream.startUserDataStream');
    } else if (c.scheme === 'json') {
      def = ep('fiat.historyV2');
      rawBody = '{"pageNum":"1","pageSize":"10"}';
      const sig = signature(c, rawBody);
      Object.assign(headers, { 'content-type': 'application/json', timestamp: String(ts), ...(sig === undefined ? {} : { signature: sig }) });
    } else {
      def = ep(c.write ? 'spot.newOrder' : 'spot.openOrders');
      const params = `${c.write ? 'symbol=BTCPHP&side=BUY&type=MARKET&quantity=1&' : ''}timestamp=${ts}`;
      const sig = signature(c, params);
      const text = sig === undefined ? params : `${params}&signature=${sig}`;
      if (c.scheme === 'form' && c.write) {
        rawBody = text;
        headers['content-type'] = 'application/x-www-form-urlencoded';
      } else rawQuery = text;
    }
    method = def.method;
    path = def.path;
  }
  const bodyKind = bodyKindOf(rawBody, headers['content-type']);
  const values = collectParams({ rawQuery, rawBody, bodyKind });
  try {
    authenticate({ def, method, path, rawQuery, rawBody, bodyKind, headers, values, ip: '127.0.0.1', now }, registry(), config);
    return 'ok';
  } catch (e) {
    if (e instanceof VenueError) return e.code;
    throw e;
  }
}

describe('authentication order in every scheme (issue 24 defects 3 and 6)', () => {
  it('property: every scheme answers as the reference, and an unsigned recvWindow header never changes that', () => {
    const cases = fc.record({
      scheme: fc.constantFrom(...SCHEMES),
      kind: fc.constantFrom(...KINDS),
      sig: fc.constantFrom(...SIGS),
      stale: fc.boolean(),
      write: fc.boolean(),
      recvWindowHeader: fc.boolean(),
    });
    fc.assert(
      fc.property(cases, (c) => {
        expect(run(c), JSON.stringify(c)).toBe(expected(c));
      }),
      { numRuns: 3000 },
    );
  });

  it('a read-only key with a garbage signature learns -1022, not -1020 (the probe of defect 6)', () => {
    const c: Case = { scheme: 'form', kind: 'readOnly', sig: 'garbage', stale: false, write: true, recvWindowHeader: false };
    expect(run(c)).toBe(-1022);
    expect(run({ ...c, sig: 'valid' })).toBe(-1020);
  });
});
