/**
 * How a transfer's `target_address` (spec 4.3: recipient phone number or email) finds a sandbox
 * account. E-mails come from the account registry; sandbox accounts have no phone numbers, so the
 * admin API assigns them (`POST /phones`). Phone numbers compare without spaces, dashes, dots
 * and parentheses (`+63 917-000-0000` = `+639170000000`). Published as `services.contacts` so
 * payment requests can resolve payer contacts the same way. The phone numbers are a persistent
 * part (`account.contacts`): with `--state` they survive a restart.
 */
import { z } from 'zod';
import type { SandboxState } from '../../http/route-types.ts';
import { persistentPartsOf, type Persistent } from '../../persistence/persistent-parts.ts';

export const normalizePhone = (phone: string): string => phone.replace(/[\s\-.()]/g, '');

export interface ContactsState {
  /** [normalized phone, account id]. */
  phones: [string, string][];
}

export const CONTACTS_STATE: z.ZodType<ContactsState> = z.object({ phones: z.array(z.tuple([z.string(), z.string()])) });

export class AccountContacts implements Persistent<ContactsState> {
  private readonly phones = new Map<string, string>();

  dumpState(): ContactsState {
    return { phones: [...this.phones] };
  }

  restoreState(data: ContactsState): void {
    this.phones.clear();
    for (const [phone, accountId] of data.phones) this.phones.set(phone, accountId);
  }

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
  if (state.services.contacts === undefined) {
    const contacts = new AccountContacts();
    state.services.contacts = contacts;
    persistentPartsOf(state.services).register('account.contacts', CONTACTS_STATE, contacts);
  }
  return state.services.contacts;
}
