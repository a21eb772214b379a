/**
 * The wallet's state as a sandbox service (`services.wallet`), so other areas reuse it: the
 * sub-account area serves a sub-account's deposit address (`depositAddressFor`) and deposit
 * history (`wallet.deposits.list`) from here.
 */
import type { SandboxState } from '../../http/route-types.ts';
import { DepositBook } from './deposits.ts';
import { WithdrawWhitelist } from './whitelist.ts';
import { WithdrawalBook } from './withdrawals.ts';

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
    state.services.wallet = { whitelist, deposits: new DepositBook(state), withdrawals: new WithdrawalBook(state, whitelist) };
  }
  return state.services.wallet;
}
