/**
 * One non-trading balance change, done the same way by every money flow: move the balance, append
 * the ledger entry (spec 2.12), push `balanceUpdate` + `outboundAccountPosition` on the account's
 * user data stream (notes 4.1). A debit larger than the free balance changes nothing and throws
 * `InsufficientFundsError`, so callers map it to their own error (-1131, a failed transfer, a
 * fiat 88010013 envelope ...).
 */
import { dec, toWire } from '../../../core/money/decimal.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { moneyLedgerOf, type LedgerEntry, type LedgerInput } from './money-ledger.ts';

export class InsufficientFundsError extends Error {
  override readonly name = 'InsufficientFundsError';
  constructor(
    readonly asset: string,
    readonly needed: string,
    readonly available: string,
  ) {
    super(`Balance insufficient: ${asset} free ${available} is less than ${needed}`);
  }
}

export interface MoveInput extends LedgerInput {
  /** Push balanceUpdate (default true). */
  push?: boolean | undefined;
  /** Append the ledger entry (default true; false for a reversal whose original entry is marked failed). */
  record?: boolean | undefined;
}

/** Returns the ledger entry (undefined with `record: false`). */
export function moveMoney(state: Pick<SandboxState, 'services'>, input: MoveInput): LedgerEntry | undefined {
  const balances = state.services.balances;
  if (!balances) throw new Error('moveMoney: no balance service is attached to this sandbox');
  const delta = dec(input.delta, 'delta');
  const amount = toWire(delta.abs());
  if (delta.isNegative()) {
    const free = balances.get(input.accountId, input.asset).free;
    if (dec(free).lt(delta.abs())) throw new InsufficientFundsError(input.asset, amount, free);
    balances.debit(input.accountId, input.asset, amount);
  } else if (!delta.isZero()) {
    balances.credit(input.accountId, input.asset, amount);
  }
  const { push, record, ...entryInput } = input;
  const entry = record === false ? undefined : moneyLedgerOf(state.services).record({ ...entryInput, delta: toWire(delta) });
  if (push !== false) {
    state.services.events?.balanceUpdate(
      input.accountId,
      { asset: input.asset, delta: toWire(delta), time: input.time, business: input.bizSubject },
      balances.get(input.accountId, input.asset),
    );
  }
  return entry;
}
