/**
 * The withdrawal address whitelist (spec 4.2 rule 1; notes 6 `GET withdraw/address-whitelist`):
 * per account, entries of coin / network / address / addressTag (+ a display name). Withdraw apply
 * accepts exactly the listed combinations; an absent tag and an empty tag are the same. Entries
 * are added by the admin API (the real service sets them up in its web interface). A persistent
 * part (`wallet.whitelist`): with `--state` the entries survive a restart.
 */
import { z } from 'zod';
import { refill, type Persistent } from '../../persistence/persistent-parts.ts';

export interface WhitelistEntry {
  accountId: string;
  coin: string;
  network: string;
  address: string;
  addressTag: string;
  addressName: string;
}

export interface WhitelistTarget {
  coin: string;
  network: string;
  address: string;
  addressTag?: string | undefined;
}

const same = (e: WhitelistEntry, accountId: string, t: WhitelistTarget) =>
  e.accountId === accountId && e.coin === t.coin.toUpperCase() && e.network === t.network.toUpperCase() && e.address === t.address && e.addressTag === (t.addressTag ?? '');

export interface WhitelistState {
  entries: WhitelistEntry[];
}

export const WHITELIST_STATE: z.ZodType<WhitelistState> = z.object({
  entries: z.array(z.object({ accountId: z.string(), coin: z.string(), network: z.string(), address: z.string(), addressTag: z.string(), addressName: z.string() })),
});

export class WithdrawWhitelist implements Persistent<WhitelistState> {
  private readonly entries: WhitelistEntry[] = [];

  dumpState(): WhitelistState {
    return { entries: this.entries.map((e) => ({ ...e })) };
  }

  restoreState(data: WhitelistState): void {
    refill(this.entries, data.entries);
  }

  /** Adds an entry; the same combination again only renames it. */
  add(accountId: string, t: WhitelistTarget & { addressName?: string | undefined }): WhitelistEntry {
    const existing = this.entries.find((e) => same(e, accountId, t));
    if (existing) {
      if (t.addressName !== undefined) existing.addressName = t.addressName;
      return existing;
    }
    const entry: WhitelistEntry = {
      accountId,
      coin: t.coin.toUpperCase(),
      network: t.network.toUpperCase(),
      address: t.address,
      addressTag: t.addressTag ?? '',
      addressName: t.addressName ?? '',
    };
    this.entries.push(entry);
    return entry;
  }

  remove(accountId: string, t: WhitelistTarget): boolean {
    const i = this.entries.findIndex((e) => same(e, accountId, t));
    if (i >= 0) this.entries.splice(i, 1);
    return i >= 0;
  }

  allows(accountId: string, t: WhitelistTarget): boolean {
    return this.entries.some((e) => same(e, accountId, t));
  }

  list(accountId: string, filter: { coin?: string | undefined; network?: string | undefined; address?: string | undefined } = {}): WhitelistEntry[] {
    return this.entries.filter(
      (e) =>
        e.accountId === accountId &&
        (filter.coin === undefined || e.coin === filter.coin.toUpperCase()) &&
        (filter.network === undefined || e.network === filter.network.toUpperCase()) &&
        (filter.address === undefined || e.address === filter.address),
    );
  }
}

/** Notes 6 wire entry. */
export function whitelistWire(e: WhitelistEntry) {
  return { address: e.address, addressName: e.addressName, addressTag: e.addressTag, coin: e.coin, network: e.network };
}
