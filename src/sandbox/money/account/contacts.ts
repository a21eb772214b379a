/**
 * How a transfer's `target_address` (spec 4.3: recipient phone number or email) finds a sandbox
 * account. E-mails come from the account registry; sandbox accounts have no phone numbers, so the
 * admin API assigns them (`POST /phones`). Phone numbers compare without spaces, dashes, dots
 * and parentheses (`+63 917-000-0000` = `+639170000000`). Published as `services.contacts` so
 * payment requests can resolve payer contacts the same way.
 */
import type { SandboxState } from '../../http/route-types.ts';

export const normalizePhone = (phone: string): string => phone.replace(/[\s\-.()]/g, '');

export class AccountContacts {
  private readonly phones = new Map<string, string>();

  setPhone(accountId: string, phone: string): string {
    const p = normalizePhone(phone);
    for (const [k, v] of this.phones) if (v === accountId) this.phones.delete(k);
    this.phones.set(p, accountId);
    return p;
  }

  phoneOf(accountId: string): string | undefined {
    for (const [k, v] of this.phones) if (v === accountId) return k;
    return undefined;
  }

  /** The account an e-mail or phone number belongs to. */
  resolve(state: Pick<SandboxState, 'accounts'>, address: string): string | undefined {
    const text = address.trim();
    if (text.includes('@')) return state.accounts.findByEmail(text)?.id;
    return this.phones.get(normalizePhone(text));
  }
}

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    contacts?: AccountContacts;
  }
}

export function contactsOf(state: Pick<SandboxState, 'services'>): AccountContacts {
  return (state.services.contacts ??= new AccountContacts());
}
