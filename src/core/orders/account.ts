/**
 * The account as the order manager sees it: balances per asset (free and locked, as the venue
 * last reported them: outboundAccountPosition, notes 4.1, moved meanwhile by the fills it has
 * not reported yet: fill-funds.ts) and positions per symbol built from fills (holdings.ts): the
 * account's, from every fill, and each strategy's, from its own orders' fills. A strategy's
 * context reads its own position (NautilusTrader keeps positions per strategy too): several
 * strategies on one symbol share the account's base, and a long-only strategy selling "the
 * position" must sell what it bought, not what another strategy holds (a bot run of SMA next to
 * DCA on one symbol ended SMA's own book short). Holdings set with `setPosition` (a backtest's
 * or a test's starting base, one strategy) are every strategy's starting position on the symbol.
 * The objects handed out are cached and replaced on change, so reading them every bar costs no
 * allocation. `version` moves on every change (hosts cache derived numbers on it).
 */
import type { Dec } from '../money/decimal.ts';
import { D, dec } from '../money/decimal.ts';
import { X40 } from '../money/exact40.ts';
import { parsedDecimal } from './decimal-cache.ts';
import { Holdings } from './holdings.ts';
import type { BalanceOut, OrderSide, PositionOut } from './types.ts';

export interface FillEffect {
  readonly symbol: string;
  readonly baseAsset: string;
  readonly side: OrderSide;
  readonly price: Dec;
  readonly qty: Dec;
  readonly commission: Dec;
  readonly commissionAsset: string;
}

/** A fill as the venue printed it (decimal strings it checked): what `applyFillText` reads. */
export interface FillText {
  readonly symbol: string;
  readonly baseAsset: string;
  readonly side: OrderSide;
  readonly price: string;
  readonly qty: string;
  readonly commission: string;
  readonly commissionAsset: string;
}

const ZERO = new D(0);
const XZERO = X40.ZERO;

/**
 * One asset's balance. Venue balance events set it as text and most are never read as Decimals
 * (a backtest reads the total as a number per change): the texts are parsed on first read.
 */
class Balance {
  private printed: string | undefined = undefined;

  constructor(
    private freeDec: Dec | undefined,
    private lockedDec: Dec | undefined,
    readonly freeText: string | undefined,
    readonly lockedText: string | undefined,
  ) {}

  get free(): Dec {
    return (this.freeDec ??= parsedDecimal(this.freeText as string));
  }

  get locked(): Dec {
    return (this.lockedDec ??= parsedDecimal(this.lockedText as string));
  }

  /** The free amount as text: the venue's, or the Decimal's printed once. */
  get text(): string {
    return this.freeText ?? (this.printed ??= (this.freeDec as Dec).toFixed());
  }
}

/** Up to 40 characters: at most 40 significant digits, which Decimal arithmetic keeps exact. */
const SHORT = 40;

export class AccountState {
  private readonly free = new Map<string, Balance>();
  /** Per asset, the venue time of the last balance event (fill-funds.ts: a later one already includes a fill). */
  private readonly balanceTimes = new Map<string, number>();
  /** The account's positions, from every fill. */
  private readonly holdings = new Holdings();
  /** Each strategy's positions, from its own orders' fills. */
  private readonly strategyHoldings = new Map<string, Holdings>();
  /** What `setPosition` set per symbol: a strategy's starting position there. */
  private readonly seeds = new Map<string, { base: Dec; avg: Dec | undefined }>();
  private balanceView: readonly BalanceOut[] | undefined;
  /** Moves on every balance or position change. */
  version = 0;

  constructor(balances: Readonly<Record<string, string>> = {}) {
    for (const [asset, amount] of Object.entries(balances)) this.setBalance(asset, dec(amount, `balance ${asset}`), ZERO);
  }

  setBalance(asset: string, free: Dec, locked: Dec): void {
    this.put(asset, new Balance(free, locked, undefined, undefined));
  }

  /** The venue's texts (decimal strings it checked), parsed only when read; `time` is the venue's (balance event time). */
  setBalanceText(asset: string, free: string, locked: string, time?: number): void {
    this.put(asset, new Balance(undefined, undefined, free, locked));
    if (time !== undefined) this.balanceTimes.set(asset, time);
  }

  /** The venue time of the last balance event of `asset` (undefined: none yet). */
  balanceTimeOf(asset: string): number | undefined {
    return this.balanceTimes.get(asset);
  }

  /**
   * Move free and locked of `asset` by the amounts given: a fill's effect the venue's balance
   * event has not reported yet (fill-funds.ts). The next balance event replaces it.
   */
  moveFunds(asset: string, freeBy: Dec, lockedBy: Dec): void {
    if (freeBy.isZero() && lockedBy.isZero()) return;
    const b = this.free.get(asset);
    this.setBalance(asset, (b?.free ?? ZERO).plus(freeBy), (b?.locked ?? ZERO).plus(lockedBy));
  }

  private put(asset: string, b: Balance): void {
    this.free.set(asset, b);
    this.balanceView = undefined;
    this.version++;
  }

  /** Free amount of an asset (zero when none). */
  freeOf(asset: string): Dec {
    return this.free.get(asset)?.free ?? ZERO;
  }

  /** Locked amount of an asset (zero when none). */
  lockedOf(asset: string): Dec {
    return this.free.get(asset)?.locked ?? ZERO;
  }

  /** `freeOf(asset)` as text (the venue's own when it set it): the pre-trade fast path compares it without a Decimal. */
  freeTextOf(asset: string): string {
    const b = this.free.get(asset);
    return b === undefined ? '0' : b.text;
  }

  /** free + locked of an asset. */
  totalOf(asset: string): Dec {
    const b = this.free.get(asset);
    return b ? b.free.plus(b.locked) : ZERO;
  }

  /**
   * `Number(totalOf(asset).toFixed())` (for charts and metrics), without Decimals when nothing is
   * locked and the free text is short: the same decimal value, so the same number.
   */
  totalNumberOf(asset: string): number {
    const b = this.free.get(asset);
    if (b === undefined) return 0;
    const t = b.freeText;
    if (t !== undefined && b.lockedText === '0' && t.length <= SHORT) return Number(t);
    return Number(b.free.plus(b.locked).toFixed());
  }

  balances(): readonly BalanceOut[] {
    if (!this.balanceView) this.balanceView = Object.freeze([...this.free].map(([asset, b]) => Object.freeze({ asset, free: b.free, locked: b.locked })));
    return this.balanceView;
  }

  /** Balances as decimal strings, assets sorted (reports). */
  balanceTexts(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const asset of [...this.free.keys()].sort()) out[asset] = this.totalOf(asset).toFixed();
    return out;
  }

  /** The account's position: every strategy's fills (and any set with setPosition). */
  position(symbol: string): PositionOut | undefined {
    return this.holdings.position(symbol);
  }

  /** `strategy`'s own position: its orders' fills from where setPosition left the symbol. */
  positionOf(strategy: string, symbol: string): PositionOut | undefined {
    return this.holdingsOf(strategy).position(symbol);
  }

  /** Base the account holds for the symbol (zero when none). */
  baseOf(symbol: string): Dec {
    return this.holdings.baseOf(symbol) ?? ZERO;
  }

  /** `strategy`'s own base of the symbol (zero when none). */
  baseOfStrategy(strategy: string, symbol: string): Dec {
    return this.holdingsOf(strategy).baseOf(symbol) ?? ZERO;
  }

  /** Set what is held (initial holdings, reconciliation): the account's and every strategy's position on the symbol. */
  setPosition(symbol: string, base: Dec, avgEntryPrice?: Dec): void {
    const avg = base.gt(0) ? avgEntryPrice : undefined;
    this.seeds.set(symbol, { base, avg });
    this.holdings.set(symbol, base, avg);
    for (const h of this.strategyHoldings.values()) h.set(symbol, base, avg);
    this.version++;
  }

  /** A fill: the account's position and, when `strategy` is given (the order's), that strategy's. */
  applyFill(f: FillEffect, strategy?: string): void {
    const fee = f.commissionAsset === f.baseAsset && !f.commission.isZero() ? X40.of(f.commission) : XZERO;
    this.move(strategy, f.symbol, f.side, X40.of(f.qty), fee, f.price, undefined);
  }

  /**
   * `applyFill` on the venue's texts: the arithmetic is Decimal's (precision 40, half up) done on
   * BigInts (exact40.ts), so the same digits without parsing the amounts into Decimals.
   */
  applyFillText(f: FillText, strategy?: string): void {
    const fee = f.commissionAsset === f.baseAsset && f.commission !== '0' ? X40.parse(f.commission) : XZERO;
    this.move(strategy, f.symbol, f.side, X40.parse(f.qty), fee, undefined, f.price);
  }

  private move(strategy: string | undefined, symbol: string, side: OrderSide, qty: X40, fee: X40, priceDec: Dec | undefined, priceText: string | undefined): void {
    this.holdings.move(symbol, side, qty, fee, priceDec, priceText);
    if (strategy !== undefined) this.holdingsOf(strategy).move(symbol, side, qty, fee, priceDec, priceText);
    this.version++;
  }

  /** `strategy`'s positions (made on first use from what setPosition set; setPosition later updates them in place): a host may keep it. */
  holdingsOf(strategy: string): Holdings {
    let h = this.strategyHoldings.get(strategy);
    if (h === undefined) {
      h = new Holdings();
      for (const [symbol, seed] of this.seeds) h.set(symbol, seed.base, seed.avg);
      this.strategyHoldings.set(strategy, h);
    }
    return h;
  }
}
