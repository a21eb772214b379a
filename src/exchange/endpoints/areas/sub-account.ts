/**
 * Spec 4.9 Sub-accounts: master and sub-account operations, API-key IP restrictions, sub-account
 * deposits, asset collection and asset transaction history. Limits spec 8.9-8.11; weights spec 4.9
 * with the protocol notes 7 variant in `weightReal`.
 *
 * The spec leaves the sub-account email parameter's name empty (`<sub_account_email>`); it is
 * `email` here because that is the name the real service reads.
 * Security is not shown for most rows: all are signed USER_DATA (they act on account data).
 */
import { z } from 'zod';
import {
  zAssetTransactionPage,
  zDepositAddress,
  zDepositRecord,
  zFundCollection,
  zIpRestriction,
  zSubAccount,
  zSubAccountAssets,
  zSubAccountList,
  zSubTransferList,
  zTransferAck,
} from '../../codecs/sub-account.ts';
import { p } from '../../params/dsl.ts';
import type { ClientIdTerms, WeightCharge } from '../types.ts';
import { defineEndpoint } from '../types.ts';

const DAY = 86_400_000;
const uid = (weight: number): readonly WeightCharge[] => [{ pool: 'UID', weight }];

/** The sub-account email parameter (name not shown in the spec; `email` on the real service). */
const email = (doc = 'sub-account email') => p.string({ doc });

const sampleIpRestriction = {
  apikey: 'k5V49ldtn4tszj6W3hystegdfvmGbqDzjmkCtpTvC0G74WhK7yd4rfCTo4lShf',
  ipList: ['203.0.113.7'],
  ipRestrict: true,
  role: '2,3,4,5,6',
  updateTime: 1689744700710,
};

export const list = defineEndpoint({
  id: 'subAccount.list',
  area: 'subAccount',
  name: 'list',
  summary: 'Sub-accounts of this master account',
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/sub-account/list',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(10),
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    email: email('filter by sub-account email'),
    page: p.int({ min: 1, defaultValue: 1, doc: 'page, default 1' }),
    limit: p.int({ min: 1, max: 200, defaultValue: 10, doc: 'per page, default 10, max 200' }),
  },
  response: zSubAccountList,
  example: {
    params: { page: 1, limit: 10 },
    response: {
      subAccounts: [
        { createTime: '1689744671462', email: 'desk-a@example.com', isFreeze: false },
        { createTime: '1689744700710', email: 'desk-b@example.com', isFreeze: false },
      ],
      total: 2,
    },
  },
});

export const create = defineEndpoint({
  id: 'subAccount.create',
  area: 'subAccount',
  name: 'create',
  summary: 'Create a virtual sub-account (at most 30)',
  spec: '4.9',
  method: 'POST',
  path: '/openapi/v1/sub-account/create',
  security: 'USER_DATA',
  weight: 1,
  // Two charges, one per pool (notes 7).
  weightReal: [
    { pool: 'IP', weight: 60 },
    { pool: 'UID', weight: 30 },
  ],
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  params: { accountName: p.string({ doc: 'the new sub-account email' }).req() },
  response: zSubAccount,
  example: {
    params: { accountName: 'desk-b@example.com' },
    response: { email: 'desk-b@example.com', createTime: 1689744700710, isFreeze: false },
  },
});

export const asset = defineEndpoint({
  id: 'subAccount.asset',
  area: 'subAccount',
  name: 'asset',
  summary: "A sub-account's balances",
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/sub-account/asset',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(10),
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { email: email().req() },
  response: zSubAccountAssets,
  example: {
    params: { email: 'desk-a@example.com' },
    response: {
      balances: [
        { asset: 'BTC', free: '0.1', locked: '0' },
        { asset: 'PHP', free: '25000', locked: '1200.5' },
      ],
    },
  },
});

/** clientTranId: "unique", no length published: 36 characters of [A-Za-z0-9_-], as order ids. */
const SUB_TRANSFER_CLIENT_ID: ClientIdTerms = { param: 'clientTranId', maxLength: 36, charset: 'token' };

export const universalTransfer = defineEndpoint({
  id: 'subAccount.universalTransfer',
  area: 'subAccount',
  name: 'universalTransfer',
  summary: 'Transfer master<->sub or sub->sub (an omitted side is the master account)',
  spec: '4.9',
  method: 'POST',
  path: '/openapi/v1/sub-account/transfer/universal-transfer',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(100),
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  clientId: SUB_TRANSFER_CLIENT_ID,
  params: {
    fromEmail: p.string({ doc: 'source sub-account; master when omitted' }),
    toEmail: p.string({ doc: 'target sub-account; master when omitted' }),
    clientTranId: p.string({ doc: 'unique client transfer id; generated when omitted' }),
    asset: p.string({ doc: 'asset to move' }).req(),
    amount: p.decimal({ doc: 'amount to move' }).req(),
  },
  // Rule 1: at least one side must be a sub-account.
  rules: [{ kind: 'atLeastOne', params: ['fromEmail', 'toEmail'] }],
  response: zTransferAck,
  example: {
    params: { toEmail: 'desk-a@example.com', clientTranId: '1487573639841995271', asset: 'PHP', amount: '500' },
    response: { clientTransferId: '1487573639841995271', result: true },
  },
});

export const subToMaster = defineEndpoint({
  id: 'subAccount.subToMaster',
  area: 'subAccount',
  name: 'subToMaster',
  summary: 'Transfer from this sub-account to its master',
  spec: '4.9',
  method: 'POST',
  path: '/openapi/v1/sub-account/transfer/sub-to-master',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(100),
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  clientId: SUB_TRANSFER_CLIENT_ID,
  params: {
    asset: p.string({ doc: 'asset to move' }).req(),
    amount: p.decimal({ doc: 'amount to move' }).req(),
    clientTranId: p.string({ doc: 'unique client transfer id; generated when omitted' }),
  },
  response: zTransferAck,
  example: {
    params: { asset: 'BTC', amount: '0.01', clientTranId: '1487573639841995272' },
    response: { clientTransferId: '1487573639841995272', result: true },
  },
});

export const universalTransferHistory = defineEndpoint({
  id: 'subAccount.universalTransferHistory',
  area: 'subAccount',
  name: 'universalTransferHistory',
  summary: 'Universal transfers of the master account (last 30 days without times)',
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/sub-account/transfer/universal-transfer-history',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(10),
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    fromEmail: p.string({ doc: 'source; defaults to the master email' }),
    toEmail: p.string({ doc: 'target' }),
    clientTranId: p.string({ doc: 'one transfer' }),
    tokenId: p.string({ doc: 'asset' }),
    startTime: p.long({ doc: 'from, ms' }),
    endTime: p.long({ doc: 'to, ms (exclusive)' }),
    page: p.int({ min: 1, defaultValue: 1, doc: 'page, default 1' }),
    limit: p.int({ min: 1, max: 500, defaultValue: 500, doc: 'per page, default 500, max 500' }),
  },
  // Rule 2 and spec 8.10.
  rules: [
    { kind: 'notBoth', params: ['fromEmail', 'toEmail'] },
    { kind: 'maxSpan', start: 'startTime', end: 'endTime', maxSpanMs: 30 * DAY },
  ],
  response: zSubTransferList,
  example: {
    params: { toEmail: 'desk-a@example.com', startTime: 1689379200000, endTime: 1689984000000 },
    response: {
      result: [
        {
          clientTranId: '1487573639841995271',
          fromEmail: 'master@example.com',
          toEmail: 'desk-a@example.com',
          asset: 'PHP',
          amount: '500',
          createdAt: 1689744700710,
          status: 'success',
        },
      ],
      total: 1,
    },
  },
});

export const subTransferHistory = defineEndpoint({
  id: 'subAccount.subTransferHistory',
  area: 'subAccount',
  name: 'subTransferHistory',
  summary: "This sub-account's transfers (last 30 days without times)",
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/sub-account/transfer/sub-history',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(10),
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    asset: p.string({ doc: 'asset' }),
    // Spec 4.9: "missing or invalid means 2", so anything but 1 or 2 reads as 2, never an error.
    type: p.int<1 | 2>({ min: 1, max: 2, defaultValue: 2, invalidMeans: 2, doc: '1 transfer in, 2 transfer out' }),
    startTime: p.long({ doc: 'from, ms' }),
    endTime: p.long({ doc: 'to, ms (exclusive)' }),
    page: p.int({ min: 1, defaultValue: 1, doc: 'page, default 1' }),
    limit: p.int({ min: 1, max: 500, defaultValue: 500, doc: 'per page, default 500, max 500' }),
    clientTranId: p.string({ doc: 'one transfer' }),
  },
  // Spec 8.10: sub-account transfer histories span under 30 days.
  rules: [{ kind: 'maxSpan', start: 'startTime', end: 'endTime', maxSpanMs: 30 * DAY }],
  response: zSubTransferList,
  example: {
    params: { type: 2, asset: 'BTC' },
    response: {
      result: [
        {
          clientTranId: '1487573639841995272',
          fromEmail: 'desk-a@example.com',
          toEmail: 'master@example.com',
          asset: 'BTC',
          amount: '0.01',
          createdAt: 1689744800710,
          status: 'pending',
        },
      ],
      total: 1,
    },
  },
});

export const getIpRestriction = defineEndpoint({
  id: 'subAccount.getIpRestriction',
  area: 'subAccount',
  name: 'getIpRestriction',
  summary: "IP restriction of a sub-account's API key",
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/sub-account/apikey/ip-restriction',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(10),
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { apikey: p.string({ doc: 'the sub-account API key' }).req(), email: email().req() },
  response: zIpRestriction,
  example: {
    params: { apikey: sampleIpRestriction.apikey, email: 'desk-a@example.com' },
    response: sampleIpRestriction,
  },
});

export const addIpRestriction = defineEndpoint({
  id: 'subAccount.addIpRestriction',
  area: 'subAccount',
  name: 'addIpRestriction',
  summary: "Set the IP restriction of a sub-account's API key, adding trusted IPs",
  spec: '4.9',
  method: 'POST',
  path: '/openapi/v1/sub-account/apikey/add-ip-restriction',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(30),
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  params: {
    apikey: p.string({ doc: 'the sub-account API key' }).req(),
    email: email().req(),
    ipAddress: p.string({ doc: 'comma-separated IPs to add' }),
    ipRestriction: p.enum(['1', '2'], { doc: '1 trusted IPs only, 2 unrestricted' }).req(),
  },
  response: zIpRestriction,
  example: {
    params: { apikey: sampleIpRestriction.apikey, email: 'desk-a@example.com', ipAddress: '203.0.113.7', ipRestriction: '1' },
    response: sampleIpRestriction,
  },
});

export const deleteIpRestriction = defineEndpoint({
  id: 'subAccount.deleteIpRestriction',
  area: 'subAccount',
  name: 'deleteIpRestriction',
  summary: "Remove IPs from a sub-account API key's trusted list",
  spec: '4.9',
  method: 'POST',
  path: '/openapi/v1/sub-account/apikey/delete-ip-restriction',
  security: 'USER_DATA',
  weight: 1,
  weightReal: uid(30),
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  params: {
    apikey: p.string({ doc: 'the sub-account API key' }).req(),
    email: email().req(),
    ipAddress: p.string({ doc: 'comma-separated IPs to remove' }).req(),
  },
  response: zIpRestriction,
  example: {
    params: { apikey: sampleIpRestriction.apikey, email: 'desk-a@example.com', ipAddress: '198.51.100.23' },
    response: sampleIpRestriction,
  },
});

export const depositAddress = defineEndpoint({
  id: 'subAccount.depositAddress',
  area: 'subAccount',
  name: 'depositAddress',
  summary: "A sub-account's deposit address for a coin and network",
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/sub-account/wallet/deposit/address',
  security: 'USER_DATA',
  weight: 10,
  weightReal: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    email: email().req(),
    coin: p.string({ doc: 'coin, from the coin configuration' }).req(),
    network: p.string({ doc: 'network, from the coin configuration' }).req(),
  },
  response: zDepositAddress,
  example: {
    params: { email: 'desk-a@example.com', coin: 'ETH', network: 'ETH' },
    response: { coin: 'ETH', address: '0xfe98628173830bf79c59f04585ce41f7de168784', addressTag: '' },
  },
});

export const depositHistory = defineEndpoint({
  id: 'subAccount.depositHistory',
  area: 'subAccount',
  name: 'depositHistory',
  summary: "A sub-account's deposits (default the last 90 days)",
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/sub-account/wallet/deposit/history',
  security: 'USER_DATA',
  weight: 2,
  weightReal: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    email: email().req(),
    coin: p.string({ doc: 'coin' }),
    txId: p.string({ doc: 'chain transaction id' }),
    depositId: p.string({ doc: 'deposit id' }),
    status: p.int({ min: 0, max: 3, doc: '0 PROCESSING, 1 SUCCESS, 2 FAILED, 3 NEED_FILL_DATA' }),
    startTime: p.long({ doc: 'from, ms; default 90 days ago' }),
    endTime: p.long({ doc: 'to, ms; default now' }),
    offset: p.int({ min: 0, defaultValue: 0, doc: 'offset, default 0' }),
    limit: p.long({ min: 1, max: 1000, defaultValue: 1000, doc: 'records, default 1000, max 1000' }),
  },
  // Rule 4: the wallet deposit history's 90-day span.
  rules: [{ kind: 'maxSpan', start: 'startTime', end: 'endTime', maxSpanMs: 90 * DAY }],
  response: z.array(zDepositRecord),
  example: {
    params: { email: 'desk-a@example.com', coin: 'BNB', limit: 100 },
    response: [
      {
        id: 'd_769800519366885376',
        amount: '0.001',
        coin: 'BNB',
        network: 'BNB',
        status: 0,
        address: 'bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23',
        addressTag: '101764890',
        txId: '98A3EA560C6B3336D348B6C83F0F95ECE4F1F5919E94BD006E5BF3BF264FACFC',
        insertTime: 1661493146000,
        confirmNo: 10,
      },
    ],
  },
});

export const collectFromSubAccount = defineEndpoint({
  id: 'subAccount.collectFromSubAccount',
  area: 'subAccount',
  name: 'collectFromSubAccount',
  summary: 'Collect sub-account assets into the master (repeat while INIT gives -10324)',
  spec: '4.9',
  method: 'POST',
  path: '/openapi/v1/fund-collect/collect-from-sub-account',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  // Spec 1.6: collect-from-sub-account takes a JSON body.
  encoding: 'json',
  idempotent: false,
  params: {
    clientRequestId: p.string({ minLength: 1, maxLength: 200, doc: 'unique request id, max 200 characters' }).req(),
    remark: p.long({ doc: 'remark (LONG in the spec)' }),
  },
  response: zFundCollection,
  example: {
    params: { clientRequestId: '777d3f71-4715-4150-9fd1-d13246d7e02b' },
    response: { clientRequestId: '777d3f71-4715-4150-9fd1-d13246d7e02b', status: 'INIT', comment: '' },
  },
});

export const getFundRecord = defineEndpoint({
  id: 'subAccount.getFundRecord',
  area: 'subAccount',
  name: 'getFundRecord',
  summary: 'Asset collection tasks and their status',
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/fund-collect/get-fund-record',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    clientRequestId: p.string({ maxLength: 200, doc: 'one collection task' }),
    page: p.int({ min: 1, doc: 'page number' }),
    size: p.int({ min: 1, max: 100, defaultValue: 100, doc: 'page size, default 100, max 100' }),
  },
  response: z.array(zFundCollection),
  example: {
    params: { page: 1, size: 100 },
    response: [
      { clientRequestId: '09533266-1fea-11f0-8ff9-2a3efdea066c', comment: '', status: 'SUCCESS' },
      { clientRequestId: '777d3f71-4715-4150-9fd1-d13246d7e02b', comment: '', status: 'PROCESSING' },
    ],
  },
});

export const assetTransactionHistory = defineEndpoint({
  id: 'subAccount.assetTransactionHistory',
  area: 'subAccount',
  name: 'assetTransactionHistory',
  summary: 'Balance changes of one token, 7 days per query (recvWindow under 60000)',
  spec: '4.9',
  method: 'GET',
  path: '/openapi/v1/asset/transaction/history',
  security: 'USER_DATA',
  weight: 10,
  weightReal: uid(20),
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    tokenId: p.string({ doc: 'token, e.g. BTC' }).req(),
    startTime: p.long({ doc: 'from, ms; alone: the 7 days after' }),
    endTime: p.long({ doc: 'to, ms; alone: the 7 days before' }),
    // A UID can exceed 2^53: carried as a decimal string.
    subUserId: p.id({ doc: 'sub-account UID' }),
    pageNum: p.int({ min: 1, max: 1000, defaultValue: 1, doc: 'page, 1-1000, default 1' }),
    pageSize: p.int({ min: 1, max: 100, defaultValue: 20, doc: 'per page, 1-100, default 20' }),
  },
  // Rule 5: the span "cannot exceed 7 days", so exactly 7 days is allowed (maxSpanMs means "under").
  rules: [{ kind: 'maxSpan', start: 'startTime', end: 'endTime', maxSpanMs: 7 * DAY + 1 }],
  // "recvWindow must be under 60000".
  recvWindow: { max: 59_999 },
  response: zAssetTransactionPage,
  example: {
    params: { tokenId: 'BTC', startTime: 1742342400000, endTime: 1742947200000, pageNum: 1, pageSize: 20 },
    response: {
      transfers: [
        {
          txId: '2309rjw0amf0sq9me0gmadsmfoa',
          bizSubject: 'CHAIN_WITHDRAWAL',
          tokenId: 'BTC',
          status: 'success',
          changed: '-0.01',
          time: '1742896126999',
        },
      ],
      meta: { has_next: false, next_page: 2, previous_page: 0 },
    },
  },
});

export const subAccountEndpoints = {
  list,
  create,
  asset,
  universalTransfer,
  subToMaster,
  universalTransferHistory,
  subTransferHistory,
  getIpRestriction,
  addIpRestriction,
  deleteIpRestriction,
  depositAddress,
  depositHistory,
  collectFromSubAccount,
  getFundRecord,
  assetTransactionHistory,
} as const;
