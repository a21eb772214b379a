/**
 * The bot process's composition root (issue 21 deliverables 2 and 3): the same kernel, strategies,
 * order manager and filters as the backtest, fed by the live market-data pipeline and the live
 * venue. `startBot` builds and starts it; `runBot` also runs it until its signal (SIGINT/SIGTERM
 * in `halyard run`), `durationMs` or `stop()`, and returns the summary.
 *
 * Start-up, in an order that leaves nothing half-started when a step fails:
 *   1. the config (every problem at once), the keys from the environment, the strategies loaded
 *      and their params checked: nothing is touched before all of this holds;
 *   2. the venue: exchangeInfo (unreachable: said so) and the account (a refused key: said so);
 *      the strategies' symbols must be listed; the order manager built with their capital;
 *   3. the journal: the run begun (earlier unfinished runs found crashed) and the exchangeInfo
 *      saved (strategy-journal.ts also journals every intent before its command leaves, and a
 *      strategy's failure or stop with its reason, for `halyard status --journal`), then the start-up
 *      reconciliation (live/reconcile): the earlier runs' open orders adopted, fills missed while
 *      down applied once, pending requests resolved, BEFORE the user stream starts;
 *   4. warm-up bars into the kernel, then the user stream, and only once it is LIVE the
 *      strategies' onStart, the live bars and their timers.
 * A failure in 3-4 closes what was opened, in reverse (the stream's listen key DELETEd, the
 * journal's run ended `error` with the message), and no order has been sent: strategies start last.
 *
 * Stop (`stop()`, the signal, `durationMs`): market data and timers stop first (no new intents
 * from them), every strategy's onStop runs, open orders are cancelled or left per `onStop`, the
 * commands in flight complete, the listen key is closed, the run ends in the journal with its exit
 * reason and the summary, and the journal is closed. A crash instead leaves the journal for the
 * next start's reconciliation.
 */
import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';
import type { Logger } from 'pino';
import { createClient, type ClientHandle } from '../app/create-client.ts';
import { ConfigError } from '../config/errors.ts';
import type { Candle } from '../core/indicators/candle.ts';
import { parseInstruments, type Instrument } from '../core/market/instrument.ts';
import { D } from '../core/money/decimal.ts';
import { OrderManager } from '../core/orders/order-manager.ts';
import type { OrderIntent } from '../core/orders/types.ts';
import { intervalMs } from '../core/market/intervals.ts';
import { Kernel } from '../engine/kernel.ts';
import { ExchangeError, VenueRejectedError } from '../exchange/errors/errors.ts';
import { decodeUserEvent } from '../exchange/streams/user-payloads.ts';
import type { UserStreamEvent } from '../exchange/streams/user-payload-types.ts';
import { UserDataStream } from '../exchange/ws/user-data-stream.ts';
import { replayCapital } from '../core/orders/capital/capital-replay.ts';
import { openJournal, type Journal } from '../journal/journal.ts';
import type { ExitReason } from '../journal/runs/live-run-store.ts';
import type { FillRecord } from '../journal/fill-store.ts';
import { createMarketData } from '../live/market-data/market-data.ts';
import type { MarketData, MarketDataOptions } from '../live/market-data/types.ts';
import { reconcileAtStartup } from '../live/reconcile/startup-reconcile.ts';
import { adoptOrder, strategyKeys, strategyOf } from '../live/venue/adopt-order.ts';
import { LiveVenue } from '../live/venue/live-venue.ts';
import type { VenueLogEntry } from '../live/venue/venue-log.ts';
import { createLogger } from '../log/logger.ts';
import { MAX_HISTORY_BARS } from '../sandbox/agents/config.ts';
import { startSandbox, type SandboxHandle } from '../sandbox/server.ts';
import type { Interval } from '../strategy/types.ts';
import { statusSnapshot } from './bot-status.ts';
import { StrategyJournal } from './strategy-journal.ts';
import { FillTells } from './fill-tells.ts';
import { parseBotConfig, type BotConfig } from './config.ts';
import { BotStartError, messageOf } from './errors.ts';
import { keysFromEnv } from './keys.ts';
import { feedPlan, planIsEmpty, subscribeFeed, warmUp } from './market-feed.ts';
import type { BotStatusSnapshot, LastSignal } from './status/types.ts';
import { StrategyBook } from './strategy-book.ts';
import { resolveBotStrategies, type BotStrategy } from './strategies.ts';
import { summaryOf, type BotSummary } from './summary.ts';
import { Rebalancer } from '../treasury/bot/rebalancer.ts';
import { requireMasterKey } from '../treasury/policy/master-key.ts';

export type { BotSummary };

export interface BotOptions {
  /** The bot config: raw (checked here, every problem at once) or already parsed. */
  readonly config: unknown;
  /** Names the config in error messages (its file). */
  readonly configSource?: string;
  /** Where HALYARD_API_KEY / HALYARD_API_SECRET are read (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** An already-running sandbox for venue `sandbox` (npm start); absent, the bot starts its own and closes it at stop. */
  readonly sandbox?: SandboxHandle;
  /** Stops the bot (exit reason `signal`) when aborted. */
  readonly signal?: AbortSignal;
  /** runBot: stop after this long (ms on `scheduler`; exit reason `stopped`). */
  readonly durationMs?: number;
  /** Timers (streams, strategy timers, duration, status); default asyncScheduler. Tests: a VirtualTimeScheduler. */
  readonly scheduler?: SchedulerLike;
  /** The bot's clock (orders, strategies): default the sandbox's clock for venue `sandbox`, else the scheduler's. */
  readonly clock?: { now(): number };
  readonly logger?: Logger;
  /** The market-data pipeline (default src/live/market-data's createMarketData). */
  readonly marketData?: (options: MarketDataOptions) => MarketData;
  /** Each status snapshot, every `config.status.everyMs` (the CLI renders it: block on a terminal, JSON line otherwise). */
  readonly onStatus?: (snapshot: BotStatusSnapshot) => void;
  /** Where strategies are found by name, and relative paths resolved. */
  readonly strategiesDir?: string;
  readonly cwd?: string;
  /** Default: `bot-<ISO time>-<random>`. */
  readonly runId?: string;
}

export interface Bot {
  readonly runId: string;
  readonly journalFile: string;
  readonly config: BotConfig;
  readonly strategies: readonly BotStrategy[];
  readonly kernel: Kernel;
  readonly orders: OrderManager;
  readonly venue: LiveVenue;
  readonly client: ClientHandle['client'];
  readonly sandbox: SandboxHandle | undefined;
  status(): BotStatusSnapshot;
  /** Stop (once; later calls get the same promise). */
  stop(reason?: Exclude<ExitReason, 'crashed'>, detail?: string): Promise<BotSummary>;
  /** Resolves with the summary once stopped. */
  readonly done: Promise<BotSummary>;
}

/** Build and start the bot; throws ConfigError (bad input) or BotStartError (the venue) with nothing left started. */
export async function startBot(o: BotOptions): Promise<Bot> {
  const source = o.configSource ?? 'bot config';
  const config = parseBotConfig(o.config, source);
  const embedded = config.venue === 'sandbox';
  const envKeys = keysFromEnv(o.env ?? process.env, embedded);
  const strategies = await resolveBotStrategies(config, source, { ...(o.strategiesDir ? { strategiesDir: o.strategiesDir } : {}), ...(o.cwd ? { cwd: o.cwd } : {}) });
  const logger = o.logger ?? createLogger({ level: config.log.level });
  const scheduler = o.scheduler ?? asyncScheduler;

  // What is open so far, closed last first when a later step fails.
  const undo: (() => Promise<void> | void)[] = [];
  // The message a failed start-up ends the run with.
  let failure = '';
  const unwind = async () => {
    for (const f of undo.splice(0).reverse()) {
      try {
        await f();
      } catch (e) {
        logger.warn({ err: messageOf(e) }, 'bot start-up: cleaning up failed');
      }
    }
  };
  try {
    let sandbox = o.sandbox;
    if (embedded && sandbox === undefined) {
      // Its synthetic market starts with the history the strategies' warm-up needs (REST klines at once).
      const own = await startSandbox({ config: { market: { enabled: true, historyBars: historyFor(strategies) } }, logger: createLogger({ level: 'silent' }) });
      undo.push(() => own.close());
      sandbox = own;
    }
    const urls = config.venue === 'sandbox' ? { baseUrl: (sandbox as SandboxHandle).baseUrl, wsUrl: (sandbox as SandboxHandle).wsUrl } : config.venue;
    const keys = envKeys ?? { apiKey: (sandbox as SandboxHandle).apiKey, apiSecret: (sandbox as SandboxHandle).apiSecret };
    // An accelerated embedded sandbox (`halyard start --speed N`): requests are stamped, and the
    // weight budget counted, on its clock; on the system clock every signed call soon fell outside
    // recvWindow (-1021) as the sandbox ran ahead.
    const fast = sandbox !== undefined && o.clock === undefined && sandbox.config.clock.speed > 1;
    const handle = createClient({ baseUrl: urls.baseUrl, exchange: config.exchange, secrets: keys, logger, ...(fast ? { clock: (sandbox as SandboxHandle).clock } : {}) });
    undo.push(() => handle.close());
    const client = handle.client;
    // Venue time: the embedded sandbox's own clock, else the server-aligned clock (a closed bar is
    // closed by the venue's clock, not ours); a test's virtual clock when given.
    const serverClock = client.rest.serverClock;
    const clock = o.clock ?? (sandbox !== undefined ? sandbox.clock : { now: () => serverClock.now() });
    const now = () => clock.now();

    const { instruments, balances, exchangeInfo } = await probeVenue(client, urls.baseUrl, strategies, source);
    // A treasury section needs the master's key (a sub-account's fails every rebalance): refused here, before the journal or any order.
    if (config.treasury !== undefined) await requireMasterKey(client, source);
    const kind = embedded ? 'sandbox' : 'live';
    const startedAt = now();
    const runId = o.runId ?? `bot-${new Date(startedAt).toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
    let om: OrderManager;
    try {
      const capital = Object.fromEntries(strategies.filter((s) => s.capital !== undefined).map((s) => [s.name, s.capital as Record<string, string>]));
      om = new OrderManager({ runId, now, instruments: [...instruments.values()], balances, ...(Object.keys(capital).length > 0 ? { capital } : {}) });
    } catch (e) {
      // The capital given is more than the account holds, or not a decimal.
      throw new ConfigError(source, [`strategies.capital: ${messageOf(e)}`]);
    }

    // ---- the journal and the run
    let journal: Journal;
    try {
      journal = openJournal(config.journal, { createDirs: true });
    } catch (e) {
      throw new BotStartError(`cannot open the journal ${config.journal}: ${messageOf(e)}`, { cause: e });
    }
    undo.push(() => journal.close());
    const earlier = journal.liveRuns.list({ kind }).map((r) => r.id);
    const { crashed } = journal.liveRuns.begin({
      id: runId,
      kind,
      strategies: strategies.map((s) => ({ name: s.name, params: s.params, symbols: s.setup.symbols })),
      config,
      secrets: [keys.apiKey, keys.apiSecret],
      startedAt,
    });
    for (const c of crashed) logger.warn({ run: c.id }, `run ${c.id} did not stop cleanly (crashed): its orders and fills are reconciled now`);
    // What the strategies asked for, why one stopped, and the venue's rules the run started with
    // (`halyard status --journal` reads base, quote and minQty from them).
    const strategyJournal = new StrategyJournal(journal, runId, (what, e) => logger.error({ err: messageOf(e) }, `journal: writing ${what} failed`));
    strategyJournal.exchangeInfo(startedAt, exchangeInfo, strategies.flatMap((s) => s.setup.symbols));
    undo.push(() => void journal.liveRuns.end(runId, { endedAt: now(), reason: o.signal?.aborted === true ? 'signal' : 'error', detail: { message: failure } }));

    // ---- stream, venue, kernel
    const symbols = [...new Set(strategies.flatMap((s) => s.setup.symbols))];
    const stream = new UserDataStream<UserStreamEvent>({
      listenKeys: client.userStream,
      wsUrl: urls.wsUrl,
      decode: decodeUserEvent,
      scheduler,
      timings: timingsOf(config),
      ...(config.stream.keepaliveMs !== undefined ? { keepaliveMs: config.stream.keepaliveMs } : {}),
    });
    const keysToAdopt = strategyKeys([runId, ...earlier], strategies.map((s) => s.name));
    // Per-strategy capital goes on from the fills earlier runs journaled (core/orders/capital/capital-replay.ts).
    if (om.capital !== undefined) {
      const replay = replayCapital(om.capital, journal.fills.list(), (cid) => strategyOf(cid, keysToAdopt), (sym) => instruments.get(sym));
      for (const [name, n] of Object.entries(replay.applied)) logger.info({ strategy: name, fills: n, capital: om.capital.snapshot(name) }, `capital of ${name}: ${n} fills of earlier runs taken from the journal`);
      if (replay.unknownSymbols.length > 0) logger.warn({ symbols: replay.unknownSymbols }, `capital: journaled fills on ${replay.unknownSymbols.join(', ')} not taken (symbols not traded now)`);
    }
    // Each strategy's own position goes on from its journaled fills too (core/orders/account.ts
    // keeps positions per strategy): without it a strategy holding base across a restart reads
    // itself flat and never sells it. Missed fills come later, once, from the reconciliation.
    const held = replayPositions(om, journal.fills.list(), (cid) => strategyOf(cid, keysToAdopt), (sym) => instruments.get(sym)?.baseAsset);
    for (const [name, n] of Object.entries(held)) logger.info({ strategy: name, fills: n }, `positions of ${name}: ${n} fills of earlier runs taken from the journal`);
    const venueLog = (e: VenueLogEntry) => logger[e.level]({ topic: e.topic, ...(e.level === 'error' && e.detail instanceof Error ? { detail: e.detail.message } : {}) }, e.message);
    const venue = new LiveVenue({ client, stream, journal, runId, symbols, now, scheduler, log: venueLog, adopt: (e) => adoptOrder(om, e, keysToAdopt) });
    undo.push(() => venue.close());

    // Each fill told to its strategy once, across crashes: marked when told, and the owed ones told once the strategies run.
    const fillTells = new FillTells({
      journal,
      runId,
      kernel: () => kernel,
      strategyOf: (cid) => strategyOf(cid, keysToAdopt),
      now,
      told: (strategy, f) => logger.info({ strategy, symbol: f.symbol, clientOrderId: f.clientOrderId, tradeId: f.tradeId }, `fill ${f.side} ${f.qty} @ ${f.price}`),
      onError: (what, e) => logger.error({ err: messageOf(e) }, `journal: ${what} failed`),
    });
    const books = new Map(strategies.map((s) => [s.name, new StrategyBook((sym) => instruments.get(sym))]));
    const lastSignals = new Map<string, LastSignal>();
    const counts = { orders: 0, fills: 0, rejected: 0, bars: 0 };
    const perStrategy = new Map(strategies.map((s) => [s.name, { orders: 0, fills: 0, rejected: 0, denied: 0 }]));
    const failures: { strategy: string; message: string; time: number }[] = [];
    const kernel = new Kernel({
      orders: om,
      venue,
      clock,
      onStrategyFailure: config.onStrategyFailure,
      onIntents: (strategy, intents, time, origin) => {
        // Journaled before their commands leave (the kernel sends them after this hook).
        strategyJournal.intents(strategy, intents, time, origin);
        if (origin === 'strategy' && intents.length > 0) lastSignals.set(strategy, { time, kind: 'intent', summary: intentText(intents[intents.length - 1] as OrderIntent), symbol: intents[intents.length - 1]?.symbol ?? null });
        const n = intents.filter((i) => i.kind === 'place' || i.kind === 'cancelReplace').length;
        counts.orders += n;
        const p = perStrategy.get(strategy);
        if (p) p.orders += n;
      },
      onDenial: (d) => {
        const p = perStrategy.get(d.strategy);
        if (p) p.denied++;
        // Counted as asked in onIntents; a denied one was never sent.
        if (d.intent.kind !== 'cancel') {
          counts.orders--;
          if (p) p.orders--;
        }
        logger.warn({ strategy: d.strategy, symbol: d.symbol, clientOrderId: d.clientOrderId }, `denied: ${d.reasons.join('; ')}`);
      },
      onFill: (strategy, f) => {
        counts.fills++;
        const p = perStrategy.get(strategy);
        if (p) p.fills++;
        books.get(strategy)?.fill(f);
        lastSignals.set(strategy, { time: f.time, kind: 'order', summary: `${f.orderStatus} ${f.side} ${f.qty} ${f.symbol} @ ${f.price}`, symbol: f.symbol });
        // Marked told and logged (`fill ...`), or owed until the strategy starts (fill-tells.ts).
        if (fillTells.onFill(strategy, f) === 'owed') logger.info({ strategy, symbol: f.symbol, clientOrderId: f.clientOrderId, tradeId: f.tradeId }, `applied ${f.side} ${f.qty} @ ${f.price} before ${strategy} started: told once it starts`);
      },
      onOrderUpdate: (strategy, u) => {
        if (u.status === 'REJECTED') {
          counts.rejected++;
          const p = perStrategy.get(strategy);
          if (p) p.rejected++;
          logger.warn({ strategy, symbol: u.symbol, clientOrderId: u.clientOrderId }, `rejected by the venue: ${u.reason ?? 'no reason given'}`);
        }
        lastSignals.set(strategy, { time: u.time, kind: 'order', summary: `${u.status} ${u.side} ${u.origQty ?? u.executedQty} ${u.symbol}${u.price ? ` @ ${u.price}` : ''}${u.reason ? ` (${u.reason})` : ''}`, symbol: u.symbol });
      },
      onFailure: (f) => {
        strategyJournal.failed(f);
        failures.push({ strategy: f.strategy, message: `${f.handler} ${f.kind}: ${f.message}`, time: f.time });
        logger.error({ strategy: f.strategy, handler: f.handler, kind: f.kind }, `strategy ${f.strategy} failed and is stopped (${f.message}); its open orders are ${config.onStrategyFailure === 'cancel' ? 'cancelled' : 'left'}; the others trade on`);
      },
      onIssue: (i) => logger.warn({ issue: i }, 'order manager issue'),
      onLog: (e) => logger.info({ strategy: e.strategy, ...(e.data === undefined ? {} : { data: e.data }) }, e.message),
    });
    for (const s of strategies) kernel.addStrategy(s.definition, s.params);

    // ---- start-up reconciliation, before the stream
    const rec = await reconcileAtStartup({ client, journal, runId, symbols, venue, adopt: (order) => adoptOrder(om, order, keysToAdopt), now, log: venueLog });
    if (rec.summary) logger.info({ calls: rec.calls }, `start-up reconciliation: ${rec.summary}`);

    // ---- warm-up, then the stream
    const plan = feedPlan(strategies);
    let md: MarketData | undefined;
    let warmedTo = new Map<string, number>();
    const markAll = (symbol: string, price: string, time: number, source: 'last-trade' | 'kline-close') => {
      for (const b of books.values()) b.mark(symbol, price, time, source);
    };
    if (!planIsEmpty(plan)) {
      const made = (o.marketData ?? createMarketData)({
        client,
        wsUrl: urls.wsUrl,
        journal: journal.klines,
        scheduler,
        now,
        timings: timingsOf(config),
        log: (e) => logger[e.level]({ topic: `market ${e.topic}` }, e.message),
      });
      md = made;
      undo.push(() => made.close());
      warmedTo = await warmUp(made, kernel, om, plan, {
        onWarmup: (symbol, interval, n, wanted) => (n < wanted ? logger.warn : logger.info).call(logger, { symbol, interval }, `warm-up: ${n} of ${wanted} bars`),
      });
    }
    venue.start();
    await untilLive(venue, config.stream.liveTimeoutMs, o.signal);

    // ---- trading: strategies start (onStart may place), then bars and timers
    kernel.start();
    // Fills the strategies were never told of: the reconciliation's (applied before they started)
    // and those an earlier run journaled and died before telling (a crashed or failed run's).
    const owedRuns = [...journal.liveRuns.list({ kind }).filter((r) => r.exitReason === 'crashed' || r.exitReason === 'error').map((r) => r.id), runId];
    const toldLate = fillTells.tellOwed(owedRuns);
    if (toldLate > 0) logger.info({ fills: toldLate }, `${toldLate} fill(s) the strategies had not been told of (applied while they were not running) told now`);
    const subs: Subscription[] = [];
    if (md !== undefined) {
      subs.push(
        subscribeFeed(md, kernel, om, plan, warmedTo, { now, scheduler }, {
          onError: (what, e) => logger.error({ err: messageOf(e) }, `market data: ${what} refused by the kernel`),
          onBar: (symbol: string, _i: Interval, c: Candle) => {
            counts.bars++;
            markAll(symbol, c.exact.close, c.closeTime, 'kline-close');
          },
          onTrade: (symbol, price, time) => markAll(symbol, price, time, 'last-trade'),
        }),
      );
    }
    // The embedded sandbox's clock may run faster than the scheduler's (npm start --speed): a timer due in N ms of its time is N / speed away.
    const speed = o.clock === undefined && sandbox !== undefined && sandbox.config.clock.speed > 0 ? sandbox.config.clock.speed : 1;
    const timers = new StrategyTimers(kernel, scheduler, now, speed, (e) => logger.error({ err: messageOf(e) }, 'strategy timer'));
    timers.arm();
    // The treasury's rebalancer (src/treasury/bot): internal moves on its schedule, paused while the stream is not LIVE.
    const rebalancer =
      config.treasury === undefined
        ? undefined
        : new Rebalancer({
            policy: config.treasury,
            exchangeInfo: { info: exchangeInfo, at: startedAt },
            client,
            journal,
            runId,
            scheduler,
            now,
            stream: () => venue.streamHealth,
            busySymbols: () => [...new Set([...om.orders.openOrders()].map((x) => x.symbol))].flatMap((sym) => {
              const i = instruments.get(sym);
              return i === undefined ? [] : [{ symbol: sym, baseAsset: i.baseAsset, quoteAsset: i.quoteAsset }];
            }),
            log: (level, msg, data) => logger[level]({ topic: 'treasury', ...data }, msg),
          });
    rebalancer?.start();
    logger.info({ run: runId, journal: journal.file, venue: urls.baseUrl }, `trading: ${strategies.map((s) => `${s.name} on ${s.setup.symbols.join(', ')}`).join('; ')}; the user stream is LIVE`);

    // ---- the running bot
    undo.length = 0;
    let ended: { at: number; reason: ExitReason; detail: string | null } | undefined;
    let resolveDone!: (s: BotSummary) => void;
    const done = new Promise<BotSummary>((r) => (resolveDone = r));
    let stopping: Promise<BotSummary> | undefined;
    const snapshot = (): BotStatusSnapshot => ({
      ...statusSnapshot({
        runId,
        kind,
        startedAt,
        now: now(),
        ended,
        strategies,
        kernel,
        orders: om,
        books,
        lastSignals,
        userStream: venue.streamHealth,
        marketData: md?.health(),
        budget: client.rest.budget.snapshot(),
        // Local minus venue (the status type's sign): the server clock's offset is venue minus local.
        clockOffsetMs: client.rest.serverClock.estimate === undefined ? undefined : -client.rest.serverClock.offsetMs,
        counts,
        quoteOf: (sym) => instruments.get(sym)?.quoteAsset,
      }),
      ...(rebalancer === undefined ? {} : { treasury: rebalancer.status() }),
    });
    const statusSub = o.onStatus === undefined ? undefined : scheduler.schedule(function (this: { schedule(state?: undefined, delay?: number): void }) {
      try {
        o.onStatus?.(snapshot());
      } catch (e) {
        logger.warn({ err: messageOf(e) }, 'status output failed');
      }
      this.schedule(undefined, config.status.everyMs);
    }, config.status.everyMs);
    const onAbort = () => void stop('signal', signalName(o.signal));
    o.signal?.addEventListener('abort', onAbort, { once: true });

    const stop = (reason: Exclude<ExitReason, 'crashed'> = 'stopped', detail?: string): Promise<BotSummary> =>
      (stopping ??= (async () => {
        // Each step on its own: one that fails is logged and the rest still run (the run is ended, the journal closed).
        const step = async (what: string, f: () => unknown) => {
          try {
            await f();
          } catch (e) {
            logger.error({ err: messageOf(e) }, `stopping: ${what} failed`);
          }
        };
        o.signal?.removeEventListener('abort', onAbort);
        statusSub?.unsubscribe();
        for (const s of subs.splice(0)) s.unsubscribe();
        timers.stop();
        await step('the treasury rebalancer', () => rebalancer?.stop());
        logger.info({ reason }, `stopping (${detail ?? reason}): open orders ${config.onStop === 'cancel' ? 'cancelled' : 'left on the book'}`);
        await step('the strategies\' onStop', () => kernel.stop(reason === 'signal' ? 'signal' : 'stopped'));
        await step('journaling the strategies stopped', () => strategyJournal.stopped(kernel, now()));
        if (config.onStop === 'cancel') await step('cancelling open orders', () => cancelOpen(om, venue, strategies, logger));
        await step('the commands in flight', () => venue.idle());
        await step('the cancels\' answers', () => untilNoOpenOrders(om, config.onStop, 5000));
        // The journal ends with the account as the bot leaves it: a cancel's balance update comes by
        // the stream after its answer, and closing the stream could cut it off (the chaos run's
        // journal kept a cancelled bid's 798 PHP locked that the venue had released).
        await step('reading the account as it is left', async () => {
          venue.requestResync('stopping: the account as it is left');
          await venue.idle();
        });
        await step('closing the user stream (listen key)', () => venue.close());
        await step('closing the market data', () => md?.close());
        ended = { at: now(), reason, detail: detail ?? null };
        const summary = summaryOf({ runId, journal: journal.file, startedAt, ended, strategies, books, perStrategy, failures, counts, orders: om });
        await step('ending the run in the journal', () => journal.liveRuns.end(runId, { endedAt: ended?.at ?? now(), reason, detail: detail === undefined ? undefined : { message: detail }, result: summary }));
        await step('closing the journal', () => journal.close());
        await step('closing the client', () => handle.close());
        if (sandbox !== o.sandbox) await step('closing the sandbox', () => sandbox?.close());
        resolveDone(summary);
        return summary;
      })());
    if (o.signal?.aborted) void stop('signal', signalName(o.signal));
    return { runId, journalFile: journal.file, config, strategies, kernel, orders: om, venue, client, sandbox, status: snapshot, stop, done };
  } catch (e) {
    failure = messageOf(e);
    await unwind();
    if (e instanceof ConfigError || e instanceof BotStartError) throw e;
    throw new BotStartError(`the bot could not start: ${messageOf(e)}`, { cause: e });
  }
}

/** Start, run until the signal, `durationMs` or a stop, and return the summary. */
export async function runBot(o: BotOptions): Promise<BotSummary> {
  const bot = await startBot(o);
  if (o.durationMs !== undefined) {
    const sub = (o.scheduler ?? asyncScheduler).schedule(() => void bot.stop('stopped', `duration ${o.durationMs} ms`), o.durationMs);
    void bot.done.then(() => sub.unsubscribe());
  }
  return bot.done;
}

// ---- helpers

/** 1-minute bars of history covering the largest warm-up (its interval's bars in minutes), with an hour to spare. */
function historyFor(strategies: readonly BotStrategy[]): number {
  let minutes = 0;
  for (const [, s] of feedPlan(strategies).bars) minutes = Math.max(minutes, (s.warmup * (intervalMs(s.interval) ?? 30 * 86_400_000)) / 60_000);
  return Math.min(MAX_HISTORY_BARS, Math.ceil(minutes) + 60);
}

async function probeVenue(client: ClientHandle['client'], baseUrl: string, strategies: readonly BotStrategy[], source: string): Promise<{ instruments: Map<string, Instrument>; balances: Record<string, string>; exchangeInfo: unknown }> {
  let instruments: Map<string, Instrument>;
  let exchangeInfo: unknown;
  try {
    exchangeInfo = await client.general.exchangeInfo();
    instruments = parseInstruments(exchangeInfo);
  } catch (e) {
    throw new BotStartError(`the venue at ${baseUrl} is unreachable or did not answer exchangeInfo: ${messageOf(e)}`, { cause: e });
  }
  const issues: string[] = [];
  strategies.forEach((s, i) => {
    const unknown = s.setup.symbols.filter((sym) => !instruments.has(sym));
    if (unknown.length > 0) issues.push(`strategies.${i} (${s.name}): the venue does not list ${unknown.join(', ')}`);
  });
  if (issues.length > 0) throw new ConfigError(source, issues);
  let account: Awaited<ReturnType<typeof client.account.account>>;
  try {
    account = await client.account.account();
  } catch (e) {
    const refused = e instanceof VenueRejectedError || (e instanceof ExchangeError && /key|signature|permission/i.test(e.message));
    throw new BotStartError(refused ? `the venue refused the API key (HALYARD_API_KEY / HALYARD_API_SECRET): ${messageOf(e)}` : `reading the account at ${baseUrl} failed: ${messageOf(e)}`, { cause: e });
  }
  // What the account holds (free + locked: orders left open by an earlier run lock some), so the
  // capital given is checked against it; the start-up reconciliation's account answer then sets
  // free and locked apart before any strategy starts.
  const balances: Record<string, string> = {};
  for (const b of account.balances) balances[b.asset] = new D(b.free).plus(b.locked).toFixed();
  return { instruments, balances, exchangeInfo };
}

function timingsOf(config: BotConfig) {
  const { keepaliveMs: _k, liveTimeoutMs: _l, backoff, ...rest } = config.stream;
  return { ...rest, ...(backoff ? { backoff } : {}) };
}

function intentText(i: OrderIntent): string {
  if (i.kind === 'cancel') return `cancel ${i.symbol} ${i.tag ?? i.clientOrderId ?? ''}`.trim();
  const p = i.kind === 'cancelReplace' ? i.order : i;
  const size = p.quantity ?? (p.quoteOrderQty !== undefined ? `${p.quoteOrderQty} quote` : '');
  return `${i.kind === 'cancelReplace' ? 'replace: ' : ''}${p.side} ${size} ${i.symbol} ${p.type}${p.price !== undefined ? ` @ ${p.price}` : ''}`;
}

const signalName = (s: AbortSignal | undefined): string => {
  const r = s?.reason as { signal?: unknown } | undefined;
  return typeof r?.signal === 'string' ? r.signal : 'aborted';
};

/** Resolves once the user stream is LIVE; a BotStartError after `ms` of wall time or when aborted. */
function untilLive(venue: LiveVenue, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const h = venue.streamHealth;
      if (h.state === 'LIVE') return resolve();
      if (signal?.aborted) return reject(new BotStartError('stopped before the user stream was LIVE'));
      if (Date.now() - started > ms) return reject(new BotStartError(`the user stream was not LIVE within ${ms} ms (${h.state}: ${h.reason})`));
      setTimeout(tick, 5);
    };
    tick();
  });
}

/** Cancel every open order of every strategy (the bot's onStop `cancel`). */
function cancelOpen(om: OrderManager, venue: LiveVenue, strategies: readonly BotStrategy[], logger: Logger): void {
  for (const s of strategies) {
    const cancels: OrderIntent[] = [];
    for (const o of om.orders.openOrders(s.name)) {
      if (o.status !== 'PENDING_CANCEL') cancels.push({ kind: 'cancel', symbol: o.symbol, clientOrderId: o.clientOrderId });
    }
    if (cancels.length === 0) continue;
    const r = om.submit(s.name, cancels);
    for (const c of r.commands) venue.send(c);
    for (const d of r.denials) logger.warn({ strategy: s.name, clientOrderId: d.clientOrderId }, `cancel at stop refused: ${d.reasons.join('; ')}`);
  }
}

/** With `cancel`, wait (wall time, bounded) until no cancel is still waiting for its answer. */
async function untilNoOpenOrders(om: OrderManager, onStop: 'cancel' | 'leave', ms: number): Promise<void> {
  if (onStop !== 'cancel') return;
  const end = Date.now() + ms;
  while (Date.now() < end && [...om.orders.openOrders()].some((o) => o.status === 'PENDING_CANCEL')) {
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Strategy timers (defineStrategy timerMs) on the injected scheduler: armed at the earliest due time, fired, armed again. */
class StrategyTimers {
  private sub: Subscription | undefined;
  private stopped = false;
  constructor(
    private readonly kernel: Kernel,
    private readonly scheduler: SchedulerLike,
    private readonly now: () => number,
    /** Clock ms per scheduler ms. */
    private readonly speed: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  arm(): void {
    this.sub?.unsubscribe();
    this.sub = undefined;
    const due = this.kernel.nextTimerAt;
    if (this.stopped || due === undefined) return;
    this.sub = this.scheduler.schedule(() => this.fire(), Math.max(0, Math.ceil((due - this.now()) / this.speed)));
  }

  stop(): void {
    this.stopped = true;
    this.sub?.unsubscribe();
  }

  private fire(): void {
    try {
      // Early by a rounding (or a clock that lags the scheduler): armed again for the rest.
      this.kernel.timer(this.now());
    } catch (e) {
      this.onError(e);
    }
    this.arm();
  }
}

/** Journaled fills of this bot's strategies into their own positions (and the account's); the count per strategy. */
function replayPositions(
  om: OrderManager,
  fills: Iterable<FillRecord>,
  strategyOf: (clientOrderId: string) => string | undefined,
  baseAssetOf: (symbol: string) => string | undefined,
): Record<string, number> {
  const applied: Record<string, number> = {};
  for (const f of fills) {
    if (f.clientOrderId === null) continue;
    const strategy = strategyOf(f.clientOrderId);
    const baseAsset = baseAssetOf(f.symbol);
    if (strategy === undefined || baseAsset === undefined) continue;
    om.account.applyFillText({ symbol: f.symbol, baseAsset, side: f.side, price: f.price, qty: f.qty, commission: f.commission, commissionAsset: f.commissionAsset }, strategy);
    applied[strategy] = (applied[strategy] ?? 0) + 1;
  }
  return applied;
}
