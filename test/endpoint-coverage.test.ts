/**
 * The endpoint table covers the whole contract: every route of spec section 4 and of the protocol
 * notes' extras has exactly one row. The route list lives in spec-routes.ts (copied from the spec);
 * when ../shared/spec is present, the spec file itself is read too, so a route added to the spec
 * without a table row fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allEndpoints, endpointsByArea } from '../src/exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../src/exchange/endpoints/index.ts';
import { checkParams } from '../src/exchange/params/check-params.ts';
import { PROTOCOL_NOTES_EXTRA_ROUTES, SPEC_SECTION_4_ROUTES } from './spec-routes.ts';

const SPEC_FILE = new URL('../../shared/spec/exchange-api.md', import.meta.url);

const normalize = (route: string) => route.replace(/\{(\w+)\??\}/g, '{$1}');
const tableRoutes = new Set(allEndpoints.map((e) => normalize(`${e.method} ${e.path}`)));

function routesInSpecFile(text: string): string[] {
  const section = text.slice(text.indexOf('## 4. Endpoints'), text.indexOf('## 5. Authentication'));
  return [...section.matchAll(/^\| (GET|POST|PUT|DELETE) \/?([\w/{}.-]+)/gm)].map((m) => `${m[1]} /${m[2]}`);
}

describe('endpoint table coverage', () => {
  it.each([...SPEC_SECTION_4_ROUTES, ...PROTOCOL_NOTES_EXTRA_ROUTES])('has a row for %s', (route) => {
    expect(tableRoutes.has(normalize(route)), `no endpoint table entry for ${route}`).toBe(true);
  });

  it('has no two rows for one route and unique ids', () => {
    const routes = allEndpoints.map((e) => normalize(`${e.method} ${e.path}`));
    expect(new Set(routes).size).toBe(routes.length);
    const ids = allEndpoints.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('matches the spec file itself when ../shared is present', (ctx) => {
    if (!existsSync(SPEC_FILE)) {
      ctx.skip(true, '../shared/spec/exchange-api.md is absent: checked against the copied route list only');
      return;
    }
    const routes = routesInSpecFile(readFileSync(SPEC_FILE, 'utf8'));
    expect(routes.length).toBeGreaterThanOrEqual(70);
    const missing = routes.filter((r) => !tableRoutes.has(normalize(r)));
    expect(missing, `spec routes without a table row: ${missing.join(', ')}`).toEqual([]);
  });

  it('never marks a write that moves money or orders as safe to resend', () => {
    const writes = [
      'spot.newOrder', 'spot.cancelOrder', 'spot.cancelOpenOrders', 'spot.cancelReplace', 'wallet.withdraw',
      'account.createTransfer', 'account.createTransferV4', 'paymentRequest.createPaymentRequest', 'convert.acceptQuote',
      'fiat.cashOut', 'subAccount.create', 'subAccount.universalTransfer', 'subAccount.subToMaster',
      'subAccount.collectFromSubAccount', 'merchant.createInvoice', 'merchant.cancelInvoice', 'legacyV4.createSellOrder',
    ];
    for (const id of writes) {
      const e = allEndpoints.find((x) => x.id === id);
      expect(e, `${id} exists`).toBeDefined();
      expect(e!.idempotent, `${id} must never be resent`).toBe(false);
    }
  });

  it('declares a consistent row for every endpoint', () => {
    for (const e of allEndpoints) {
      expect(e.id, e.id).toBe(`${e.area}.${e.name}`);
      expect(e.path.startsWith('/'), `${e.id} path`).toBe(true);
      if (e.method === 'GET') expect(e.idempotent, `${e.id}: GET is idempotent`).toBe(true);
      for (const name of e.path.match(/\{(\w+)\??\}/g) ?? []) {
        const param = name.replace(/[{}?]/g, '');
        expect(e.params[param]?.options.inPath, `${e.id}: path parameter ${param} declared inPath`).toBe(true);
      }
    }
  });
});

/**
 * What every row must hold, checked here once for all areas (each area's own test keeps what is
 * particular to it: its security, weights, encodings, rules).
 */
describe('every endpoint row', () => {
  const keyed = Object.values(endpointsByArea).flatMap((area) => Object.entries(area) as [string, AnyEndpoint][]);

  it.each(keyed)('%s: named by its key in its area', (key, e) => {
    expect(e.name).toBe(key);
  });

  it.each(keyed)('%s: example response decodes with its codec', (_key, e) => {
    const result = e.response.safeParse(e.example.response);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });

  it.each(keyed)('%s: example params pass their declarations and rules', (_key, e) => {
    expect(checkParams(e.params, e.rules, e.example.params).violations).toEqual([]);
  });
});
