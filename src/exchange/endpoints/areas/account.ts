/**
 * Spec 4.3 Account and transfers (SIGNED, USER_DATA): account information, crypto-account balances,
 * account-to-account transfers (v3). Plus notes 6 transfers v4 and api-keys.
 *
 * Spec 4.3 lists `recvWindow LONG req` for crypto-accounts and the transfer query: their rows
 * say so in `recvWindow` (not among the params: the client sends `timestamp` and `recvWindow` on
 * every signed call, so the requirement is always met; the sandbox enforces it).
 */
import { z } from 'zod';
import { zAccount, zApiKeyInfo, zCreateTransferResponse, zCryptoAccounts, zTransferList } from '../../codecs/account.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint, type ClientIdTerms } from '../types.ts';

const limits = (cashIn: string, cashOut: string, withdraw: string) => ({
  cashInLimit: cashIn,
  cashInRemaining: cashIn,
  cashOutLimit: cashOut,
  cashOutRemaining: cashOut,
  totalWithdrawLimit: withdraw,
  totalWithdrawRemaining: withdraw,
});

/** client_transfer_id: "no duplicates"; spec 8.13 bounds it at 100 characters (query side). */
const TRANSFER_CLIENT_ID: ClientIdTerms = { param: 'client_transfer_id', maxLength: 100, charset: 'token' };

const transferParams = {
  client_transfer_id: p.string({ doc: 'client id; a duplicate is rejected; generated when omitted' }),
  account: p.string({ doc: 'token to transfer (asset code) or a balance id' }).req(),
  target_address: p.string({ doc: 'recipient phone number or email' }).req(),
  amount: p.decimal().req(),
  message: p.string(),
  // Notes 6: v3 and v4 accept it and echo it back.
  customSenderName: p.string(),
};

const transferExample = {
  params: { client_transfer_id: 'hy-t-1538323200000', account: 'PHP', target_address: 'test@example.com', amount: '1', message: 'lunch' },
  response: {
    transfer: {
      id: '7a2e9c40f3b14c3a9e5d1b6f0c8a2d4e',
      status: 'success',
      account: 'PHP',
      target_address: 'test@example.com',
      amount: '1',
      exchange: null,
      payment: null,
      client_transfer_id: 'hy-t-1538323200000',
      message: 'lunch',
      errorMessage: null,
    },
  },
} as const;

export const account = defineEndpoint({
  id: 'account.account',
  area: 'account',
  name: 'account',
  summary: 'Account flags, balances and cash-in/cash-out limits',
  spec: '4.3',
  method: 'GET',
  path: '/openapi/v1/account',
  security: 'USER_DATA',
  weight: 10,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {},
  response: zAccount,
  example: {
    params: {},
    response: {
      accountType: 'SPOT',
      canDeposit: true,
      canTrade: true,
      canWithdraw: true,
      balances: [
        { asset: 'BTC', free: '0.01250000', locked: '0.00100000' },
        { asset: 'PHP', free: '125000.55', locked: '3425.00' },
      ],
      token: 'PHP',
      daily: limits('500000', '500000', '500000'),
      monthly: limits('10000000', '10000000', '10000000'),
      annually: limits('120000000', '120000000', '120000000'),
      updateTime: 1538323200012,
      email: 'test@example.com',
      enableWithdrawWhitelist: true,
      p2pDaily: limits('100000', '100000', '100000'),
      p2pMonthly: limits('1000000', '1000000', '1000000'),
      p2pAnnually: limits('12000000', '12000000', '12000000'),
    },
  },
});

export const cryptoAccounts = defineEndpoint({
  id: 'account.cryptoAccounts',
  area: 'account',
  name: 'cryptoAccounts',
  summary: 'Balances per crypto account (ids usable as transfer account)',
  spec: '4.3',
  method: 'GET',
  path: '/openapi/account/v3/crypto-accounts',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { currency: p.string() },
  recvWindow: { required: true },
  response: zCryptoAccounts,
  example: {
    params: { currency: 'PHP' },
    response: {
      'crypto-accounts': [
        { id: '1451431230880900352', name: 'PHP', currency: 'PHP', balance: '125000.55', pending_balance: '0' },
      ],
    },
  },
});

export const createTransfer = defineEndpoint({
  id: 'account.createTransfer',
  area: 'account',
  name: 'createTransfer',
  summary: 'Transfer to another account by phone number or email (v3)',
  spec: '4.3',
  method: 'POST',
  path: '/openapi/transfer/v3/transfers',
  security: 'USER_DATA',
  weight: 50,
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  clientId: TRANSFER_CLIENT_ID,
  params: transferParams,
  response: zCreateTransferResponse,
  example: transferExample,
});

export const getTransfers = defineEndpoint({
  id: 'account.getTransfers',
  area: 'account',
  name: 'getTransfers',
  summary: 'One transfer by id or client id, else a page of transfers',
  spec: '4.3',
  method: 'GET',
  path: '/openapi/transfer/v3/transfers/{id?}',
  security: 'USER_DATA',
  weight: 10,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    id: p.string({ inPath: true, doc: 'takes precedence over client_transfer_id and the list filters' }),
    client_transfer_id: p.string({ maxLength: 100 }),
    page: p.int({ min: 1, defaultValue: 1 }),
    per_page: p.int({ min: 1, max: 2000, defaultValue: 2000 }),
    from_address: p.string(),
    to_address: p.string(),
  },
  rules: [{ kind: 'notBoth', params: ['from_address', 'to_address'] }],
  recvWindow: { required: true },
  response: zTransferList,
  example: {
    params: { page: 1, per_page: 2 },
    response: {
      transfers: [
        {
          id: '7a2e9c40f3b14c3a9e5d1b6f0c8a2d4e',
          client_transfer_id: 'hy-t-1538323200000',
          account: 'PHP',
          amount: '1',
          fee_amount: '0',
          currency: 'PHP',
          sourceAddress: '+639170000000',
          target_address: 'test@example.com',
          payment: null,
          type: 2,
          status: 'success',
          message: 'lunch',
          created_at: '2018-09-30T16:00:00.012Z',
        },
      ],
      meta: { total_count: 1, next_page: 2, previous_page: 0 },
    },
  },
});

export const createTransferV4 = defineEndpoint({
  id: 'account.createTransferV4',
  area: 'account',
  name: 'createTransferV4',
  summary: 'Transfer as v3, but errors are always JSON',
  spec: 'notes 6',
  method: 'POST',
  path: '/openapi/transfer/v4/transfers',
  security: 'USER_DATA',
  weight: 50,
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  clientId: TRANSFER_CLIENT_ID,
  params: transferParams,
  response: zCreateTransferResponse,
  example: transferExample,
});

export const apiKeys = defineEndpoint({
  id: 'account.apiKeys',
  area: 'account',
  name: 'apiKeys',
  summary: "The account's API keys, permissions and IP restrictions",
  spec: 'notes 6',
  method: 'GET',
  path: '/openapi/v1/api-keys',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {},
  response: z.array(zApiKeyInfo),
  example: {
    params: {},
    response: [
      {
        apiKey: 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW',
        apiName: 'halyard',
        apiType: ['Read only', 'Enable Spot'],
        createTime: '1538323200000',
        ipAccessRestrictions: ['203.0.113.7'],
        status: 'ENABLE',
      },
    ],
  },
});

export const accountEndpoints = { account, cryptoAccounts, createTransfer, getTransfers, createTransferV4, apiKeys } as const;
