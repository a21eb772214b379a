import { isSafeNumber, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { zAccount } from '../../codecs/account.ts';
import type { WeightSpec } from '../types.ts';
import { accountEndpoints } from './account.ts';

const parseLossless = (t: string) => parse(t, null, (v) => (isSafeNumber(v) ? Number(v) : v));

const charge = (w: WeightSpec, params: Record<string, unknown>) =>
  typeof w === 'function' ? w(params) : typeof w === 'number' ? [{ pool: 'IP', weight: w }] : w;

const limits = { cashInLimit: '1', cashInRemaining: '1', cashOutLimit: '1', cashOutRemaining: '1', totalWithdrawLimit: '1', totalWithdrawRemaining: '1' };

describe('account endpoint rows', () => {
  const rows = Object.entries(accountEndpoints);

  it.each(rows)('%s: key, id, area and name agree; signed USER_DATA', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`account.${key}`);
    expect(e.area).toBe('account');
    expect(e.security).toBe('USER_DATA');
    expect(e.idempotent).toBe(e.method === 'GET');
  });

  it('weights: account 10, crypto-accounts 1, transfers 50 (v3 and v4), query 10, api-keys 1', () => {
    const expected = { account: 10, cryptoAccounts: 1, createTransfer: 50, getTransfers: 10, createTransferV4: 50, apiKeys: 1 };
    for (const [key, weight] of Object.entries(expected)) {
      expect(charge(accountEndpoints[key as keyof typeof expected].weight, {})).toEqual([{ pool: 'IP', weight }]);
    }
  });

  it('transfers: form POSTs, v4 beside v3', () => {
    expect(accountEndpoints.createTransfer).toMatchObject({ method: 'POST', path: '/openapi/transfer/v3/transfers', encoding: 'form' });
    expect(accountEndpoints.createTransferV4).toMatchObject({ method: 'POST', path: '/openapi/transfer/v4/transfers', encoding: 'form' });
    expect(accountEndpoints.createTransfer.params.amount.kind).toBe('DECIMAL');
  });

  it('transfer query: optional id in the path, bounded client id and page size, one address filter', () => {
    const e = accountEndpoints.getTransfers;
    expect(e.path).toBe('/openapi/transfer/v3/transfers/{id?}');
    expect(e.params.id.options.inPath).toBe(true);
    expect(e.params.id.required).toBe(false);
    expect(e.params.client_transfer_id.options.maxLength).toBe(100);
    expect(e.params.per_page.options).toMatchObject({ max: 2000, defaultValue: 2000 });
    expect(e.rules).toEqual([{ kind: 'notBoth', params: ['from_address', 'to_address'] }]);
  });
});

describe('account decoding', () => {
  it('decodes the account with its period limits and the notes extras', () => {
    const a = accountEndpoints.account.response.parse(accountEndpoints.account.example.response);
    expect(a.daily.cashOutRemaining).toBe('500000');
    expect(a.p2pDaily?.cashInLimit).toBe('100000');
    expect(a.enableWithdrawWhitelist).toBe(true);
    expect(a.balances[1]).toEqual({ asset: 'PHP', free: '125000.55', locked: '3425.00' });
  });

  it('decodes a spec-only account (no notes extras)', () => {
    const body = { accountType: 'SPOT', canDeposit: true, canTrade: 'true', canWithdraw: false, balances: [], token: 'PHP', daily: limits, monthly: limits, annually: limits, updateTime: '1538323200012' };
    const a = zAccount.parse(body);
    expect(a).toMatchObject({ canTrade: true, updateTime: 1538323200012 });
    expect(a.p2pDaily).toBeUndefined();
  });

  it('fails a malformed limit with an error naming the path', () => {
    const body = { ...(accountEndpoints.account.example.response as Record<string, unknown>), monthly: { ...limits, cashOutLimit: {} } };
    const result = zAccount.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['monthly', 'cashOutLimit']);
  });

  it('keeps a crypto-account id above 2^53 exact from a raw body', () => {
    const body = '{"crypto-accounts":[{"id":1451431230880900352,"name":"PHP","currency":"PHP","balance":"125000.55","pending_balance":"0"}]}';
    const r = accountEndpoints.cryptoAccounts.response.parse(parseLossless(body));
    expect(r['crypto-accounts'][0]?.id).toBe('1451431230880900352');
  });

  it('decodes a transfer page with ISO created_at and numeric type', () => {
    const r = accountEndpoints.getTransfers.response.parse(accountEndpoints.getTransfers.example.response);
    expect(r.transfers[0]).toMatchObject({ type: 2, created_at: '2018-09-30T16:00:00.012Z', amount: '1' });
    expect(r.meta.total_count).toBe(1);
  });

  it('decodes a failed transfer with its error message', () => {
    const body = parseLossless('{"transfer":{"id":"t1","status":"failed","account":"PHP","target_address":"a@b.c","amount":"1","exchange":null,"payment":null,"client_transfer_id":null,"message":null,"errorMessage":"insufficient balance"}}');
    const r = accountEndpoints.createTransfer.response.parse(body);
    expect(r.transfer).toMatchObject({ status: 'failed', errorMessage: 'insufficient balance' });
  });

  it('decodes api keys with string createTime', () => {
    const [k] = accountEndpoints.apiKeys.response.parse(accountEndpoints.apiKeys.example.response);
    expect(k).toMatchObject({ createTime: 1538323200000, apiType: ['Read only', 'Enable Spot'], status: 'ENABLE' });
  });
});
