/**
 * Admin routes of accounts' money state (JSON; paths relative to the admin prefix; accounts named
 * by `accountId` or `email`):
 *
 *   POST /phones        {accountId|email, phone} -> {accountId, phone}: a phone number transfers
 *                       can target (sandbox accounts have none by default)
 *   GET  /limits?accountId=|email=  -> {account: {daily, monthly, annually}, p2p: {...}} with remaining
 *   POST /limits        {accountId?|email?, book: account|p2p, period: daily|monthly|annually,
 *                       kind?: cashIn|cashOut|totalWithdraw (default all three), limit} -> {ok: true};
 *                       without an account it changes the default of every account
 *   GET  /transfers?accountId=|email=  -> the transfers the account sent or received (raw records)
 *   GET  /ledger?accountId=|email=&asset=  -> the account's money-ledger entries, oldest first
 */
import { z } from 'zod';
import { zAdminAmount } from '../../admin/admin-amount.ts';
import { defineAdminRoute, type AdminRoute } from '../../admin/admin-registry.ts';
import { moneyLedgerOf } from '../ledger/money-ledger.ts';
import { accountRef, resolveAccount } from '../wallet/admin-account.ts';
import { contactsOf } from './contacts.ts';
import { accountLimitsOf, LIMIT_BOOKS, LIMIT_KINDS, LIMIT_PERIODS } from './limits.ts';
import { transfersOf } from './transfers.ts';

export const accountMoneyAdminRoutes: AdminRoute[] = [
  defineAdminRoute({
    method: 'POST',
    path: '/phones',
    summary: 'Give an account a phone number (a transfer target)',
    body: z.strictObject({ ...accountRef, phone: z.string().regex(/^\+?[\d\s\-.()]{5,24}$/) }),
    handler: ({ body, sandbox }) => {
      const accountId = resolveAccount(sandbox, body);
      return { accountId, phone: contactsOf(sandbox).setPhone(accountId, body.phone) };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    path: '/limits',
    summary: "An account's cash-in/cash-out/withdraw limits with remaining amounts",
    body: z.strictObject(accountRef),
    handler: ({ body, sandbox }) => {
      const id = resolveAccount(sandbox, body);
      const limits = accountLimitsOf(sandbox);
      const now = sandbox.clock.now();
      return { account: limits.view(id, 'account', now), p2p: limits.view(id, 'p2p', now) };
    },
  }),
  defineAdminRoute({
    method: 'POST',
    path: '/limits',
    summary: 'Set a limit of one account or of every account',
    body: z.strictObject({ ...accountRef, book: z.enum(LIMIT_BOOKS), period: z.enum(LIMIT_PERIODS), kind: z.enum(LIMIT_KINDS).optional(), limit: zAdminAmount }),
    handler: ({ body, sandbox }) => {
      const accountId = body.accountId === undefined && body.email === undefined ? undefined : resolveAccount(sandbox, body);
      accountLimitsOf(sandbox).setLimit({ ...body, accountId });
      return { ok: true };
    },
  }),
  defineAdminRoute({
    method: 'GET',
    path: '/transfers',
    summary: 'Transfers an account sent or received',
    body: z.strictObject(accountRef),
    handler: ({ body, sandbox }) => transfersOf(sandbox).visibleTo(resolveAccount(sandbox, body)),
  }),
  defineAdminRoute({
    method: 'GET',
    path: '/ledger',
    summary: "An account's money-ledger entries",
    body: z.strictObject({ ...accountRef, asset: z.string().optional() }),
    handler: ({ body, sandbox }) => moneyLedgerOf(sandbox.services).entries(resolveAccount(sandbox, body), { asset: body.asset }, sandbox.clock.now()),
  }),
];
