/**
 * What the HTTP layer and the admin API need from balances. The matching engine owns balances
 * (`src/core/portfolio/balances.ts`, wired by the engine's sandbox plugin); the server receives an
 * object implementing this port and never keeps balances of its own. Amounts are decimal strings
 * (spec 1.4); `debit` throws rather than letting `free` go negative. The engine's `Balances`
 * (`src/core/portfolio/balances.ts`) satisfies this port as it is (checked in balance-port.test.ts).
 */
export interface BalanceView {
  readonly free: string;
  readonly locked: string;
}

export interface BalanceEntry extends BalanceView {
  readonly asset: string;
}

export interface BalancePort {
  /** Adds `amount` (> 0) to the free balance of `asset`. */
  credit(accountId: string, asset: string, amount: string): void;
  /** Removes `amount` (> 0) from the free balance; throws (nothing changed) when free < amount. */
  debit(accountId: string, asset: string, amount: string): void;
  /** One asset; zeros when the account never held it. */
  get(accountId: string, asset: string): BalanceView;
  /** Every asset the account holds or held, in a stable order. */
  all(accountId: string): BalanceEntry[];
}
