/**
 * Admin bodies name an account by `accountId` (UID) or `email`; this resolves either (404 when
 * unknown, 400 when neither is sent). Shared by the money areas' admin routes.
 */
import { z } from 'zod';
import { AdminError } from '../../admin/admin-registry.ts';
import type { SandboxState } from '../../http/route-types.ts';

export const accountRef = { accountId: z.string().optional(), email: z.string().optional() };

export function resolveAccount(state: SandboxState, ref: { accountId?: string | undefined; email?: string | undefined }): string {
  if (ref.accountId !== undefined) {
    const a = state.accounts.getAccount(ref.accountId);
    if (!a) throw new AdminError(404, `no account with uid ${ref.accountId}`);
    return a.id;
  }
  if (ref.email !== undefined) {
    const a = state.accounts.findByEmail(ref.email);
    if (!a) throw new AdminError(404, `no account with e-mail ${ref.email}`);
    return a.id;
  }
  throw new AdminError(400, 'accountId or email is required');
}
