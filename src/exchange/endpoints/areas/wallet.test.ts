import { isSafeNumber, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { zDepositRecord } from '../../codecs/wallet.ts';
import type { WeightSpec } from '../types.ts';
import { walletEndpoints } from './wallet.ts';

const parseLossless = (t: string) => parse(t, null, (v) => (isSafeNumber(v) ? Number(v) : v));

const charge = (w: WeightSpec, params: Record<string, unknown>) =>
  typeof w === 'function' ? w(params) : typeof w === 'number' ? [{ pool: 'IP', weight: w }] : w;

const DAY_MS = 86_400_000;

describe('wallet endpoint rows', () => {
  const rows = Object.entries(walletEndpoints);

  it.each(rows)('%s: key, id, area and name agree; signed USER_DATA', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`wallet.${key}`);
    expect(e.area).toBe('wallet');
    expect(e.security).toBe('USER_DATA');
    expect(e.idempotent).toBe(e.method === 'GET');
  });

  it('weights: config and address 10, withdraw 100 on the UID pool, histories 2, whitelist 1', () => {
    const w = walletEndpoints;
    expect(charge(w.coinConfig.weight, {})).toEqual([{ pool: 'IP', weight: 10 }]);
    expect(charge(w.depositAddress.weight, {})).toEqual([{ pool: 'IP', weight: 10 }]);
    expect(charge(w.withdraw.weight, {})).toEqual([{ pool: 'UID', weight: 100 }]);
    expect(charge(w.depositHistory.weight, {})).toEqual([{ pool: 'IP', weight: 2 }]);
    expect(charge(w.withdrawHistory.weight, {})).toEqual([{ pool: 'IP', weight: 2 }]);
    expect(charge(w.withdrawAddressWhitelist.weight, {})).toEqual([{ pool: 'IP', weight: 1 }]);
  });

  it('withdraw is a form POST with a 30-character client id', () => {
    expect(walletEndpoints.withdraw.method).toBe('POST');
    expect(walletEndpoints.withdraw.encoding).toBe('form');
    expect(walletEndpoints.withdraw.params.withdrawOrderId.options.maxLength).toBe(30);
    expect(walletEndpoints.withdraw.params.amount.kind).toBe('DECIMAL');
  });

  it('histories: limit max 1000, status ranges, 90-day span; status and statuses not both', () => {
    const dep = walletEndpoints.depositHistory;
    const wd = walletEndpoints.withdrawHistory;
    expect(dep.params.limit.options).toMatchObject({ max: 1000, defaultValue: 1000 });
    expect(wd.params.limit.options).toMatchObject({ max: 1000, defaultValue: 1000 });
    expect(dep.params.status.options).toMatchObject({ min: 0, max: 3 });
    expect(wd.params.status.options).toMatchObject({ min: 0, max: 2 });
    expect(dep.rules).toContainEqual({ kind: 'notBoth', params: ['status', 'statuses'] });
    for (const e of [dep, wd]) {
      expect(e.rules).toContainEqual({ kind: 'maxSpan', start: 'startTime', end: 'endTime', maxSpanMs: 90 * DAY_MS });
    }
  });

  it('withdraw history: 7-day span when withdrawOrderId is sent', () => {
    expect(walletEndpoints.withdrawHistory.rules).toContainEqual({
      kind: 'maxSpan',
      start: 'startTime',
      end: 'endTime',
      maxSpanMs: 7 * DAY_MS,
      when: 'withdrawOrderId',
    });
    expect(walletEndpoints.withdrawHistory.params.withdrawOrderId.options.maxLength).toBe(30);
  });

  it('deposit statuses is a comma list of 0-3', () => {
    const pattern = walletEndpoints.depositHistory.params.statuses.options.pattern;
    expect(pattern?.test('1,3')).toBe(true);
    expect(pattern?.test('0')).toBe(true);
    expect(pattern?.test('1,4')).toBe(false);
    expect(pattern?.test('1,')).toBe(false);
  });
});

describe('wallet decoding', () => {
  it('keeps text deposit ids and exact numeric withdrawal ids', () => {
    const [d] = walletEndpoints.depositHistory.response.parse(walletEndpoints.depositHistory.example.response);
    expect(d?.id).toBe('d_769800519366885376');
    const applied = walletEndpoints.withdraw.response.parse(parseLossless('{"id":1375445991893797391}'));
    expect(applied.id).toBe('1375445991893797391');
  });

  it('decodes a withdrawal record from a raw body with numbers as strings', () => {
    const body =
      '[{"id":1375445991893797391,"amount":"25.5","transactionFee":0.25,"coin":"XRP","status":"1","address":"r1","addressTag":"","txId":"","applyTime":"1538323200000","network":"XRP","withdrawOrderId":"","info":"","confirmNo":0}]';
    const [w] = walletEndpoints.withdrawHistory.response.parse(parseLossless(body));
    expect(w).toMatchObject({ id: '1375445991893797391', transactionFee: '0.25', status: 1, applyTime: 1538323200000 });
  });

  it('decodes coin configuration with networks and the notes extras', () => {
    const [c] = walletEndpoints.coinConfig.response.parse(walletEndpoints.coinConfig.example.response);
    expect(c?.transferPrecision).toBe('8');
    expect(c?.networkList[0]).toMatchObject({ network: 'BTC', minConfirm: 1, withdrawFee: '0.0005', sameAddress: false });
    const { transferPrecision: _a, transferMinQuantity: _b, ...plain } = c ?? {};
    expect(walletEndpoints.coinConfig.response.safeParse([plain]).success).toBe(true);
  });

  it('fails a malformed amount with an error naming the path', () => {
    const [record] = walletEndpoints.depositHistory.example.response as Record<string, unknown>[];
    const result = zDepositRecord.safeParse({ ...record, amount: {} });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['amount']);
    const listResult = walletEndpoints.depositHistory.response.safeParse([{ ...record, amount: 'ten' }]);
    expect(listResult.error?.issues[0]?.path).toEqual([0, 'amount']);
  });

  it('fails a malformed network entry with its full path', () => {
    const [config] = walletEndpoints.coinConfig.example.response as { networkList: Record<string, unknown>[] }[];
    const bad = { ...config, networkList: [{ ...config?.networkList[0], withdrawFee: {} }] };
    const result = walletEndpoints.coinConfig.response.safeParse([bad]);
    expect(result.error?.issues[0]?.path).toEqual([0, 'networkList', 0, 'withdrawFee']);
  });
});
