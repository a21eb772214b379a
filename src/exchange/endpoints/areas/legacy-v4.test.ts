import { describe, expect, it } from 'vitest';
import { checkParams } from '../../params/check-params.ts';
import { chargesFor } from '../../rate/weights.ts';
import type { AnyEndpoint } from '../types.ts';
import { createSellOrder, getSellOrder, legacyV4Endpoints, payoutOutletCategories, payoutOutlets, validateField } from './legacy-v4.ts';

const entries = Object.entries(legacyV4Endpoints) as [string, AnyEndpoint][];

describe('legacy v4 endpoints (spec 4.11)', () => {
  it.each(entries)('%s is keyed, named, LEGACY_V4-signed, weight 1, discouraged', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`legacyV4.${key}`);
    expect(e.area).toBe('legacyV4');
    expect(e.security).toBe('LEGACY_V4');
    expect(e.path.startsWith('/openapi/migration/v4/')).toBe(true);
    expect(chargesFor(e, {}, 'spec')).toEqual([{ pool: 'IP', weight: 1 }]);
    expect(e.encoding).toBe(e.method === 'GET' ? 'query' : 'json');
    expect(e.summary).toMatch(/legacy/);
  });

  it('only create-sellorder is a write', () => {
    expect(entries.filter(([, e]) => !e.idempotent).map(([k]) => k)).toEqual(['createSellOrder']);
  });

  it('keeps unknown members and rejects bodies that are not JSON objects', () => {
    expect(createSellOrder.response.parse(createSellOrder.example.response)).toEqual(createSellOrder.example.response);
    for (const body of ['ok', 1, null, true]) {
      const result = createSellOrder.response.safeParse(body);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual([]);
    }
    expect(createSellOrder.response.safeParse([]).success).toBe(false);
    expect(payoutOutlets.response.safeParse([{ id: 'x' }]).success).toBe(true);
    expect(payoutOutlets.response.safeParse('x').success).toBe(false);
  });

  it('path parameters: sell_order_id required, outlet and category id optional', () => {
    expect(getSellOrder.path).toBe('/openapi/migration/v4/sellorder/{sell_order_id}');
    expect(getSellOrder.params.sell_order_id.options.inPath).toBe(true);
    expect(getSellOrder.params.sell_order_id.required).toBe(true);
    expect(payoutOutlets.path).toBe('/openapi/migration/v4/payout-outlets/{id?}');
    expect(payoutOutlets.params.id.options.inPath).toBe(true);
    expect(payoutOutlets.params.id.required).toBe(false);
    expect(payoutOutletCategories.path).toBe('/openapi/migration/v4/payout-outlet-categories/{id?}');
    expect(payoutOutletCategories.params.id.required).toBe(false);
  });

  it('create-sellorder requires its six fields; external_transaction_id is a number', () => {
    const missing = checkParams(createSellOrder.params, undefined, {}).violations.map((v) => v.param);
    expect(missing).toEqual([
      'payment_outlet',
      'base_amount',
      'currency',
      'bank_account_number',
      'bank_account_name',
      'recipient_phone_number',
    ]);
    const bad = checkParams(createSellOrder.params, undefined, { ...createSellOrder.example.params, external_transaction_id: 'abc' });
    expect(bad.violations.map((v) => [v.param, v.reason])).toEqual([['external_transaction_id', 'malformed']]);
  });

  it('validate-field: field_type and region are enums, mobile_number is E.164', () => {
    const bad = checkParams(validateField.params, undefined, { field_type: 'email', mobile_number: '09171234567', region: 'SG' });
    expect(bad.violations.map((v) => v.param)).toEqual(['field_type', 'mobile_number', 'region']);
  });
});
