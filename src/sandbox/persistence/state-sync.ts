/**
 * The running sandbox and its state store (`--state`): restore at start, save while running.
 *
 * Start (`restore`): the account registry, then the balances (each row's total credited as free),
 * then every persistent part (persistent-parts.ts) in registration order, the engine first (the
 * exchange core registers first): its open orders lock their funds again out of those totals, so
 * free + locked of every account is what was saved. An order whose funds are not there (a
 * hand-edited file) is canceled with a logged warning naming it; the sandbox still starts.
 * Data that does not fit (a foreign or damaged body) stops the start with an error naming the
 * store and the part.
 *
 * Then the id sequences' reservation marks (id-reservations.ts): every sequence continues above
 * its mark and reserves ahead of use from here on.
 *
 * Running (`saveLive`): balances as totals plus every part's dump, one transaction: for every
 * answer to a request that may change state, before it leaves (`durable`, durable-answers.ts:
 * the answers of one event-loop turn share one transaction, a group commit), every couple of
 * seconds for what changes without a request (market agents' trades, settlements that come due),
 * and at a clean shutdown.
 */
import type { Logger } from 'pino';
import { dec, toWire } from '../../core/money/decimal.ts';
import type { BalancePort } from '../accounts/balance-port.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { BalanceRow, StateStore } from '../accounts/state-store.ts';
import type { SandboxServices } from '../http/route-types.ts';
import { idReservationsOf } from './id-reservations.ts';
import { persistentPartsOf, StateDataError } from './persistent-parts.ts';

export interface SyncedState {
  readonly accounts: AccountRegistry;
  readonly services: SandboxServices;
  readonly log: Logger;
}

/** Every account's holding per asset: free + locked (open orders lock theirs again at restore). */
export function balanceRows(balances: BalancePort & { accounts?(): string[] }): BalanceRow[] {
  const rows: BalanceRow[] = [];
  for (const accountId of balances.accounts?.() ?? []) {
    for (const b of balances.all(accountId)) {
      const amount = toWire(dec(b.free).plus(b.locked));
      if (amount !== '0') rows.push({ accountId, asset: b.asset, amount });
    }
  }
  return rows;
}

/** A group commit that took this long (ms) spaces the next one by as long (durable). */
const SPACED_SAVE_MS = 5;

export class StateSync {
  /** The group commit the answers of this event-loop turn wait for, once one asked. */
  private pending: Promise<void> | undefined;
  private closed = false;
  /** When the last group commit ended and how long it took (performance.now() ms). */
  private lastSaveEnd = 0;
  private lastSaveMs = 0;
  /** Answers waiting for the pending group commit, and how many the last one released. */
  private waiting = 0;
  private lastWaiting = 0;

  constructor(
    private readonly store: StateStore,
    private readonly state: SyncedState,
  ) {}

  /** Bring back what the store holds (false for a fresh store: nothing restored), then reserve ids from the marks on. */
  restore(): boolean {
    const restored = this.restoreState();
    idReservationsOf(this.state.services).attach(this.store);
    return restored;
  }

  private restoreState(): boolean {
    const snapshot = this.store.load();
    if (snapshot === undefined) return false;
    const live = this.store.loadLive();
    this.state.accounts.restore(snapshot);
    const balances = this.state.services.balances;
    if (balances) for (const row of live.balances) balances.credit(row.accountId, row.asset, row.amount);
    try {
      persistentPartsOf(this.state.services).restore(live.parts, live.archive);
    } catch (e) {
      if (e instanceof StateDataError) throw new StateDataError(e.part, e.problem, this.store.location);
      throw e;
    }
    return true;
  }

  /** Start persisting: the registry on each change, now and from here on. */
  watchRegistry(): void {
    this.store.save(this.state.accounts.snapshot());
    this.state.accounts.onChange(() => this.store.save(this.state.accounts.snapshot()));
  }

  /** Balances, every part and the archive's changes in one transaction. */
  saveLive(): void {
    const balances = this.state.services.balances;
    const parts = persistentPartsOf(this.state.services);
    const d = parts.dump();
    this.store.saveLive({ balances: balances ? balanceRows(balances) : [], parts: d.parts, put: d.put, drop: d.drop });
    parts.commit(d);
  }

  /**
   * Resolves once everything changed until now is saved: the first call schedules one saveLive,
   * and every call until it runs shares it (group commit). It runs after the current event-loop
   * turn's I/O callbacks (setImmediate), or, when the last save took long (a large book), no
   * sooner than that long after it ended (SPACED_SAVE_MS) if it released several answers: under
   * concurrent load at most about half the time goes to saving, and one save covers the answers
   * that came in meanwhile; a lone client's answers are not held back. Rejects when the save fails.
   */
  durable(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.waiting++;
    return (this.pending ??= new Promise<void>((resolve, reject) => {
      const run = () => {
        this.pending = undefined;
        this.lastWaiting = this.waiting;
        this.waiting = 0;
        // A clean close in between saved everything already.
        if (this.closed) return resolve();
        const started = performance.now();
        try {
          this.saveLive();
          resolve();
        } catch (err) {
          reject(err as Error);
        } finally {
          this.lastSaveEnd = performance.now();
          this.lastSaveMs = this.lastSaveEnd - started;
        }
      };
      const wait = this.lastSaveMs < SPACED_SAVE_MS || this.lastWaiting < 2 ? 0 : this.lastSaveEnd + this.lastSaveMs - performance.now();
      if (wait >= 1) setTimeout(run, wait);
      else setImmediate(run);
    }));
  }

  /** saveLive for a timer: a failure is logged, not thrown into the event loop. */
  trySaveLive(): void {
    try {
      this.saveLive();
    } catch (err) {
      this.state.log.error({ err, store: this.store.location }, 'saving the sandbox state failed');
    }
  }

  /** The registry and the live state, then close the store. */
  close(): void {
    this.closed = true;
    this.store.save(this.state.accounts.snapshot());
    this.saveLive();
    this.store.close();
  }
}
