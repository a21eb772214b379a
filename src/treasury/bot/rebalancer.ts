/**
 * The bot's treasury rebalancer (issue 23 deliverable 4): with a `treasury` section in the bot
 * config, `halyard run` plans and applies on a schedule (an RxJS timer on the bot's injected
 * scheduler: virtual time in tests) with the internal moves only: conversions and sub-account
 * transfers (`internalOnly`: the planner proposes no payouts; the executor is called with
 * `approve: false`, so a withdrawal or cash-out could not be sent even if one appeared).
 *
 * Paused (the tick is skipped, said in the status) while the user stream is not LIVE: the bot's
 * view of its balances may be behind and a strategy may act on funds being moved. Assets a
 * strategy has orders on (open or in flight, both sides of the symbol) are frozen for the tick: the
 * planner leaves them as they are and lists them unresolved "left alone: orders open on ...".
 * One tick at a time: a tick still applying when the next is due makes that one skip.
 *
 * Every move goes through the executor (src/treasury/apply/apply-plan.ts): journaled in
 * `treasury_moves` with the bot's run id before it is sent, an unknown outcome resolved by query.
 * What the last tick did is the status block's treasury line (src/bot/status).
 *
 * Each tick reads balances, book tickers and convert pairs afresh; exchangeInfo (weight-heavy, only
 * the symbols' assets are used) is kept for the run and re-read hourly or when it no longer
 * explains a ticker or a policy asset (info-cache.ts). The bot checked at start that its key is the
 * master's (policy/master-key.ts): a sub-account's key is refused before the rebalancer exists.
 */
import { timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { Journal } from '../../journal/journal.ts';
import type { Clock } from '../../ports/clock.ts';
import { applyPlan } from '../apply/apply-plan.ts';
import type { ApplyOptions, ApplyResult } from '../apply/types.ts';
import { openMoveStore } from '../journal/move-store.ts';
import type { Plan } from '../moves.ts';
import { PlanConflictError, planTreasury } from '../plan/planner.ts';
import { readPlanInputs } from '../plan/read-inputs.ts';
import { ExchangeInfoCache } from './info-cache.ts';
import type { TreasuryPolicy } from '../policy/schema.ts';

export interface TreasuryStatusView {
  state: 'waiting' | 'running' | 'paused' | 'off';
  /** Why paused, or what went wrong last; null when nothing to say. */
  reason: string | null;
  lastRunAt: number | null;
  /** One line: what the last tick did. */
  lastResult: string | null;
  nextRunAt: number | null;
  /** Moves that succeeded in this run. */
  movesDone: number;
}

export interface RebalancerOptions {
  policy: TreasuryPolicy;
  client: ExchangeClient;
  journal: Pick<Journal, 'db' | 'file'>;
  runId: string;
  scheduler: SchedulerLike;
  /** The bot's clock (venue time). */
  now: () => number;
  /** The user stream's state (`LIVE` or another word, with its reason). */
  stream: () => { state: string; reason?: string | null | undefined };
  /** Symbols with a strategy's order open or in flight, each with its base and quote asset. */
  busySymbols: () => { symbol: string; baseAsset: string; quoteAsset: string }[];
  log: (level: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>) => void;
  /** How long a pending move is followed within a tick (default 30 s of the scheduler's time); the next tick resumes it. */
  followMs?: number;
  /** How long the symbols read from exchangeInfo are kept (default one hour of `now`; info-cache.ts). */
  exchangeInfoMaxAgeMs?: number;
  /** exchangeInfo as the bot read it at start, and when: the cache starts from it instead of reading it again. */
  exchangeInfo?: { info: unknown; at: number };
  /** The executor (default applyPlan); tests may wrap it. */
  apply?: (plan: Plan, options: ApplyOptions) => Promise<ApplyResult>;
}

const DAY = 86_400_000;

export class Rebalancer {
  private sub: Subscription | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private view: TreasuryStatusView;
  private readonly clock: Clock;
  private readonly info: ExchangeInfoCache;

  constructor(private readonly o: RebalancerOptions) {
    this.info = new ExchangeInfoCache(() => o.client.general.exchangeInfo(), o.now, o.exchangeInfoMaxAgeMs);
    if (o.exchangeInfo !== undefined) this.info.seed(o.exchangeInfo.info, o.exchangeInfo.at);
    this.view = { state: o.policy.schedule.enabled ? 'waiting' : 'off', reason: null, lastRunAt: null, lastResult: null, nextRunAt: null, movesDone: 0 };
    // The executor's waits (polls of a pending move, quote spacing) on the bot's scheduler, so virtual time drives them too.
    this.clock = {
      now: o.now,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          const s = o.scheduler.schedule(() => resolve(), ms);
          signal?.addEventListener('abort', () => (s.unsubscribe(), reject(signal.reason)), { once: true });
        }),
    };
  }

  start(): void {
    const { schedule } = this.o.policy;
    if (!schedule.enabled || this.sub !== undefined) return;
    this.view.nextRunAt = this.o.now() + schedule.firstAfterMs;
    this.sub = timer(schedule.firstAfterMs, schedule.everyMs, this.o.scheduler).subscribe(() => {
      this.view.nextRunAt = this.o.now() + schedule.everyMs;
      if (this.running !== undefined) {
        this.o.log('warn', 'treasury: the previous rebalance is still applying; this tick is skipped');
        return;
      }
      this.running = this.tick().finally(() => (this.running = undefined));
    });
  }

  /** No new tick; waits for one applying now (its moves are journaled; a pending one is resumed by the next run). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.sub?.unsubscribe();
    this.sub = undefined;
    this.view.nextRunAt = null;
    await this.running;
  }

  status(): TreasuryStatusView {
    return { ...this.view };
  }

  /** One rebalance: read, plan, apply. Exposed for tests and for a run on demand. */
  async tick(): Promise<void> {
    const at = this.o.now();
    this.view.lastRunAt = at;
    const stream = this.o.stream();
    if (stream.state !== 'LIVE') {
      this.pause(`the user stream is ${stream.state}${stream.reason ? ` (${stream.reason})` : ''}`);
      return;
    }
    const frozen = new Map<string, string>();
    for (const s of this.o.busySymbols()) {
      for (const asset of [s.baseAsset, s.quoteAsset]) if (!frozen.has(asset)) frozen.set(asset, `a strategy has orders on ${s.symbol}`);
    }
    this.view.state = 'running';
    this.view.reason = null;
    try {
      const movedToday = openMoveStore(this.o.journal).movedSince(Math.floor(at / DAY) * DAY);
      const input = await readPlanInputs(this.o.client, this.o.policy, { now: this.o.now, internalOnly: true, skipWallet: true, movedToday, frozen, source: 'treasury', exchangeInfo: (fresh) => this.info.get(fresh) });
      const { plan, before } = planTreasury(input);
      if (this.stopped) return;
      if (plan.moves.length === 0) {
        this.done(before.length === 0 ? 'every account inside its bands' : `no move possible: ${unresolvedText(plan)}`, plan.unresolved.length > 0 ? unresolvedText(plan) : null);
        return;
      }
      this.o.log('info', `treasury: applying plan ${plan.id} (${plan.moves.length} moves)`, { planId: plan.id, moves: plan.moves.map((m) => `${m.kind} ${m.clientId}: ${m.reason}`) });
      const result = await (this.o.apply ?? applyPlan)(plan, {
        client: this.o.client,
        journal: this.o.journal,
        policy: this.o.policy,
        approve: false,
        clock: this.clock,
        runId: this.o.runId,
        log: (level, msg, data) => this.o.log(level, `treasury: ${msg}`, data),
        follow: { maxWaitMs: this.o.followMs ?? 30_000 },
      });
      const ok = result.outcomes.filter((x) => x.state === 'succeeded').length;
      this.view.movesDone += ok;
      const text = `plan ${plan.id}: ${ok} of ${plan.moves.length} moves done${result.stopped ? `; stopped: ${result.stopped}` : ''}`;
      this.o.log(result.stopped ? 'warn' : 'info', `treasury: ${text}`, { planId: plan.id, outcomes: result.outcomes.map((x) => ({ clientId: x.move.clientId, state: x.state, venueId: x.venueId, detail: x.detail })) });
      this.done(text, result.stopped ?? (plan.unresolved.length > 0 ? unresolvedText(plan) : null));
    } catch (e) {
      const text = e instanceof PlanConflictError ? e.issues.join('; ') : e instanceof Error ? e.message : String(e);
      this.o.log('error', `treasury: the rebalance failed: ${text}`);
      this.done('failed', text);
    }
  }

  private pause(reason: string): void {
    this.view.state = 'paused';
    this.view.reason = reason;
    this.view.lastResult = `paused: ${reason}`;
    this.o.log('info', `treasury: rebalance paused: ${reason}`);
  }

  private done(result: string, reason: string | null): void {
    this.view.state = this.stopped ? 'off' : 'waiting';
    this.view.lastResult = result;
    this.view.reason = reason;
  }
}

function unresolvedText(plan: Plan): string {
  return plan.unresolved.map((u) => `${u.account} ${u.asset}: ${u.reason}`).join('; ');
}
