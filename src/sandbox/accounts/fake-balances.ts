/**
 * FOR TESTS ONLY: a tiny in-memory BalancePort so the HTTP layer can be tested before (and apart
 * from) the engine. The sandbox never uses it on its own; production wiring injects the engine's.
 */
import { dec, toWire } from '../../core/money/decimal.ts';
import type { BalanceEntry, BalancePort, BalanceView } from './balance-port.ts';

export class FakeBalances implements BalancePort {
  private readonly rows = new Map<string, Map<string, { free: string; locked: string }>>();

  credit(accountId: string, asset: string, amount: string): void {
    const row = this.row(accountId, asset);
    row.free = toWire(dec(row.free).plus(dec(amount)));
  }

  debit(accountId: string, asset: string, amount: string): void {
    const row = this.row(accountId, asset);
    if (dec(row.free).lt(dec(amount))) throw new RangeError(`insufficient ${asset}: free ${row.free} < ${amount}`);
    row.free = toWire(dec(row.free).minus(dec(amount)));
  }

  get(accountId: string, asset: string): BalanceView {
    const row = this.rows.get(accountId)?.get(asset);
    return { free: row?.free ?? '0', locked: row?.locked ?? '0' };
  }

  all(accountId: string): BalanceEntry[] {
    return [...(this.rows.get(accountId) ?? new Map<string, { free: string; locked: string }>())].map(([asset, r]) => ({ asset, ...r }));
  }

  private row(accountId: string, asset: string): { free: string; locked: string } {
    let byAsset = this.rows.get(accountId);
    if (!byAsset) this.rows.set(accountId, (byAsset = new Map()));
    let row = byAsset.get(asset);
    if (!row) byAsset.set(asset, (row = { free: '0', locked: '0' }));
    return row;
  }
}
