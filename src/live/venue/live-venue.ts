/**
 * The live venue (issue 20 deliverables 4 and 5): a VenuePort (ports/venue.ts) over the exchange
 * client and the user data stream, so the kernel, the order manager and the strategies run as in
 * the backtest.
 *
 * Commands leave through venue-commands.ts (journaled first, never resent). Events come from the
 * REST answers and the stream's executionReports (live/events) and all pass one SeenLedger: each
 * fill once by (orderId, tradeId), each order only forward (spec 3.1), whichever road came first;
 * then the journal (venue-journal.ts), then the order manager, one batch per venue operation.
 *
 * While the user stream's health is not LIVE, a new order (place, and the place half of a
 * cancelReplace) is denied with a `rejected` event whose reason starts STREAM_NOT_LIVE; cancels
 * still go out (stream-not-live.ts).
 *
 * Resync after every gap (the stream's gaps$: first open, reconnect, new listen key, STALE): the
 * resync's queries (live/resync) run over REST through the same client and weight budget
 * (resync-runner.ts), the missed events are delivered as one batch, a reconciliation report
 * (kind resync) is journaled, then `markResynced(gap)` makes the stream LIVE. Resyncs never
 * overlap: a gap during one runs another after it. A resync that fails is retried later on the
 * injected scheduler, and the stream stays RESYNCING (new orders denied) until one succeeds.
 *
 * Bad input never stops it: a frame that is not JSON or an event the decoder refuses (the stream's
 * notices), a report the mapping refuses (VenueMappingError), an executionReport of an order
 * this bot does not hold: each is logged with the reason; the first three are followed by a resync
 * (what they carried may have mattered), an order of this bot's prefix that it does not hold too
 * (the resync adopts it), a foreign one is left alone.
 *
 * Orders adopted by a resync or the start-up reconciliation (`adopt` events) are handed to the
 * `adopt` option (adopt-order.ts puts them in the order manager); without it they are journaled
 * and their later events kept from the order manager, which would refuse them as unknown.
 */
import { asyncScheduler, timer, type SchedulerLike, type Subscription } from 'rxjs';
import { parseClientOrderId } from '../../core/orders/client-order-id.ts';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import type { UserStreamEvent } from '../../exchange/streams/user-payload-types.ts';
import type { StreamHealth, StreamGap, StreamNotice } from '../../exchange/ws/stream-health.ts';
import type { UserDataStream } from '../../exchange/ws/user-data-stream.ts';
import type { Journal } from '../../journal/journal.ts';
import type { MissedFill, ReconciliationReport } from '../../journal/runs/reconciliation-store.ts';
import type { VenueCommand, VenueEvent, VenueEventSink, VenuePort } from '../../ports/venue.ts';
import { fromUserStreamEvent } from '../events/from-account-position.ts';
import type { EventPath, LiveEvent, VenueAdoptEvent } from '../events/live-events.ts';
import { VenueMappingError } from '../events/mapping-error.ts';
import { SeenLedger } from '../events/seen-ledger.ts';
import { eventsFromResync } from '../resync/events-from-resync.ts';
import type { ResyncResult } from '../resync/events-from-resync.ts';
import type { ResyncAnswer } from '../resync/resync-queries.ts';
import { killPoint } from '../kill-points.ts';
import { runResyncQueries } from './resync-runner.ts';
import { streamNotLive } from './stream-not-live.ts';
import { VenueCommands } from './venue-commands.ts';
import { VenueJournal } from './venue-journal.ts';
import { silentLog, type VenueLog } from './venue-log.ts';

export interface LiveVenueOptions {
  readonly client: ExchangeClient;
  readonly stream: UserDataStream<UserStreamEvent>;
  /** The journal of live runs; the run `runId` must have begun (live-run-store). */
  readonly journal?: Journal | undefined;
  readonly runId: string;
  /** The symbols traded: the resync asks their open orders and trades. */
  readonly symbols: readonly string[];
  /** Venue time for events the venue gives none for (default Date.now). */
  readonly now?: () => number;
  readonly log?: VenueLog;
  /** Takes an adopted order into the order manager; true when it did (adopt-order.ts). */
  readonly adopt?: (event: VenueAdoptEvent) => boolean;
  /** Whether a client order id is this bot's (default: made by core/orders/client-order-id.ts). */
  readonly ownsClientOrderId?: (clientOrderId: string) => boolean;
  /** Cancel open orders that are not this bot's when a resync finds them (default: report, leave alone). */
  readonly cancelForeign?: boolean;
  /** Retry a failed resync after this long (ms on `scheduler`; default 5 s). */
  readonly resyncRetryMs?: number;
  /** Pause between a resync's REST calls (default 0: the weight budget alone paces them). */
  readonly resyncPaceMs?: number;
  readonly scheduler?: SchedulerLike;
  /** A ledger shared with the start-up reconciliation (default: a new one). */
  readonly ledger?: SeenLedger;
}

export interface ResyncOutcome {
  readonly reason: string;
  readonly gap?: number | undefined;
  readonly result: ResyncResult;
  readonly delivered: readonly LiveEvent[];
  readonly calls: number;
  readonly answers: readonly ResyncAnswer[];
}

export class LiveVenue implements VenuePort {
  readonly ledger: SeenLedger;
  private sink: VenueEventSink | undefined;
  private readonly client: ExchangeClient;
  private readonly stream: UserDataStream<UserStreamEvent>;
  private readonly journal: VenueJournal;
  private readonly commands: VenueCommands;
  private readonly log: VenueLog;
  private readonly now: () => number;
  private readonly owns: (cid: string) => boolean;
  private readonly scheduler: SchedulerLike;
  private readonly subs: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Adopted orders the order manager did not take: their events stay away from it. */
  private readonly keptAway = new Set<string>();
  private health: StreamHealth;
  private resyncRunning: Promise<void> | undefined;
  private resyncWanted: { reason: string; gap?: StreamGap | undefined } | undefined;
  private retry: Subscription | undefined;
  private closed = false;
  private deliveries = 0;
  /** Every resync that completed, in order (for the host's log and the tests). */
  readonly resyncs: ResyncOutcome[] = [];

  constructor(private readonly opts: LiveVenueOptions) {
    this.client = opts.client;
    this.stream = opts.stream;
    this.ledger = opts.ledger ?? new SeenLedger();
    this.log = opts.log ?? silentLog;
    this.now = opts.now ?? Date.now;
    this.owns = opts.ownsClientOrderId ?? ((cid) => parseClientOrderId(cid) !== undefined);
    this.scheduler = opts.scheduler ?? asyncScheduler;
    this.journal = new VenueJournal(opts.journal, opts.runId, (e) =>
      this.log({ level: 'error', topic: 'journal', time: this.now(), message: `a deferred journal write failed: ${e instanceof Error ? e.message : String(e)}`, detail: e }),
    );
    this.health = opts.stream.health;
    this.commands = new VenueCommands({
      client: opts.client,
      journal: opts.journal,
      runId: opts.runId,
      now: this.now,
      log: this.log,
      deliver: (events, path, journalFirst) => this.deliver(events, path, journalFirst),
      placing: (cmd, time) => this.journal.placing(cmd, time),
      requestResync: (reason) => this.requestResync(reason),
      heldStatus: (cid) => this.ledger.statusOf(cid),
    });
  }

  connect(sink: VenueEventSink): void {
    this.sink = sink;
  }

  /** Listen to the user stream and start it (its first open is a gap: the first resync). */
  start(): this {
    this.subs.push(this.stream.health$.subscribe((h) => this.onHealth(h)));
    this.subs.push(this.stream.events$.subscribe((e) => this.onStreamEvent(e)));
    this.subs.push(this.stream.gaps$.subscribe((g) => this.requestResync(g.reason, g)));
    this.subs.push(this.stream.notices$.subscribe((n) => this.onNotice(n)));
    this.stream.start();
    return this;
  }

  send(command: VenueCommand): void {
    if (this.closed) throw new Error('live venue: closed');
    const time = this.now();
    // A new order that leaves is journaled (its orders row and request row) by the commands, in one transaction.
    if (command.kind === 'place') {
      this.ledger.placed(command);
      if (this.health.state !== 'LIVE') {
        this.journal.placing(command, time);
        return this.deny(command, time);
      }
      this.track(this.commands.place(command));
    } else if (command.kind === 'cancel') {
      this.track(this.commands.cancel(command));
    } else {
      this.ledger.placed(command.order);
      if (this.health.state !== 'LIVE') {
        // The cancel still goes out; only the new order waits for the stream.
        this.journal.placing(command.order, time);
        this.deny(command.order, time);
        this.track(this.commands.cancel({ kind: 'cancel', symbol: command.symbol, clientOrderId: command.cancelClientOrderId }));
        return;
      }
      this.track(this.commands.cancelReplace(command));
    }
  }

  /** The stream's health as last seen. */
  get streamHealth(): StreamHealth {
    return this.health;
  }

  /** Resolves when every command sent so far and any resync under way are done, and the journal's deferred writes are made (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      const pending = [...this.inFlight, ...(this.resyncRunning ? [this.resyncRunning] : [])];
      if (pending.length === 0) break;
      await Promise.allSettled(pending);
    }
    this.journal.flush();
  }

  /** Make the journal's deferred writes now (venue-journal.ts: answers whose events came first by the stream, duplicates, balances). */
  flushJournal(): void {
    this.journal.flush();
  }

  /** Stop listening, wait for what is in flight, close the stream (its listen key DELETEd). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.retry?.unsubscribe();
    await this.idle();
    await this.stream.close();
    for (const s of this.subs.splice(0)) s.unsubscribe();
    this.journal.flush();
  }

  /** Run a resync now (or after the one under way), e.g. when the host suspects it missed something. */
  requestResync(reason: string, gap?: StreamGap): void {
    if (this.closed) return;
    const prev = this.resyncWanted;
    this.resyncWanted = { reason: prev && !gap ? `${prev.reason}; ${reason}` : reason, gap: gap ?? prev?.gap };
    if (this.resyncRunning === undefined) this.resyncRunning = this.resyncLoop();
  }

  /** An order adopted outside `deliver` (start-up reconciliation): its events stay away from the order manager unless it took it. */
  noteAdoption(clientOrderId: string, taken: boolean): void {
    if (taken) this.keptAway.delete(clientOrderId);
    else this.keptAway.add(clientOrderId);
  }

  // ---- delivery

  /**
   * Through the seen ledger, into the journal, then to the order manager (one batch). `journalFirst`:
   * a write that belongs with these events (the answer of the request that brought them), made in
   * the same journal transaction.
   */
  deliver(events: readonly LiveEvent[], path: EventPath, journalFirst?: () => void): LiveEvent[] {
    if (events.length === 0) {
      journalFirst?.();
      return [];
    }
    const time = this.now();
    // Now and then, forget orders closed long enough ago (the resync does it too).
    if (++this.deliveries % 256 === 0) this.ledger.prune(time);
    const { forward, dropped } = this.ledger.admit(events, path);
    for (const d of dropped) this.log({ level: 'debug', topic: 'duplicate', time, message: d.reason });
    try {
      this.journal.events(forward, path, dropped.map((d) => ({ clientOrderId: 'clientOrderId' in d.event ? d.event.clientOrderId : undefined, time, reason: d.reason })), journalFirst);
    } catch (e) {
      this.log({ level: 'error', topic: 'journal', time, message: `journaling ${forward.length} events from ${path} failed: ${e instanceof Error ? e.message : String(e)}`, detail: e });
      // The request's answer alone, then (its events were not journaled: the next resync or start-up finds them at the venue).
      try {
        journalFirst?.();
      } catch (again) {
        this.log({ level: 'error', topic: 'journal', time, message: `journaling the answer failed too: ${again instanceof Error ? again.message : String(again)}` });
      }
    }
    if (forward.some((e) => e.kind === 'fill')) killPoint('fill-journaled-untold');
    const out: VenueEvent[] = [];
    for (const e of forward) {
      if (e.kind === 'adopt') {
        const taken = this.opts.adopt?.(e) ?? false;
        if (!taken) this.keptAway.add(e.clientOrderId);
        this.log({ level: 'info', topic: 'adopt', time, message: `adopted ${e.symbol} order ${e.clientOrderId} (${e.orderId}), ${e.status} ${e.executedQty}/${e.origQty}${taken ? '' : ': not taken by the order manager, journaled only'}` });
        continue;
      }
      if (e.kind !== 'balance' && this.keptAway.has(e.clientOrderId)) continue;
      out.push(e);
    }
    if (out.length > 0 && this.sink !== undefined) {
      try {
        this.sink(out);
      } catch (e) {
        // The host's hook failed (kernel rethrows after applying): the venue goes on.
        this.log({ level: 'error', topic: 'sink', time, message: `the event sink threw: ${e instanceof Error ? e.message : String(e)}`, detail: e });
      }
    }
    return forward;
  }

  private deny(cmd: Parameters<typeof streamNotLive>[0], time: number): void {
    const e = streamNotLive(cmd, this.health, time);
    this.log({ level: 'warn', topic: 'order', time, message: `place ${cmd.clientOrderId} denied: ${e.reason}` });
    // Never before `send` returns (ports/venue.ts).
    this.track(Promise.resolve().then(() => void this.deliver([e], 'newOrder')));
  }

  private track(p: Promise<void>): void {
    const q = p.catch((e: unknown) => this.log({ level: 'error', topic: 'order', time: this.now(), message: `command failed: ${e instanceof Error ? e.message : String(e)}`, detail: e }));
    this.inFlight.add(q);
    void q.finally(() => this.inFlight.delete(q));
  }

  // ---- the stream

  private onHealth(h: StreamHealth): void {
    const from = this.health;
    this.health = h;
    if (from.state === h.state && from.reason === h.reason) return;
    this.log({ level: h.state === 'LIVE' ? 'info' : 'warn', topic: 'health', time: this.now(), message: `user stream ${from.state} -> ${h.state}: ${h.reason}` });
    try {
      this.opts.journal?.streamHealth.record({ runId: this.opts.runId, time: this.now(), stream: 'user', from: from.state, to: h.state, reason: h.reason });
    } catch (e) {
      this.log({ level: 'error', topic: 'journal', time: this.now(), message: `journaling the stream health failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  private onNotice(n: StreamNotice): void {
    this.log({ level: n.level, topic: `stream ${n.kind}`, time: this.now(), message: n.message, detail: n.error });
    // A frame that could not be read may have been a fill: ask the venue.
    if (n.kind === 'frame' || n.kind === 'decode') this.requestResync(`unreadable user stream message (${n.kind}): ${n.message}`);
  }

  private onStreamEvent(e: UserStreamEvent): void {
    let events: VenueEvent[];
    try {
      events = fromUserStreamEvent(e).events;
    } catch (err) {
      const why = err instanceof VenueMappingError ? err.message : String(err);
      this.log({ level: 'error', topic: 'mapping', time: this.now(), message: `${e.eventType} refused: ${why}; resyncing`, detail: e });
      this.requestResync(`a ${e.eventType} could not be mapped: ${why}`);
      return;
    }
    const mine: VenueEvent[] = [];
    for (const ev of events) {
      if (ev.kind === 'balance' || this.ledger.has(ev.clientOrderId)) {
        mine.push(ev);
        continue;
      }
      if (this.owns(ev.clientOrderId)) {
        this.log({ level: 'warn', topic: 'foreign', time: this.now(), message: `${ev.kind} of ${ev.symbol} order ${ev.clientOrderId}: this bot's prefix but not held; resyncing to adopt it` });
        this.requestResync(`an order of this bot not held: ${ev.clientOrderId}`);
      } else {
        this.log({ level: 'warn', topic: 'foreign', time: this.now(), message: `executionReport for ${ev.symbol} order ${ev.clientOrderId}, which nobody here placed: ignored`, detail: ev });
      }
    }
    this.deliver(mine, 'stream');
  }

  // ---- resync

  private async resyncLoop(): Promise<void> {
    try {
      while (this.resyncWanted !== undefined && !this.closed) {
        const want = this.resyncWanted;
        this.resyncWanted = undefined;
        try {
          await this.resyncOnce(want.reason, want.gap);
        } catch (e) {
          const ms = this.opts.resyncRetryMs ?? 5000;
          this.log({ level: 'error', topic: 'resync', time: this.now(), message: `resync (${want.reason}) failed: ${e instanceof Error ? e.message : String(e)}; again in ${ms} ms`, detail: e });
          this.retry?.unsubscribe();
          this.retry = timer(ms, this.scheduler).subscribe(() => this.requestResync(want.reason, want.gap));
          return;
        }
      }
    } finally {
      this.resyncRunning = undefined;
    }
  }

  private async resyncOnce(reason: string, gap: StreamGap | undefined): Promise<void> {
    const symbols = [...new Set(this.opts.symbols)];
    // Closed orders held past their retention are forgotten first (bounded memory, seen-ledger.ts).
    this.ledger.prune(this.now());
    const snapshot = this.ledger.snapshot();
    const run = await runResyncQueries(this.client, snapshot, symbols, { paceMs: this.opts.resyncPaceMs ?? 0 });
    const result = eventsFromResync(snapshot, run.answers, { now: this.now(), ownsClientOrderId: this.owns, cancelForeign: this.opts.cancelForeign === true });
    this.ledger.noteTradeIds(result.highestTradeIds);
    const delivered = this.deliver(result.events, 'resync');
    killPoint('mid-resync');
    for (const p of result.incomplete) this.log({ level: 'warn', topic: 'resync', time: this.now(), message: `${p.symbol} ${p.clientOrderId}: ${p.message}` });
    for (const f of result.foreign) this.log({ level: 'warn', topic: 'foreign', time: this.now(), message: `open ${f.symbol} order ${f.clientOrderId} (${f.orderId}) is not this bot's: ${this.opts.cancelForeign === true ? 'cancelling it' : 'left alone'}` });
    const cancelled = await this.cancelForeign(result);
    this.resolveRequests(run.answers);
    const outcome: ResyncOutcome = { reason, gap: gap?.seq, result, delivered, calls: run.calls, answers: run.answers };
    this.resyncs.push(outcome);
    this.journalReport(outcome, cancelled);
    if (gap !== undefined) {
      const live = this.stream.markResynced(gap.seq);
      this.log({ level: 'info', topic: 'resync', time: this.now(), message: `resynced after gap ${gap.seq} (${reason}): ${delivered.length} events, ${run.calls} calls${live ? '' : '; a newer gap follows'}` });
    } else {
      this.log({ level: 'info', topic: 'resync', time: this.now(), message: `resynced (${reason}): ${delivered.length} events, ${run.calls} calls` });
    }
  }

  private async cancelForeign(result: ResyncResult): Promise<Set<string>> {
    const done = new Set<string>();
    for (const c of result.cancels) {
      try {
        await this.client.spot.cancelOrder({ origClientOrderId: c.clientOrderId });
        done.add(c.clientOrderId);
      } catch (e) {
        this.log({ level: 'warn', topic: 'foreign', time: this.now(), message: `cancelling foreign order ${c.clientOrderId} failed: ${e instanceof Error ? e.message : String(e)}` });
      }
    }
    return done;
  }

  /** Journaled requests whose outcome a resync query established. */
  private resolveRequests(answers: readonly ResyncAnswer[]): void {
    const j = this.opts.journal;
    if (j === undefined) return;
    for (const a of answers) {
      if (a.kind !== 'queryOrder' && a.kind !== 'orderNotFound') continue;
      const cid = a.query.clientOrderId;
      const order = a.kind === 'queryOrder' ? a.orders.at(-1) : undefined;
      const resolution = order ? { found: true, status: order.status, orderId: order.orderId, executedQty: order.executedQty, by: 'resync' } : { found: false, by: 'resync' };
      j.requests.resolve(cid, 'place', this.now(), resolution);
      j.requests.resolve(cid, 'cancelReplace', this.now(), resolution);
      j.requests.resolve(cid, 'cancel', this.now(), resolution);
    }
  }

  private journalReport(o: ResyncOutcome, cancelled: Set<string>): void {
    const j = this.opts.journal;
    if (j === undefined) return;
    const report: ReconciliationReport = {
      reason: o.reason,
      gap: o.gap,
      calls: o.calls,
      adoptedOrders: o.delivered.filter((e) => e.kind === 'adopt').map((e) => ({ symbol: e.symbol, clientOrderId: e.clientOrderId, orderId: e.orderId, status: e.status, executedQty: e.executedQty })),
      missedFills: o.delivered.filter((e) => e.kind === 'fill').map((e): MissedFill => ({ symbol: e.symbol, orderId: e.orderId, tradeId: e.tradeId, clientOrderId: e.clientOrderId, side: e.side, price: e.price, qty: e.qty })),
      foreignOrders: o.result.foreign.map((f) => ({ symbol: f.symbol, orderId: f.orderId, clientOrderId: f.clientOrderId, action: cancelled.has(f.clientOrderId) ? 'cancelled' : 'left' })),
      incomplete: o.result.incomplete,
      unmatchedTrades: o.result.unmatched.length,
    };
    try {
      j.reconciliations.record({ runId: this.opts.runId, time: this.now(), kind: 'resync', report });
    } catch (e) {
      this.log({ level: 'error', topic: 'journal', time: this.now(), message: `journaling the resync report failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
}
