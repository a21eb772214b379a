/**
 * Ids as the venue issues them: integers above 2^53 (notes 5.1), kept as decimal strings.
 * Seeded from the start time; a store whose records were restored (persistence/persistent-parts.ts)
 * also moves its sequence past them (`skipPast`). With a state file every sequence is reserved
 * ahead of use (persistence/id-reservations.ts): a configured fixed clock start gives every run
 * the same seeds, and an id handed out just before a crash may not be in the saved records, so
 * the reservation's mark, not the records, is what keeps ids from being issued twice.
 */
import type { SandboxServices } from '../http/route-types.ts';
import { idReservationsOf, type ReservableSequence } from '../persistence/id-reservations.ts';

/** The first id of a sequence seeded at `startTimeMs`: ms * 10^6 puts today's ids near 1.8e18, beyond 2^53 like the real service's. */
export function firstId(startTimeMs: number, salt: bigint): bigint {
  return BigInt(Math.floor(startTimeMs)) * 1_000_000n + salt;
}

/** Issues the next id as text; `skipPast` / `peek` serve persistence, `continueFrom` / `reserveWith` reservation. */
export interface IdSource extends ReservableSequence {
  (): string;
  /** Later ids are above the number `id` ends with (`d_769800519366885376`: 769800519366885376). */
  skipPast(id: string): void;
  /** The id the next call returns. */
  peek(): string;
}

/** firstId, firstId + 1, ... as text (deposits, withdrawals, transfers, invoices; the engine counts its own, id-sequence.ts). */
export function idSequence(startTimeMs: number, salt: bigint): IdSource {
  return counterFrom(firstId(startTimeMs, salt));
}

/** first, first + 1, ... as text. */
export function counterFrom(first: bigint): IdSource {
  let next = first;
  /** Ids below this are reserved; no reserver: all are. */
  let reservedEnd: bigint | undefined;
  let reserve: ((wanted: bigint) => bigint) | undefined;
  const source = () => {
    if (reserve !== undefined && (reservedEnd === undefined || next >= reservedEnd)) reservedEnd = reserve(next + 1n);
    return (next++).toString();
  };
  source.skipPast = (id: string) => {
    const digits = /(\d+)$/.exec(id)?.[1];
    if (digits !== undefined && BigInt(digits) >= next) next = BigInt(digits) + 1n;
  };
  source.peek = () => next.toString();
  source.continueFrom = (from: bigint) => {
    if (from > next) next = from;
  };
  source.reserveWith = (r: (wanted: bigint) => bigint) => {
    reserve = r;
    reservedEnd = undefined;
  };
  return source;
}

/**
 * The one sequence of every money record whose bare id keys the money ledger (withdrawals, fiat
 * orders, merchant invoices, payment requests): one sequence, so no two of them ever share an id
 * however many each area issues or however far reservations move a sequence (the ledger updates
 * entries by id: a shared one let a withdrawal's FAILED mark a payment request's credit failed).
 * Made by the first area that asks, seeded from the start time.
 */
export function ledgerIds(services: SandboxServices, startTimeMs: number): IdSource {
  return (services.ledgerIds ??= reservedIds(services, 'money.ledger-ids', { startTimeMs, salt: 600_000n }));
}

declare module '../http/route-types.ts' {
  interface SandboxServices {
    ledgerIds?: IdSource;
  }
}

/**
 * A sequence registered for reservation under `name` (unique per sandbox, e.g. `wallet.deposits`):
 * `idSequence(startTimeMs, salt)`, or `counterFrom(first)` when `first` is given.
 */
export function reservedIds(services: SandboxServices, name: string, seed: { startTimeMs: number; salt: bigint } | { first: bigint }): IdSource {
  const source = 'first' in seed ? counterFrom(seed.first) : idSequence(seed.startTimeMs, seed.salt);
  idReservationsOf(services).register(name, source);
  return source;
}
