import { describe, expect, it } from 'vitest';
import { zSubAccountList } from '../../codecs/sub-account.ts';
import { checkParams } from '../../params/check-params.ts';
import { chargesFor } from '../../rate/weights.ts';
import type { AnyEndpoint, WeightCharge } from '../types.ts';
import {
  assetTransactionHistory,
  collectFromSubAccount,
  create,
  depositHistory,
  getFundRecord,
  list,
  subAccountEndpoints,
  subTransferHistory,
  universalTransfer,
  universalTransferHistory,
} from './sub-account.ts';

const DAY = 86_400_000;
const entries = Object.entries(subAccountEndpoints) as [string, AnyEndpoint][];

function failurePath(codec: AnyEndpoint['response'], body: unknown): PropertyKey[] | undefined {
  const result = codec.safeParse(body);
  expect(result.success).toBe(false);
  return result.success ? undefined : result.error.issues[0]?.path;
}

const violations = (e: AnyEndpoint, input: Record<string, unknown>) =>
  checkParams(e.params, e.rules, input).violations.map((v) => [v.param, v.reason]);

const ip = (weight: number): WeightCharge[] => [{ pool: 'IP', weight }];
const uid = (weight: number): WeightCharge[] => [{ pool: 'UID', weight }];

/** Spec 4.9 weights, then protocol notes 7 weights. */
const WEIGHTS: Record<keyof typeof subAccountEndpoints, [WeightCharge[], WeightCharge[]]> = {
  list: [ip(1), uid(10)],
  create: [ip(1), [{ pool: 'IP', weight: 60 }, { pool: 'UID', weight: 30 }]],
  asset: [ip(1), uid(10)],
  universalTransfer: [ip(1), uid(100)],
  subToMaster: [ip(1), uid(100)],
  universalTransferHistory: [ip(1), uid(10)],
  subTransferHistory: [ip(1), uid(10)],
  getIpRestriction: [ip(1), uid(10)],
  addIpRestriction: [ip(1), uid(30)],
  deleteIpRestriction: [ip(1), uid(30)],
  depositAddress: [ip(10), ip(1)],
  depositHistory: [ip(2), ip(1)],
  collectFromSubAccount: [ip(1), ip(1)],
  getFundRecord: [ip(1), ip(1)],
  assetTransactionHistory: [ip(10), uid(20)],
};

describe('sub-account endpoints (spec 4.9)', () => {
  it.each(entries)('%s is keyed, named and signed USER_DATA', (key, e) => {
    expect(e.name).toBe(key);
    expect(e.id).toBe(`subAccount.${key}`);
    expect(e.area).toBe('subAccount');
    expect(e.security).toBe('USER_DATA');
    expect(e.envelope).toBe('bare');
    expect(e.idempotent).toBe(e.method === 'GET');
  });

  it.each(entries)('%s weighs as spec 4.9 and, under the real profile, as notes 7', (key, e) => {
    const [spec, real] = WEIGHTS[key as keyof typeof WEIGHTS];
    expect(chargesFor(e, {}, 'spec')).toEqual(spec);
    expect(chargesFor(e, {}, 'real')).toEqual(real);
  });

  it('POSTs are form bodies except collect-from-sub-account, which is JSON (spec 1.6)', () => {
    const posts = entries.filter(([, e]) => e.method === 'POST');
    expect(posts.filter(([, e]) => e.encoding === 'json').map(([k]) => k)).toEqual(['collectFromSubAccount']);
    expect(posts.filter(([, e]) => e.encoding === 'form')).toHaveLength(posts.length - 1);
    expect(collectFromSubAccount.path).toBe('/openapi/v1/fund-collect/collect-from-sub-account');
    expect(assetTransactionHistory.path).toBe('/openapi/v1/asset/transaction/history');
  });

  it('the sub-account email parameter is named email', () => {
    for (const [key, e] of entries) {
      if (['asset', 'getIpRestriction', 'addIpRestriction', 'deleteIpRestriction', 'depositAddress', 'depositHistory'].includes(key)) {
        expect(e.params.email?.required, key).toBe(true);
      }
    }
    expect(list.params.email.required).toBe(false);
  });

  it('normalises createTime from string or number', () => {
    const decoded = zSubAccountList.parse(list.example.response);
    expect(decoded.subAccounts.map((s) => s.createTime)).toEqual([1689744671462, 1689744700710]);
    expect((create.response.parse(create.example.response) as { createTime: number }).createTime).toBe(1689744700710);
  });

  it('names the path of a malformed body', () => {
    const l = structuredClone(list.example.response) as { subAccounts: Record<string, unknown>[] };
    l.subAccounts[1]!.isFreeze = 'maybe';
    expect(failurePath(list.response, l)).toEqual(['subAccounts', 1, 'isFreeze']);

    const h = structuredClone(universalTransferHistory.example.response) as { result: Record<string, unknown>[] };
    h.result[0]!.status = 'done';
    expect(failurePath(universalTransferHistory.response, h)).toEqual(['result', 0, 'status']);

    const d = structuredClone(depositHistory.example.response) as Record<string, unknown>[];
    delete d[0]!.insertTime;
    expect(failurePath(depositHistory.response, d)).toEqual([0, 'insertTime']);

    const t = structuredClone(assetTransactionHistory.example.response) as { meta: Record<string, unknown> };
    t.meta.has_next = 'perhaps';
    expect(failurePath(assetTransactionHistory.response, t)).toEqual(['meta', 'has_next']);

    const f = structuredClone(getFundRecord.example.response) as Record<string, unknown>[];
    f[1]!.status = 'QUEUED';
    expect(failurePath(getFundRecord.response, f)).toEqual([1, 'status']);
  });

  it('universal transfer needs fromEmail or toEmail', () => {
    expect(universalTransfer.rules).toContainEqual({ kind: 'atLeastOne', params: ['fromEmail', 'toEmail'] });
    expect(violations(universalTransfer, { asset: 'PHP', amount: '1' })).toEqual([['fromEmail|toEmail', 'missing']]);
    expect(violations(universalTransfer, { fromEmail: 'a@example.com', toEmail: 'b@example.com', asset: 'PHP', amount: '1' })).toEqual([]);
  });

  it('universal transfer history: not both emails, span under 30 days, limit max 500', () => {
    expect(universalTransferHistory.rules).toContainEqual({ kind: 'notBoth', params: ['fromEmail', 'toEmail'] });
    expect(violations(universalTransferHistory, { fromEmail: 'a@example.com', toEmail: 'b@example.com' })).toEqual([
      ['fromEmail|toEmail', 'conflict'],
    ]);
    expect(violations(universalTransferHistory, { startTime: 0, endTime: 30 * DAY })).toEqual([['endTime', 'span']]);
    expect(violations(universalTransferHistory, { startTime: 0, endTime: 30 * DAY - 1 })).toEqual([]);
    expect(violations(universalTransferHistory, { limit: 501 })).toEqual([['limit', 'out-of-range']]);
    expect(violations(subTransferHistory, { startTime: 0, endTime: 30 * DAY })).toEqual([['endTime', 'span']]);
    expect(violations(subTransferHistory, { limit: 501 })).toEqual([['limit', 'out-of-range']]);
  });

  it('sub history: a missing or invalid type means 2 (spec 4.9), never a violation', () => {
    const typeOf = (type: unknown) => checkParams(subTransferHistory.params, subTransferHistory.rules, { type });
    expect(typeOf(1)).toMatchObject({ values: { type: 1 }, wire: [['type', '1']], violations: [] });
    expect(typeOf('2')).toMatchObject({ values: { type: 2 }, violations: [] });
    for (const invalid of ['abc', '1.5', 0, 3, '-1']) expect(typeOf(invalid), String(invalid)).toMatchObject({ values: { type: 2 }, wire: [['type', '2']], violations: [] });
    expect(subTransferHistory.params.type.options.defaultValue).toBe(2);
  });

  it('page and span bounds of spec 8.9-8.10', () => {
    expect(violations(list, { limit: 201 })).toEqual([['limit', 'out-of-range']]);
    expect(violations(list, { limit: 200 })).toEqual([]);
    expect(violations(depositHistory, { email: 'a@example.com', limit: 1001 })).toEqual([['limit', 'out-of-range']]);
    expect(violations(depositHistory, { email: 'a@example.com', startTime: 0, endTime: 90 * DAY })).toEqual([['endTime', 'span']]);
    expect(violations(getFundRecord, { size: 101 })).toEqual([['size', 'out-of-range']]);
    expect(violations(collectFromSubAccount, { clientRequestId: 'x'.repeat(201) })).toEqual([['clientRequestId', 'too-long']]);
    expect(violations(collectFromSubAccount, { clientRequestId: 'x'.repeat(200) })).toEqual([]);
  });

  it('asset transaction history: pageNum 1-1000, pageSize 1-100, span at most 7 days', () => {
    const base = { tokenId: 'BTC' };
    expect(violations(assetTransactionHistory, { ...base, pageNum: 0 })).toEqual([['pageNum', 'out-of-range']]);
    expect(violations(assetTransactionHistory, { ...base, pageNum: 1001 })).toEqual([['pageNum', 'out-of-range']]);
    expect(violations(assetTransactionHistory, { ...base, pageSize: 101 })).toEqual([['pageSize', 'out-of-range']]);
    expect(violations(assetTransactionHistory, { ...base, startTime: 0, endTime: 7 * DAY })).toEqual([]);
    expect(violations(assetTransactionHistory, { ...base, startTime: 0, endTime: 7 * DAY + 1 })).toEqual([['endTime', 'span']]);
    expect(violations(assetTransactionHistory, { ...base, subUserId: '1326887193348759809' })).toEqual([]);
  });
});
