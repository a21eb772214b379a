/**
 * The wallet's state as a sandbox service (`services.wallet`), so other areas reuse it: the
 * sub-account area serves a sub-account's deposit address (`depositAddressFor`) and deposit
 * history (`wallet.deposits.list`) from here. Its three books are persistent parts
 * (`wallet.deposits`, `wallet.withdrawals`, `wallet.whitelist`).
 */
import type { SandboxState } from '../../http/route-types.ts';
import { persistentPartsOf } from '../../persistence/persistent-parts.ts';
import { DEPOSITS_STATE, DepositBook } from './deposits.ts';
import { WHITELIST_STATE, WithdrawWhitelist } from './whitelist.ts';
import { WITHDRAWALS_STATE, WithdrawalBook } from './withdrawals.ts';

export interface WalletService {
  deposits: DepositBook;
  withdrawals: WithdrawalBook;
  whitelist: WithdrawWhitelist;
}

declare module '../../http/route-types.ts' {
  interface SandboxServices {
    wallet?: WalletService;
  }
}

/** The sandbox's wallet, created on first use. */
export function walletOf(state: SandboxState): WalletService {
  if (!state.services.wallet) {
    const whitelist = new WithdrawWhitelist();
    const wallet: WalletService = { whitelist, deposits: new DepositBook(state), withdrawals: new WithdrawalBook(state, whitelist) };
    state.services.wallet = wallet;
    const parts = persistentPartsOf(state.services);
    parts.register('wallet.deposits', DEPOSITS_STATE, wallet.deposits);
    parts.register('wallet.withdrawals', WITHDRAWALS_STATE, wallet.withdrawals);
    parts.register('wallet.whitelist', WHITELIST_STATE, wallet.whitelist);
  }
  return state.services.wallet;
}
