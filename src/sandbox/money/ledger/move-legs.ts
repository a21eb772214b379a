/**
 * Multi-leg balance moves of the money areas (convert, fiat cash-out, payment requests, invoices,
 * legacy sell orders), all through `services.balances`, each followed by the
 * user data stream's balanceUpdate + outboundAccountPosition (`services.events`, notes 4.1).
 *
 * A move is a list of signed legs applied all-or-nothing: every debit is checked before anything
 * changes. The house account (the exchange itself, the account that also collects trading fees) is
 * the counterparty of conversions and the collector of cash-out fees; when the house lacks an asset
 * it pays out, the shortfall is minted first (the desk's outside liquidity), so a conversion never
 * fails on the house's side. Users never get events for house legs.
 *
 * Every user leg is also appended to the money ledger (`money/ledger`, spec 2.12 asset transaction
 * history) under the move's txId, unless the move says otherwise (a refund whose original entry is
 * marked failed instead). `moveMoney` (move-money.ts) moves one leg of a user account; `moveLegs`
 * is atomic over several legs and keeps house legs out of the record.
 */
import { D, toWire, type Dec } from '../../../core/money/decimal.ts';
import type { BalanceUpdateEvent } from '../../contracts.ts';
import { FEE_ACCOUNT_ID } from '../../exchange-core/plugin.ts';
import type { SandboxState } from '../../http/route-types.ts';
import { VenueError } from '../../http/venue-error.ts';
import { moneyLedgerOf, type LedgerStatus } from './money-ledger.ts';

export const HOUSE_ACCOUNT_ID = FEE_ACCOUNT_ID;

export interface Leg {
  accountId: string;
  asset: string;
  /** Signed: negative debits the free balance, positive credits it. */
  delta: Dec;
}

export interface MoveNote {
  time: number;
  business: BalanceUpdateEvent['BS'];
  /** The business id (order, request, invoice id): the ledger's txId. */
  txId: string;
  /** Ledger status of the user legs (default success); false: no ledger entry. */
  ledger?: LedgerStatus | false;
}

/** A user's free balance is below what a move takes. Nothing was changed. */
export class ShortBalanceError extends Error {
  constructor(
    readonly accountId: string,
    readonly asset: string,
    readonly needed: string,
    readonly available: string,
  ) {
    super(`${accountId}: free ${asset} ${available} is less than ${needed}`);
    this.name = 'ShortBalanceError';
  }
}

export function balancesOf(state: SandboxState) {
  const balances = state.services.balances;
  if (!balances) throw new VenueError(-1000, 'The sandbox has no balance service attached.', 500);
  return balances;
}

/** Free balance as a Decimal. */
export function freeOf(state: SandboxState, accountId: string, asset: string): Dec {
  return new D(balancesOf(state).get(accountId, asset).free);
}

/** Apply `legs` atomically; throws ShortBalanceError (nothing changed) when a user cannot pay. */
export function moveLegs(state: SandboxState, legs: readonly Leg[], note: MoveNote): void {
  const balances = balancesOf(state);
  const net = new Map<string, Leg>();
  for (const leg of legs) {
    if (leg.delta.isZero()) continue;
    const k = `${leg.accountId}\u0000${leg.asset}`;
    const prev = net.get(k);
    net.set(k, prev ? { ...prev, delta: prev.delta.plus(leg.delta) } : { ...leg });
  }
  const moves = [...net.values()].filter((l) => !l.delta.isZero());
  for (const l of moves) {
    if (l.delta.isPositive() || l.accountId === HOUSE_ACCOUNT_ID) continue;
    const free = new D(balances.get(l.accountId, l.asset).free);
    if (free.lt(l.delta.neg())) throw new ShortBalanceError(l.accountId, l.asset, toWire(l.delta.neg()), toWire(free));
  }
  for (const l of moves) {
    if (l.accountId !== HOUSE_ACCOUNT_ID || l.delta.isPositive()) continue;
    const short = l.delta.neg().minus(balances.get(l.accountId, l.asset).free);
    if (short.gt(0)) balances.credit(l.accountId, l.asset, toWire(short));
  }
  // Debits first, so a credit never meets a debit of the same entry half-applied.
  for (const l of moves) if (l.delta.isNegative()) balances.debit(l.accountId, l.asset, toWire(l.delta.neg()));
  for (const l of moves) if (l.delta.isPositive()) balances.credit(l.accountId, l.asset, toWire(l.delta));
  const userLegs = moves.filter((l) => l.accountId !== HOUSE_ACCOUNT_ID);
  if (note.ledger !== false) {
    const ledger = moneyLedgerOf(state.services);
    for (const l of userLegs) ledger.record({ accountId: l.accountId, asset: l.asset, delta: toWire(l.delta), bizSubject: note.business, txId: note.txId, time: note.time, status: note.ledger ?? 'success' });
  }
  for (const l of userLegs) {
    state.services.events?.balanceUpdate(l.accountId, { asset: l.asset, delta: toWire(l.delta), time: note.time, business: note.business }, balances.get(l.accountId, l.asset));
  }
}
