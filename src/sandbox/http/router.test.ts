import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../../exchange/endpoints/index.ts';
import { EndpointRouter } from './router.ts';

const router = new EndpointRouter();

describe('EndpointRouter', () => {
  it('finds every endpoint of the table by its own method and path', () => {
    for (const def of allEndpoints) {
      const path = def.path.replace(/\{(\w+)\?\}/g, '$1-value').replace(/\{(\w+)\}/g, '$1-value');
      const m = router.match(def.method, path);
      expect(m.kind === 'found' && m.def.id).toBe(def.id);
    }
  });

  it('reads required and optional path parameters', () => {
    expect(router.match('GET', '/openapi/transfer/v3/transfers/abc%20d')).toMatchObject({ kind: 'found', pathParams: { id: 'abc d' } });
    expect(router.match('GET', '/openapi/transfer/v3/transfers')).toMatchObject({ kind: 'found', pathParams: {} });
    expect(router.match('GET', '/openapi/migration/v4/sellorder/42')).toMatchObject({ kind: 'found', pathParams: { sell_order_id: '42' } });
  });

  it('ignores a trailing slash, reports other methods, and misses unknown paths', () => {
    expect(router.match('GET', '/openapi/v1/ping/').kind).toBe('found');
    expect(router.match('PATCH', '/openapi/v1/order')).toEqual({ kind: 'wrong-method', allowed: ['POST', 'GET', 'DELETE'] });
    expect(router.match('GET', '/openapi/v1/nope')).toEqual({ kind: 'none' });
  });
});
