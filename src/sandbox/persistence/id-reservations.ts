/**
 * Ids handed out are never handed out again, crash or not (issue 24, defect 2). Every id sequence
 * of the sandbox (the engine's order and trade ids, each money area's ids: exchange-core/ids.ts)
 * registers here under a name. With a state file, a sequence reserves a block of ids before it
 * issues the first of them: the block's end (the mark: no id at or above it was ever issued) is
 * written to the file at once, in its own transaction, before the id leaves. At the next start
 * each sequence continues at or above its mark, even when the state saved with the ids was lost
 * (a SIGKILL between two saves). Ids skipped that way (at most a block per sequence and start)
 * are simply never used.
 *
 * Sequences register when their area is made (plugin setup, or first use); `attach` (at start,
 * after the saved state is restored, state-sync.ts) loads the marks and turns reservation on for
 * every sequence registered then and later. Without a state file nothing is attached and no
 * sequence reserves anything.
 */
import type { SandboxServices } from '../http/route-types.ts';

/** How many ids one reservation covers: one write per this many ids of a sequence. */
export const ID_BLOCK = 10_000n;

/** A sequence as reservation sees it (exchange-core/ids.ts IdSource, the engine's adapter). */
export interface ReservableSequence {
  /** Issue no id below `from` (a mark of an earlier run). */
  continueFrom(from: bigint): void;
  /** Call `reserve(wanted)` before issuing an id not reserved yet; it returns the new mark (>= wanted). */
  reserveWith(reserve: (wanted: bigint) => bigint): void;
}

/** Where marks are kept (the state store). */
export interface IdMarkStore {
  /** Every sequence's mark by name, as decimal text. */
  loadIdMarks(): Record<string, string>;
  /** Durably, before it returns. */
  saveIdMark(name: string, mark: string): void;
}

export class IdReservations {
  private readonly sequences = new Map<string, ReservableSequence>();
  private readonly marks = new Map<string, bigint>();
  private store: IdMarkStore | undefined;

  /** Register a sequence under a name unique in this sandbox. */
  register(name: string, sequence: ReservableSequence): void {
    if (this.sequences.has(name)) throw new Error(`id sequence "${name}" is registered twice`);
    this.sequences.set(name, sequence);
    if (this.store !== undefined) this.engage(name, sequence);
  }

  /** Load the marks and reserve from now on, for every sequence registered now and later. */
  attach(store: IdMarkStore): void {
    if (this.store !== undefined) throw new Error('id reservations are attached already');
    for (const [name, mark] of Object.entries(store.loadIdMarks())) {
      if (!/^(0|[1-9][0-9]*)$/.test(mark)) throw new Error(`id mark "${name}" is not a decimal id: ${JSON.stringify(mark)}`);
      this.marks.set(name, BigInt(mark));
    }
    this.store = store;
    for (const [name, sequence] of this.sequences) this.engage(name, sequence);
  }

  /** The mark of a sequence (tests, diagnostics). */
  mark(name: string): bigint | undefined {
    return this.marks.get(name);
  }

  private engage(name: string, sequence: ReservableSequence): void {
    const mark = this.marks.get(name);
    if (mark !== undefined) sequence.continueFrom(mark);
    sequence.reserveWith((wanted) => this.reserve(name, wanted));
  }

  private reserve(name: string, wanted: bigint): bigint {
    const store = this.store;
    if (store === undefined) throw new Error('id reservations are not attached');
    const old = this.marks.get(name) ?? 0n;
    const mark = (wanted > old ? wanted : old) + ID_BLOCK;
    store.saveIdMark(name, mark.toString());
    this.marks.set(name, mark);
    return mark;
  }
}

declare module '../http/route-types.ts' {
  interface SandboxServices {
    idReservations?: IdReservations;
  }
}

/** The sandbox's id reservations, created on first use so areas may register in any order. */
export function idReservationsOf(services: SandboxServices): IdReservations {
  return (services.idReservations ??= new IdReservations());
}
