import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../endpoints/index.ts';
import { normalizeParam } from '../params/normalize.ts';
import { ClientIdGenerator } from './client-ids.ts';

const NOW = Date.UTC(2026, 2, 16, 12, 0, 0);
const ORDER = { param: 'newClientOrderId', maxLength: 36, charset: 'token' } as const;

/** Client-id parameters of the catalog (spec 4.2, 4.3, 4.5, 4.8, 4.9, 4.11, notes 6). */
const CLIENT_ID_PARAMS = ['newClientOrderId', 'withdrawOrderId', 'client_transfer_id', 'clientTranId', 'clientRequestId', 'internalOrderId', 'external_transaction_id'];

describe('ClientIdGenerator', () => {
  it('is <prefix><session>-<n>: deterministic for a session, counting up in base36', () => {
    const ids = new ClientIdGenerator({ prefix: 'bot7', session: 'mabc1234xyz', now: NOW });
    expect([ids.next(ORDER), ids.next(ORDER)]).toEqual(['bot7mabc1234xyz-1', 'bot7mabc1234xyz-2']);
    for (let i = 0; i < 34; i++) ids.next(ORDER);
    expect(ids.next(ORDER)).toBe('bot7mabc1234xyz-11');
    expect(ids.issued).toBe(37);
  });

  it('makes the session from the start time and randomness, so two clients do not collide', () => {
    const a = new ClientIdGenerator({ now: NOW, random: () => 0 });
    const b = new ClientIdGenerator({ now: NOW, random: () => 0.99 });
    expect(a.session).toBe(`${NOW.toString(36)}000`);
    expect(a.session).not.toBe(b.session);
    expect(a.next(ORDER)).toBe(`hc${NOW.toString(36)}000-1`);
  });

  it('makes digits-only ids of at most 19 digits for "a number" parameters', () => {
    const ids = new ClientIdGenerator({ now: NOW, random: () => 0.5 });
    const id = ids.next({ param: 'external_transaction_id', maxLength: 19, charset: 'digits' });
    expect(id).toBe(`${Math.floor(NOW / 1000)}555000001`);
    expect(id).toMatch(/^[1-9]\d{18}$/);
  });

  it('refuses a prefix the venue might not take', () => {
    expect(() => new ClientIdGenerator({ prefix: 'has space', now: NOW })).toThrow(RangeError);
    expect(() => new ClientIdGenerator({ prefix: 'elevenchars', now: NOW })).toThrow(/0 to 10/);
    expect(() => new ClientIdGenerator({ prefix: '', now: NOW }).next(ORDER)).not.toThrow();
  });

  it('fits every write of the catalog that declares a client id, with the longest prefix', () => {
    const ids = new ClientIdGenerator({ prefix: 'abcdefghij', now: NOW });
    const withIds = allEndpoints.filter((e) => e.clientId !== undefined);
    expect(withIds.map((e) => e.id).sort()).toEqual([
      'account.createTransfer',
      'account.createTransferV4',
      'legacyV4.createSellOrder',
      'spot.cancelReplace',
      'spot.newOrder',
      'subAccount.subToMaster',
      'subAccount.universalTransfer',
      'wallet.withdraw',
    ]);
    for (const def of withIds) {
      const terms = def.clientId!;
      expect(def.idempotent, def.id).toBe(false);
      const param = def.params[terms.param];
      expect(param, `${def.id}.${terms.param}`).toBeDefined();
      expect(param!.required, `${def.id}.${terms.param} is optional`).toBe(false);
      const id = ids.next(terms);
      expect(id.length).toBeLessThanOrEqual(terms.maxLength);
      expect(normalizeParam(terms.param, param!, id), `${def.id}: ${id}`).toMatchObject({ ok: true, wire: id });
    }
  });

  it('covers every non-idempotent write with an optional client-id parameter (required ones come from the caller)', () => {
    for (const def of allEndpoints.filter((e) => !e.idempotent)) {
      const optional = CLIENT_ID_PARAMS.filter((name) => def.params[name] !== undefined && !def.params[name]!.required);
      if (optional.length > 0) expect(def.clientId?.param, def.id).toBe(optional[0]);
    }
  });
});
