/**
 * Order and trade ids as the engine issues them: `first`, `first + 1`, ... (spec 2.4 orderId,
 * 2.5 trade id; the venue's exceed 2^53, notes 5.1, so they travel as decimal strings). The
 * engine keeps each id as its position in the sequence, a small number that orders arrival and
 * keys the order index, and makes the text when it is first read: a backtest or a benchmark
 * reads few of them, and a bigint increment plus its formatting per order and per trade was
 * a twentieth of the engine's time.
 *
 * The text comes from two exact parts, whole billions and the nine digits below, so ids far
 * beyond 2^53 format without a bigint.
 *
 * A restored engine (restore.ts) takes the dumped sequence's `first` by `rebase`, before it has
 * issued any id: restored ids keep their positions and new ones continue above them.
 *
 * Reservation (`reserveWith`): an owner that persists (the sandbox's state file) must never hand
 * out an id twice, even when the process dies before its state is saved. It injects a `reserve`
 * callback, asked before a position beyond the reserved ones is issued (`take`), which records a
 * high-water mark durably and answers up to which id the engine may go; at the next start the
 * owner continues above the mark. The engine keeps no I/O of its own: the callback is the seam.
 * `ahead` asks early, at the start of an operation, so a failing `reserve` throws before the
 * operation changed anything; `take` is the guarantee for an operation that uses more ids.
 */
import { nineDigits } from '../../money/digits.ts';

const E9 = 1_000_000_000;
const B9 = 1_000_000_000n;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const CANONICAL = /^(0|[1-9][0-9]*)$/;

/**
 * Reserves ids up to at least `wanted` (exclusive) durably and returns the id reserved up to
 * (exclusive, >= wanted); throws when it cannot (the id is then not issued).
 */
export type IdReserver = (wanted: bigint) => bigint;

export class IdSequence {
  /** first = hi * 1e9 + lo. */
  private hi = 0;
  private lo = 0;
  private start = 0n;
  /** String(h) for the last whole-billions part formatted (ids of a run share it for a billion ids). */
  private lastHi = -1;
  private lastHiText = '';
  /** Positions below this are reserved: Infinity while nothing reserves (a backtest, a sandbox without a state file). */
  private reservedEnd = Infinity;
  /** The id reserved up to (exclusive), kept as an id so a `rebase` keeps it. */
  private reservedEndId = -1n;
  private reserver: IdReserver | undefined;
  /** `ahead` reserves when fewer positions than this remain reserved. */
  private lowWater = 0;

  constructor(first: bigint) {
    this.rebase(first);
  }

  /** The id at position 0. */
  get first(): bigint {
    return this.start;
  }

  /** Count from `first` instead (restore only: texts already made from the old first would be stale). */
  rebase(first: bigint): void {
    if (first < 0n || first / B9 > BigInt(MAX_SAFE - E9)) throw new RangeError(`first id ${first} must be >= 0 and below ${MAX_SAFE - E9}e9`);
    this.start = first;
    this.hi = Number(first / B9);
    this.lo = Number(first % B9);
    this.lastHi = -1;
    if (this.reserver !== undefined) this.reservedEnd = this.endPosition();
  }

  /**
   * Ask `reserve` before issuing any id not reserved yet (nothing is, at first). `lowWater`: how
   * many positions `ahead` keeps reserved beyond the next one.
   */
  reserveWith(reserve: IdReserver, lowWater = 0): void {
    this.reserver = reserve;
    this.lowWater = lowWater;
    this.reservedEndId = -1n;
    this.reservedEnd = -1;
  }

  /** `position` is being issued: reserve it first if it is not yet. Returns `position`. */
  take(position: number): number {
    if (position >= this.reservedEnd) this.extend(position + 1);
    return position;
  }

  /** The next position to issue is `next`: reserve now if fewer than the low water mark remain reserved. */
  ahead(next: number): void {
    if (next + this.lowWater >= this.reservedEnd) this.extend(next + this.lowWater + 1);
  }

  private extend(end: number): void {
    const reserve = this.reserver;
    if (reserve === undefined) return;
    const wanted = this.start + BigInt(end);
    const got = reserve(wanted);
    if (got < wanted) throw new RangeError(`id reservation answered ${got}, below the ${wanted} asked for`);
    this.reservedEndId = got;
    this.reservedEnd = this.endPosition();
  }

  private endPosition(): number {
    const d = this.reservedEndId - this.start;
    return d <= 0n ? -1 : d > BigInt(MAX_SAFE) ? Infinity : Number(d);
  }

  /** The id at `position` (0 for `first`) as canonical decimal text. */
  text(position: number): string {
    let v = this.lo + position;
    if (this.hi === 0) return String(v);
    const carry = Math.floor(v / E9);
    const h = this.hi + carry;
    v -= carry * E9;
    if (h !== this.lastHi) {
      this.lastHi = h;
      this.lastHiText = String(h);
    }
    return this.lastHiText + nineDigits(v);
  }

  /** The position of `id` in the sequence, or -1 when it is not a canonical decimal at or after `first` (or beyond 2^53 positions). */
  position(id: string): number {
    if (id.length === 0 || id.length > 30 || !CANONICAL.test(id)) return -1;
    const d = BigInt(id) - this.start;
    return d < 0n || d > BigInt(MAX_SAFE) ? -1 : Number(d);
  }
}

