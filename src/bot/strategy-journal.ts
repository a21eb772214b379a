/**
 * What the bot journals about its strategies, beside what the live venue journals about orders
 * (issue 21 deliverables 3 and 4: "`halyard status --journal FILE` prints the same for a running or
 * stopped bot from its journal"; issue 20 deliverable 7: the journal explains what the bot did and
 * why):
 * - every batch of intents a strategy (or the kernel, cancelling after a failure) submitted, in the
 *   `intents` table (schema 1; run_log gets its row by trigger), before the order manager's checks
 *   and before any command leaves. The request store holds what was sent; this holds what was
 *   asked, denied intents included, as the strategy wrote it (tag, quantity or quote size);
 * - a strategy that failed (kind `strategy-failed`) or was stopped with the bot
 *   (`strategy-stopped`), payload `{ reason }`: the reason is the text the live status shows;
 * - the exchangeInfo the bot started with, its `symbols` cut to the run's (the real venue lists
 *   thousands; the rules of the traded symbols are what a reader needs): the status from a
 *   journal reads base, quote and minQty from it instead of guessing from the symbol's name.
 *
 * A write that fails is reported through `onError` and the bot goes on: a journal that cannot
 * take an intent row must not stop trading that the request store still records.
 */
import type { OrderIntent } from '../core/orders/types.ts';
import type { IntentOrigin, Kernel } from '../engine/kernel.ts';
import type { Journal } from '../journal/journal.ts';
import type { StrategyFailure } from '../strategy/types.ts';
import { STRATEGY_FAILED_INTENT, STRATEGY_STOPPED_INTENT } from './status/from-journal.ts';

/** The reason a strategy stopped with the bot is given, live (bot-status.ts) and in the journal alike. */
export const STOPPED_WITH_THE_BOT = 'stopped with the bot';

/** A failure's reason as the live status and the summary show it, e.g. `onTimer threw: tick 1`. */
export function failureReason(f: Pick<StrategyFailure, 'handler' | 'kind' | 'message'>): string {
  return `${f.handler} ${f.kind}: ${f.message}`;
}

export class StrategyJournal {
  constructor(
    private readonly journal: Journal,
    private readonly runId: string,
    private readonly onError: (what: string, e: unknown) => void,
  ) {}

  /** One batch, one transaction (one commit however many intents). */
  intents(strategy: string, intents: readonly OrderIntent[], time: number, origin: IntentOrigin): void {
    if (intents.length === 0) return;
    this.write(`the intents of ${strategy}`, () =>
      this.journal.transaction(() => {
        for (const i of intents) {
          this.journal.runs.addIntent({
            runId: this.runId,
            time,
            strategy,
            kind: i.kind,
            // `origin` only when the kernel made it (cancels after a failure): the strategy did not ask.
            payload: origin === 'engine' ? { ...i, origin } : i,
            clientOrderId: i.kind === 'place' ? null : (i.clientOrderId ?? null),
          });
        }
      }),
    );
  }

  failed(f: StrategyFailure): void {
    this.mark(f.strategy, STRATEGY_FAILED_INTENT, failureReason(f), f.time);
  }

  /** After the kernel's stop: each strategy it stopped (not those that had failed). */
  stopped(kernel: Pick<Kernel, 'runners'>, time: number): void {
    for (const r of kernel.runners) if (r.status === 'stopped') this.mark(r.name, STRATEGY_STOPPED_INTENT, STOPPED_WITH_THE_BOT, time);
  }

  exchangeInfo(time: number, body: unknown, symbols: readonly string[]): void {
    this.write('the exchangeInfo snapshot', () => this.journal.exchangeInfo.save(time, cutTo(body, new Set(symbols))));
  }

  private mark(strategy: string, kind: string, reason: string, time: number): void {
    this.write(`${kind} of ${strategy}`, () => this.journal.runs.addIntent({ runId: this.runId, time, strategy, kind, payload: { reason } }));
  }

  private write(what: string, f: () => unknown): void {
    try {
      f();
    } catch (e) {
      this.onError(what, e);
    }
  }
}

/** The body with `symbols` cut to those named; a body of another shape as it is. */
function cutTo(body: unknown, keep: ReadonlySet<string>): unknown {
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { symbols?: unknown }).symbols)) return body;
  const b = body as { symbols: unknown[] };
  return { ...b, symbols: b.symbols.filter((s) => s !== null && typeof s === 'object' && keep.has((s as { symbol?: unknown }).symbol as string)) };
}
