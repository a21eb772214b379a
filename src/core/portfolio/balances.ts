/**
 * Free and locked balances per account per asset, exact (spec 2.7 account balances, the
 * `outboundAccountPosition` f/l fields of protocol notes 4.1).
 *
 * Amounts cross the boundary as decimal strings; inside, each is exact on the 1e-18 grid of
 * amount.ts, held as limbs (limb-amount.ts) and readable as bigint units. `entry()` and its
 * limbs are the fast path for the matching engine, which mutates entries directly inside one
 * synchronous operation; everyone else uses the string or `*Units` methods. An amount of more
 * than 2^53 whole units of an asset is refused (RangeError). Invariants: free >= 0 and
 * locked >= 0 always (every method checks before it writes, so a failed call changes nothing).
 */
import { formatAmount, parseAmount } from './amount.ts';
import { LimbAmount } from './limb-amount.ts';

/**
 * One account's holding of one asset. Mutable on purpose: the engine settles fills in place on
 * the limbs (`f`, `l`: limb-amount.ts, number arithmetic); `free` and `locked` read and write
 * the same values as bigint units for everyone else.
 */
export class BalanceEntry {
  // Assigned in the constructor rather than by field initialisers: a field initialised with an
  // object is typed by V8 with that object's map, and when a later run's entry (a backtest makes
  // its engine anew) stores a LimbAmount whose map has moved on since, the field's type is
  // generalised and every function that read it is deoptimised.
  readonly f: LimbAmount;
  readonly l: LimbAmount;
  readonly accountId: string;
  readonly asset: string;
  constructor(accountId: string, asset: string) {
    this.f = new LimbAmount();
    this.l = new LimbAmount();
    this.accountId = accountId;
    this.asset = asset;
  }

  get free(): bigint {
    return this.f.units;
  }

  set free(v: bigint) {
    this.f.units = v;
  }

  get locked(): bigint {
    return this.l.units;
  }

  set locked(v: bigint) {
    this.l.units = v;
  }
}

export type BalanceSide = 'free' | 'locked';

/** Thrown by debit/lock (free too small) and unlock (locked too small). */
export class InsufficientBalanceError extends Error {
  override readonly name = 'InsufficientBalanceError';
  constructor(
    readonly accountId: string,
    readonly asset: string,
    readonly side: BalanceSide,
    readonly needed: string,
    readonly available: string,
  ) {
    super(`${accountId}: ${side} ${asset} ${available} is less than ${needed}`);
  }
}

export interface BalanceView {
  readonly free: string;
  readonly locked: string;
}

export interface AssetBalance extends BalanceView {
  readonly asset: string;
}

function nonNegative(units: bigint, what: string): bigint {
  if (units < 0n) throw new RangeError(`${what}: ${formatAmount(units)} is negative`);
  return units;
}

export class Balances {
  private readonly byAccount = new Map<string, Map<string, BalanceEntry>>();

  /** The entry, created at zero on first touch (it then shows in `all`). */
  entry(accountId: string, asset: string): BalanceEntry {
    let assets = this.byAccount.get(accountId);
    if (assets === undefined) {
      assets = new Map();
      this.byAccount.set(accountId, assets);
    }
    let e = assets.get(asset);
    if (e === undefined) {
      e = new BalanceEntry(accountId, asset);
      assets.set(asset, e);
    }
    return e;
  }

  /** The entry if it was ever touched; never creates one. */
  peek(accountId: string, asset: string): BalanceEntry | undefined {
    return this.byAccount.get(accountId)?.get(asset);
  }

  get(accountId: string, asset: string): BalanceView {
    const e = this.peek(accountId, asset);
    return e === undefined ? { free: '0', locked: '0' } : { free: e.f.format(), locked: e.l.format() };
  }

  /** Every asset the account ever touched, in first-touch order. */
  all(accountId: string): AssetBalance[] {
    const assets = this.byAccount.get(accountId);
    if (assets === undefined) return [];
    return [...assets.values()].map((e) => ({ asset: e.asset, free: e.f.format(), locked: e.l.format() }));
  }

  accounts(): string[] {
    return [...this.byAccount.keys()];
  }

  credit(accountId: string, asset: string, amount: string): void {
    this.creditUnits(accountId, asset, parseAmount(amount, 'amount'));
  }

  debit(accountId: string, asset: string, amount: string): void {
    this.debitUnits(accountId, asset, parseAmount(amount, 'amount'));
  }

  lock(accountId: string, asset: string, amount: string): void {
    this.lockUnits(accountId, asset, parseAmount(amount, 'amount'));
  }

  unlock(accountId: string, asset: string, amount: string): void {
    this.unlockUnits(accountId, asset, parseAmount(amount, 'amount'));
  }

  creditUnits(accountId: string, asset: string, units: bigint): void {
    this.entry(accountId, asset).free += nonNegative(units, 'credit');
  }

  debitUnits(accountId: string, asset: string, units: bigint): void {
    const e = this.entry(accountId, asset);
    this.need(e, 'free', nonNegative(units, 'debit'));
    e.free -= units;
  }

  /** free -> locked. */
  lockUnits(accountId: string, asset: string, units: bigint): void {
    const e = this.entry(accountId, asset);
    this.need(e, 'free', nonNegative(units, 'lock'));
    e.free -= units;
    e.locked += units;
  }

  /** locked -> free. */
  unlockUnits(accountId: string, asset: string, units: bigint): void {
    const e = this.entry(accountId, asset);
    this.need(e, 'locked', nonNegative(units, 'unlock'));
    e.locked -= units;
    e.free += units;
  }

  /** Move free funds between accounts (transfers; the engine settles fills on entries directly). */
  transferUnits(from: string, to: string, asset: string, units: bigint): void {
    this.debitUnits(from, asset, units);
    this.creditUnits(to, asset, units);
  }

  /** free + locked of `asset` over every account, fee account included (conservation checks). */
  totalUnits(asset: string): bigint {
    let sum = 0n;
    for (const assets of this.byAccount.values()) {
      const e = assets.get(asset);
      if (e !== undefined) sum += e.free + e.locked;
    }
    return sum;
  }

  total(asset: string): string {
    return formatAmount(this.totalUnits(asset));
  }

  private need(e: BalanceEntry, side: BalanceSide, units: bigint): void {
    const have = side === 'free' ? e.free : e.locked;
    if (have < units) throw new InsufficientBalanceError(e.accountId, e.asset, side, formatAmount(units), formatAmount(have));
  }
}
