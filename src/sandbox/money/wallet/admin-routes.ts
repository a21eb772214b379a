/**
 * Admin routes of the wallet (JSON; paths relative to the admin prefix). Accounts are named by
 * `accountId` or `email`; statuses by name or spec 3.2 number.
 *
 *   POST   /deposits                 {accountId|email, coin, network, amount, txId?, confirmations?, status?}
 *                                    -> the deposit (+accountId, minConfirm). PROCESSING until
 *                                    confirmations >= the network's minConfirm; SUCCESS credits
 *                                    the balance and pushes balanceUpdate CHAIN_DEPOSIT.
 *   POST   /deposits/:id             {confirmations? (set), addConfirmations?, status?: PROCESSING|
 *                                    SUCCESS|FAILED|NEED_FILL_DATA} -> the deposit; 409 once final
 *   GET    /deposits?accountId=|email=     -> every deposit (of one account)
 *   GET    /withdrawals?accountId=|email=  -> every withdrawal, settled to the current time
 *   POST   /withdrawals/settings     {autoCompleteMs: number|null} -> {autoCompleteMs}
 *                                    (null: withdrawals stay PROCESSING until settled below)
 *   POST   /withdrawals/:id          {status: SUCCESS|FAILED, txId?, info?} -> the withdrawal;
 *                                    FAILED refunds amount + fee; 409 once final
 *   GET    /withdraw-whitelist?accountId=|email=  -> the account's entries
 *   POST   /withdraw-whitelist       {accountId|email, coin, network, address, addressTag?, addressName?}
 *                                    -> the entry (address checked against the network's addressRegex)
 *   DELETE /withdraw-whitelist       {accountId|email, coin, network, address, addressTag?} -> {removed}
 */
import { z } from 'zod';
import { zAdminAmount } from '../../admin/admin-amount.ts';
import { DEPOSIT_STATUS, WITHDRAW_STATUS } from '../../../exchange/codecs/wallet.ts';
import { AdminError, defineAdminRoute, type AdminRoute } from '../../admin/admin-registry.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { accountRef, resolveAccount } from './admin-account.ts';
import { requireNetwork } from './coins.ts';
import { depositWire, type DepositRecord, type DepositStatus } from './deposits.ts';
import { walletOf } from './wallet-service.ts';
import { withdrawalWire, type WithdrawalRecord, type WithdrawStatus } from './withdrawals.ts';

const statusOf = <T extends Record<string, number>>(table: T) =>
  z.union([z.enum(Object.keys(table) as [string, ...string[]]), z.number().int()]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : table[v];
    if (n === undefined || !Object.values(table).includes(n)) {
      ctx.addIssue({ code: 'custom', message: `one of ${Object.keys(table).join(', ')}` });
      return z.NEVER;
    }
    return n as T[keyof T];
  });

const depositStatus = statusOf(DEPOSIT_STATUS);
const withdrawStatus = statusOf(WITHDRAW_STATUS);
const target = { coin: z.string().min(1), network: z.string().min(1), address: z.string().min(1), addressTag: z.string().optional() };

const depositView = (d: DepositRecord) => ({ ...depositWire(d), accountId: d.accountId, minConfirm: d.minConfirm });
const withdrawalView = (w: WithdrawalRecord) => ({ ...withdrawalWire(w), accountId: w.accountId, total: w.total });
const optionalAccount = (state: SandboxState, q: { accountId?: string | undefined; email?: string | undefined }) =>
  q.accountId === undefined && q.email === undefined ? undefined : resolveAccount(state, q);

export const walletAdminRoutes: AdminRoute[] = [
  defineAdminRoute({
    method: 'POST',
    path: '/deposits',
    summary: 'Create a chain deposit (credited once confirmed)',
    body: z.strictObject({ ...accountRef, coin: z.string().min(1), network: z.string().min(1), amount: zAdminAmount, txId: z.string().min(1).optional(), confirmations: z.number().int().nonnegative().optional(), status: depositStatus.optional() }),
    handler: ({ body, sandbox }) => {
      const accountId = resolveAccount(sandbox, body);
      return depositView(walletOf(sandbox).deposits.create({ ...body, accountId, status: body.status as DepositStatus | undefined }));
    },
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/deposits/:id',
    summary: 'Advance confirmations or set the status of a deposit',
    body: z.strictObject({ confirmations: z.number().int().nonnegative().optional(), addConfirmations: z.number().int().nonnegative().optional(), status: depositStatus.optional() }),
    handler: ({ body, params, sandbox }) => depositView(walletOf(sandbox).deposits.update(params['id'] ?? '', { ...body, status: body.status as DepositStatus | undefined })),
  }),
  defineAdminRoute({
    method: 'GET',
    path: '/deposits',
    summary: 'Deposits, of every account or one',
    body: z.strictObject(accountRef),
    handler: ({ body, sandbox }) => walletOf(sandbox).deposits.all(optionalAccount(sandbox, body)).map(depositView),
  }),
  defineAdminRoute({
    method: 'GET',
    path: '/withdrawals',
    summary: 'Withdrawals, of every account or one',
    body: z.strictObject(accountRef),
    handler: ({ body, sandbox }) => walletOf(sandbox).withdrawals.all(sandbox.clock.now(), optionalAccount(sandbox, body)).map(withdrawalView),
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/withdrawals/settings',
    summary: 'How long withdrawals stay PROCESSING (null: until the admin settles them)',
    body: z.strictObject({ autoCompleteMs: z.number().int().nonnegative().nullable() }),
    handler: ({ body, sandbox }) => {
      walletOf(sandbox).withdrawals.autoCompleteMs = body.autoCompleteMs;
      return { autoCompleteMs: body.autoCompleteMs };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/withdrawals/:id',
    summary: 'Settle a withdrawal as SUCCESS or FAILED (FAILED refunds it)',
    body: z.strictObject({ status: withdrawStatus, txId: z.string().min(1).optional(), info: z.string().optional() }),
    handler: ({ body, params, sandbox }) =>
      withdrawalView(walletOf(sandbox).withdrawals.setStatus(params['id'] ?? '', body.status as WithdrawStatus, body, sandbox.clock.now())),
  }),
  defineAdminRoute({
    method: 'GET',
    path: '/withdraw-whitelist',
    summary: "An account's withdrawal address whitelist",
    body: z.strictObject(accountRef),
    handler: ({ body, sandbox }) => walletOf(sandbox).whitelist.list(resolveAccount(sandbox, body)),
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/withdraw-whitelist',
    summary: 'Add a withdrawal address to the whitelist',
    body: z.strictObject({ ...accountRef, ...target, addressName: z.string().optional() }),
    handler: ({ body, sandbox }) => {
      const accountId = resolveAccount(sandbox, body);
      const { asset, net } = requireNetwork(sandbox.config, body.coin, body.network);
      if (net.addressRegex && !new RegExp(net.addressRegex).test(body.address)) throw new AdminError(400, `address does not match the ${net.network} addressRegex ${net.addressRegex}`);
      if (net.memoRegex && body.addressTag && !new RegExp(net.memoRegex).test(body.addressTag)) throw new AdminError(400, `addressTag does not match the memoRegex ${net.memoRegex}`);
      return walletOf(sandbox).whitelist.add(accountId, { ...body, coin: asset.coin, network: net.network });
    },
  }),
  defineAdminRoute({
    method: 'DELETE',
    path: '/withdraw-whitelist',
    summary: 'Remove a withdrawal address from the whitelist',
    body: z.strictObject({ ...accountRef, ...target }),
    handler: ({ body, sandbox }) => ({ removed: walletOf(sandbox).whitelist.remove(resolveAccount(sandbox, body), body) }),
  }),
];
