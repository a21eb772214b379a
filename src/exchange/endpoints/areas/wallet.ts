/**
 * Spec 4.2 Wallet (SIGNED, USER_DATA): coin configuration, deposit addresses, withdrawals, deposit
 * and withdrawal history. Plus notes 6 withdraw address whitelist.
 */
import { z } from 'zod';
import { zCoinConfig, zDepositAddress, zDepositRecord, zWhitelistedAddress, zWithdrawApplied, zWithdrawRecord } from '../../codecs/wallet.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';

const DAY_MS = 86_400_000;

/** Both histories: the span must be under 90 days when startTime and endTime are both sent (rule 2). */
const historySpan = { kind: 'maxSpan', start: 'startTime', end: 'endTime', maxSpanMs: 90 * DAY_MS } as const;

const historyPaging = {
  startTime: p.long({ doc: 'ms; defaults to 90 days before now' }),
  endTime: p.long({ doc: 'ms; defaults to now' }),
  offset: p.int({ min: 0, defaultValue: 0 }),
  // min 1: a negative limit would otherwise slice from the end (-1 hid the newest record).
  limit: p.long({ min: 1, max: 1000, defaultValue: 1000 }),
};

/** The client id of a withdrawal (spec 8.13: max length 30). */
const withdrawOrderId = () => p.string({ maxLength: 30, doc: 'client id of the withdrawal, up to 30 characters' });

export const coinConfig = defineEndpoint({
  id: 'wallet.coinConfig',
  area: 'wallet',
  name: 'coinConfig',
  summary: 'Coins with balances and their deposit/withdrawal networks',
  spec: '4.2',
  method: 'GET',
  path: '/openapi/wallet/v1/config/getall',
  security: 'USER_DATA',
  weight: 10,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {},
  response: z.array(zCoinConfig),
  example: {
    params: {},
    response: [
      {
        coin: 'BTC',
        name: 'Bitcoin',
        depositAllEnable: true,
        withdrawAllEnable: true,
        free: '0.01250000',
        locked: '0.00100000',
        legalMoney: false,
        transferPrecision: '8',
        transferMinQuantity: '0.00000001',
        networkList: [
          {
            addressRegex: '^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,62}$',
            memoRegex: '',
            network: 'BTC',
            name: 'Bitcoin',
            depositEnable: true,
            minConfirm: 1,
            unLockConfirm: 2,
            withdrawDesc: '',
            withdrawEnable: true,
            withdrawFee: '0.0005',
            withdrawIntegerMultiple: '0.00000001',
            withdrawMax: '100',
            withdrawMin: '0.001',
            sameAddress: false,
          },
        ],
      },
    ],
  },
});

export const depositAddress = defineEndpoint({
  id: 'wallet.depositAddress',
  area: 'wallet',
  name: 'depositAddress',
  summary: 'Deposit address of a coin on a network',
  spec: '4.2',
  method: 'GET',
  path: '/openapi/wallet/v1/deposit/address',
  security: 'USER_DATA',
  weight: 10,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    coin: p.string().req(),
    network: p.string({ doc: 'a network of the coin configuration' }).req(),
  },
  response: zDepositAddress,
  example: {
    params: { coin: 'XRP', network: 'XRP' },
    response: { coin: 'XRP', address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY', addressTag: '1837465920' },
  },
});

export const withdraw = defineEndpoint({
  id: 'wallet.withdraw',
  area: 'wallet',
  name: 'withdraw',
  summary: 'Withdraw to an address of the withdrawal whitelist',
  spec: '4.2',
  method: 'POST',
  path: '/openapi/wallet/v1/withdraw/apply',
  security: 'USER_DATA',
  weight: [{ pool: 'UID', weight: 100 }],
  envelope: 'bare',
  encoding: 'form',
  idempotent: false,
  clientId: { param: 'withdrawOrderId', maxLength: 30, charset: 'token' },
  params: {
    coin: p.string().req(),
    network: p.string().req(),
    address: p.string().req(),
    addressTag: p.string({ doc: 'secondary identifier (memo) for coins such as XRP, XMR' }),
    amount: p.decimal().req(),
    withdrawOrderId: withdrawOrderId(),
  },
  response: zWithdrawApplied,
  example: {
    params: { coin: 'XRP', network: 'XRP', address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY', addressTag: '1837465920', amount: '25.5', withdrawOrderId: 'hy-w-1538323200000' },
    response: { id: '459165282044051456' },
  },
});

export const depositHistory = defineEndpoint({
  id: 'wallet.depositHistory',
  area: 'wallet',
  name: 'depositHistory',
  summary: 'Deposit records, oldest first',
  spec: '4.2',
  method: 'GET',
  path: '/openapi/wallet/v1/deposit/history',
  security: 'USER_DATA',
  weight: 2,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    coin: p.string(),
    txId: p.string(),
    status: p.int({ min: 0, max: 3, doc: '0 processing, 1 success, 2 failed, 3 travel-rule data needed' }),
    statuses: p.string({ pattern: /^[0-3](,[0-3])*$/, patternText: 'a comma list of statuses 0-3 such as 1,3' }),
    ...historyPaging,
  },
  rules: [{ kind: 'notBoth', params: ['status', 'statuses'] }, historySpan],
  response: z.array(zDepositRecord),
  example: {
    params: { coin: 'BTC', statuses: '1,3', startTime: 1538323200000, endTime: 1540915200000 },
    response: [
      {
        id: 'd_769800519366885376',
        amount: '0.015',
        coin: 'BTC',
        network: 'BTC',
        status: 1,
        address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
        addressTag: '',
        txId: '5a2c4a6f3e0c1b7d9e8f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d',
        insertTime: 1538323261000,
        confirmNo: 3,
      },
    ],
  },
});

export const withdrawHistory = defineEndpoint({
  id: 'wallet.withdrawHistory',
  area: 'wallet',
  name: 'withdrawHistory',
  summary: 'Withdrawal records, oldest first',
  spec: '4.2',
  method: 'GET',
  path: '/openapi/wallet/v1/withdraw/history',
  security: 'USER_DATA',
  weight: 2,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: {
    coin: p.string(),
    withdrawOrderId: withdrawOrderId(),
    status: p.int({ min: 0, max: 2, doc: '0 processing, 1 success, 2 failed' }),
    ...historyPaging,
  },
  rules: [
    historySpan,
    // Rule 4: with withdrawOrderId the window shrinks to 7 days (no times: the last 7 days).
    { kind: 'maxSpan', start: 'startTime', end: 'endTime', maxSpanMs: 7 * DAY_MS, when: 'withdrawOrderId' },
  ],
  response: z.array(zWithdrawRecord),
  example: {
    params: { coin: 'XRP', withdrawOrderId: 'hy-w-1538323200000' },
    response: [
      {
        id: '459165282044051456',
        amount: '25.5',
        transactionFee: '0.25',
        coin: 'XRP',
        status: 1,
        address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY',
        addressTag: '1837465920',
        txId: 'C3F2B1A0E9D8C7B6A5F4E3D2C1B0A9F8E7D6C5B4A3F2E1D0C9B8A7F6E5D4C3B2',
        applyTime: 1538323200000,
        network: 'XRP',
        withdrawOrderId: 'hy-w-1538323200000',
        info: '',
        confirmNo: 1,
      },
    ],
  },
});

export const withdrawAddressWhitelist = defineEndpoint({
  id: 'wallet.withdrawAddressWhitelist',
  area: 'wallet',
  name: 'withdrawAddressWhitelist',
  summary: 'Whitelisted withdrawal addresses (withdraw apply accepts only these)',
  spec: 'notes 6',
  method: 'GET',
  path: '/openapi/wallet/v1/withdraw/address-whitelist',
  security: 'USER_DATA',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: true,
  params: { coin: p.string(), network: p.string(), address: p.string() },
  response: z.array(zWhitelistedAddress),
  example: {
    params: { coin: 'XRP' },
    response: [
      { address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY', addressName: 'cold storage', addressTag: '1837465920', coin: 'XRP', network: 'XRP' },
    ],
  },
});

export const walletEndpoints = {
  coinConfig,
  depositAddress,
  withdraw,
  depositHistory,
  withdrawHistory,
  withdrawAddressWhitelist,
} as const;
