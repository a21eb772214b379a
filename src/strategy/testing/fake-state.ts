/**
 * An in-memory StrategyStateView for tests: set the time, balances, positions and open orders by
 * hand (or let the harness do it). No fees, no locked funds, no filters.
 */
import type { Instrument } from '../../core/market/instrument.ts';
import type { StrategyStateView } from '../state-view.ts';
import type { Amount, BalanceInput, OpenOrderInput, PositionInput } from '../types.ts';

export interface FakeStateInit {
  readonly now?: number;
  readonly instruments?: readonly Instrument[];
  /** asset -> free amount */
  readonly balances?: Readonly<Record<string, Amount>>;
}

export class FakeStateView implements StrategyStateView {
  time: number;
  private readonly instrumentsBySymbol = new Map<string, Instrument>();
  private readonly balanceMap = new Map<string, BalanceInput>();
  private readonly positions = new Map<string, PositionInput>();
  private orders: OpenOrderInput[] = [];

  constructor(init: FakeStateInit = {}) {
    this.time = init.now ?? 0;
    for (const i of init.instruments ?? []) this.instrumentsBySymbol.set(i.symbol, i);
    for (const [asset, free] of Object.entries(init.balances ?? {})) this.setBalance(asset, free);
  }

  now(): number {
    return this.time;
  }

  instrument(symbol: string): Instrument | undefined {
    return this.instrumentsBySymbol.get(symbol);
  }

  balances(): readonly BalanceInput[] {
    return [...this.balanceMap.values()];
  }

  position(symbol: string): PositionInput | undefined {
    return this.positions.get(symbol);
  }

  openOrders(symbol?: string): readonly OpenOrderInput[] {
    return symbol === undefined ? [...this.orders] : this.orders.filter((o) => o.symbol === symbol);
  }

  addInstrument(instrument: Instrument): void {
    this.instrumentsBySymbol.set(instrument.symbol, instrument);
  }

  setBalance(asset: string, free: Amount, locked: Amount = '0'): void {
    this.balanceMap.set(asset, { asset, free, locked });
  }

  setPosition(symbol: string, base: Amount, avgEntryPrice?: Amount): void {
    this.positions.set(symbol, { symbol, base, ...(avgEntryPrice === undefined ? {} : { avgEntryPrice }) });
  }

  setOpenOrders(orders: readonly OpenOrderInput[]): void {
    this.orders = [...orders];
  }
}
