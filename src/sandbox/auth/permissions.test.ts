import { describe, expect, it } from 'vitest';
import { findEndpoint } from '../../exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';
import type { ApiKeyRecord, ApiKeyRole } from '../contracts.ts';
import type { VenueError } from '../http/venue-error.ts';
import { checkIp } from './key-check.ts';
import { checkPermission } from './permissions.ts';

const key = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  apiKey: 'k',
  secret: 's',
  accountId: '1',
  name: 'k',
  roles: [],
  ipList: [],
  ipRestrict: false,
  requiresWhitelist: false,
  enabled: true,
  createdAt: 0,
  merchant: false,
  ...over,
});
const ep = (id: string) => findEndpoint(id) as AnyEndpoint;
const code = (fn: () => void): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as VenueError).code;
  }
};
const perm = (roles: ApiKeyRole[], id: string) => code(() => checkPermission(key({ roles }), ep(id)));

describe('key permissions (notes 8 grouping)', () => {
  it('lets a key without roles do everything', () => {
    expect(perm([], 'spot.newOrder')).toBeUndefined();
    expect(perm([], 'wallet.withdraw')).toBeUndefined();
  });

  it('limits a read-only key to GET: writes get -1020', () => {
    expect(perm([0], 'spot.openOrders')).toBeUndefined();
    expect(perm([0], 'wallet.depositHistory')).toBeUndefined();
    expect(perm([0], 'spot.newOrder')).toBe(-1020);
    expect(perm([0], 'wallet.withdraw')).toBe(-1020);
    expect(perm([0], 'userStream.startUserDataStream')).toBeUndefined();
  });

  it('keeps a read-only key to GET on the ungrouped legacy v4 routes too (a sell order moves money)', () => {
    expect(perm([0], 'legacyV4.createSellOrder')).toBe(-1020);
    expect(perm([0], 'legacyV4.validateField')).toBe(-1020);
    expect(perm([0], 'legacyV4.getSellOrder')).toBeUndefined();
    expect(perm([2], 'legacyV4.createSellOrder')).toBeUndefined();
    expect(perm([0], 'account.apiKeys')).toBeUndefined();
  });

  it('limits role keys to their group: elsewhere -1152', () => {
    expect(perm([2], 'spot.newOrder')).toBeUndefined();
    expect(perm([2], 'wallet.withdraw')).toBe(-1152);
    expect(perm([3], 'convert.getQuote')).toBeUndefined();
    expect(perm([3], 'spot.openOrders')).toBe(-1152);
    expect(perm([0, 3], 'spot.openOrders')).toBeUndefined();
    expect(perm([0, 3], 'spot.newOrder')).toBe(-1152);
    expect(perm([6], 'subAccount.create')).toBeUndefined();
    expect(perm([5], 'account.apiKeys')).toBeUndefined();
  });

  it('refuses merchant keys on the exchange API (-2019)', () => {
    expect(code(() => checkPermission(key({ merchant: true }), ep('general.checkSysStatus')))).toBe(-2019);
  });
});

describe('IP whitelist (spec 5.1.5)', () => {
  it('answers -2017 for an unlisted IP and -1023 for a key without its required whitelist', () => {
    expect(code(() => checkIp(key({ ipRestrict: true, ipList: ['10.0.0.1'] }), '127.0.0.1'))).toBe(-2017);
    expect(code(() => checkIp(key({ ipRestrict: true, ipList: ['127.0.0.1'] }), '127.0.0.1'))).toBeUndefined();
    expect(code(() => checkIp(key({ requiresWhitelist: true }), '127.0.0.1'))).toBe(-1023);
    expect(code(() => checkIp(key({ ipList: ['10.0.0.1'] }), '127.0.0.1'))).toBeUndefined();
  });
});
