/**
 * Moves free balance between two accounts of one family the way every money flow does
 * (ledger/move-money.ts): through the engine's balances (conserved, visible to trading at once),
 * one money-ledger entry per side (so `asset/transaction/history` shows the transfer, txId = the
 * transfer or collection id), and a balanceUpdate + outboundAccountPosition on both sides' user
 * data streams. BS `OTHERS`: notes 4.1 lists no dedicated code for internal sub-account moves.
 */
import { dec, toWire, type Dec } from '../../../core/money/decimal.ts';
import type { SandboxAccount } from '../../contracts.ts';
import type { HandlerContext, SandboxState } from '../../http/route-types.ts';
import { InsufficientFundsError, moveMoney } from '../ledger/move-money.ts';
import { subAccountErrors } from './errors.ts';

/** Balances are kept in units of 1e-18 (core/portfolio/amount.ts). */
const MAX_PLACES = 18;

/** A positive amount of a known asset, or -1025 naming the parameter. */
export function checkAmount(ctx: HandlerContext, asset: string, amount: string): Dec {
  const known = new Set(ctx.sandbox.config.assets.map((a) => a.coin));
  for (const s of ctx.sandbox.config.symbols) known.add(s.baseAsset).add(s.quoteAsset);
  if (!known.has(asset)) throw subAccountErrors.invalid('asset', `unknown asset '${asset}'`);
  const value = dec(amount, 'amount');
  if (value.lte(0)) throw subAccountErrors.invalid('amount', 'must be greater than 0');
  if (value.decimalPlaces() > MAX_PLACES) throw subAccountErrors.invalid('amount', `at most ${MAX_PLACES} decimal places`);
  return value;
}

export function moveFunds(state: SandboxState, move: { from: SandboxAccount; to: SandboxAccount; asset: string; amount: Dec; time: number; txId: string }): void {
  if (!state.services.balances) throw subAccountErrors.noBalances();
  const { from, to, asset, amount, time, txId } = move;
  const common = { asset, time, txId, bizSubject: 'OTHERS' as const, status: 'success' as const };
  try {
    moveMoney(state, { ...common, accountId: from.id, delta: toWire(amount.neg()) });
  } catch (err) {
    if (err instanceof InsufficientFundsError) throw subAccountErrors.insufficient(asset);
    throw err;
  }
  moveMoney(state, { ...common, accountId: to.id, delta: toWire(amount) });
}
