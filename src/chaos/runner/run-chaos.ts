/**
 * One chaos run (issue 22 deliverables 1 and 2): the bot with the four chaos strategies (MARKET
 * orders, resting limits and cancels, cancel-replace, stops) against the sandbox, both on one
 * virtual clock (time-driver.ts), the sandbox's market agents trading against it, the seeded fault
 * schedule (fault-schedule.ts) injected as the intents go by (injector.ts); then the faults ended,
 * the bot given time to heal, stopped cleanly (open orders cancelled), the venue and the journal
 * read (src/chaos/collect) and `checkRun` called.
 *
 * Recorded on the way: each fault's start and end, the HTTP status of every answer the bot got
 * (run-log.ts), each fill each strategy was told of (recorder.ts), and crashes: an uncaught
 * exception or unhandled rejection in the process, the bot ending by itself, a strategy stopped
 * for throwing, a run that stops making progress, a stop that does not finish.
 *
 * Everything runs in this process: the sandbox on 127.0.0.1 (ephemeral port), the bot over real
 * HTTP and WebSocket to it, its journal in a temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '../../app/create-client.ts';
import { startBot, type Bot } from '../../bot/run-bot.ts';
import { parseConfig } from '../../config/load.ts';
import { openJournal } from '../../journal/journal.ts';
import { createLogger } from '../../log/logger.ts';
import { DEMO_API_KEY, DEMO_API_SECRET, DEMO_EMAIL, DEMO_UID } from '../../sandbox/config/defaults.ts';
import { startSandbox, type SandboxHandle } from '../../sandbox/server.ts';
import { checkRun } from '../check-run.ts';
import { collectJournal } from '../collect/journal-state.ts';
import { collectVenue } from '../collect/venue-state.ts';
import type { ChaosRunInput } from '../input.ts';
import type { ChaosReport } from '../report.ts';
import { DEFAULT_RATES, type FaultKind, type FaultRates } from './fault-kinds.ts';
import { countByKind, faultSchedule, type Injection } from './fault-schedule.ts';
import { Injector, type InjectedFault } from './injector.ts';
import { settleInstantFaults } from './instant-faults.ts';
import { freshSeed } from './prng.ts';
import { dropRecorder, intentsAsked, recorderOf, strategyFills } from './recorder.ts';
import { RunLog } from './run-log.ts';
import { TimeDriver } from './time-driver.ts';

export const CHAOS_T0 = Date.parse('2024-03-13T10:00:00Z');

export interface ChaosOptions {
  /** Default: a fresh one (printed, to replay). */
  readonly seed?: string;
  /** Intents the strategies ask for in all (default 10,000). */
  readonly intents?: number;
  /** Fault kinds and rates per intent (default: every kind, fault-kinds.ts DEFAULT_RATES). */
  readonly rates?: FaultRates;
  /** Sandbox ms per scheduler ms (default 2; above 1). */
  readonly speed?: number;
  /** Each strategy's timer (sandbox ms, default 2000: the four ask 2 intents a second of sandbox time). */
  readonly everyMs?: number;
  /** The bot's REST timeout, wall ms (default 1500): `timeout` faults hold an answer past it. */
  readonly clientTimeoutMs?: number;
  /** Longest time (sandbox ms) with no new intent before the run is declared stuck (default 10 minutes). */
  readonly stuckAfterMs?: number;
  /** Keep the journal (its path is in the result); default: removed. */
  readonly keepJournal?: boolean;
  /** Progress lines (a line every `progressEvery` intents and at each phase). */
  readonly progress?: (line: string) => void;
  readonly progressEvery?: number;
}

export interface ChaosResult {
  readonly report: ChaosReport;
  readonly input: ChaosRunInput;
  readonly seed: string;
  readonly intents: number;
  readonly schedule: readonly Injection[];
  readonly faults: readonly InjectedFault[];
  readonly injectedByKind: Record<FaultKind, number>;
  /** HTTP statuses the bot got, counted. */
  readonly statuses: Record<string, number>;
  /** Warnings and errors the bot logged, by message. */
  readonly problems: { level: number; msg: string; count: number; example: string }[];
  readonly wallMs: number;
  /** Sandbox time the run covered (ms). */
  readonly sandboxMs: number;
  readonly journal: string | undefined;
  readonly strategies: { name: string; strategy: string; symbol: string }[];
}

const STRATEGY_DIR = fileURLToPath(new URL('./strategies/', import.meta.url));

/** The four chaos strategies: market orders and stops on BTCPHP, limits and cancel-replace on ETHPHP (two symbols: the sandbox keeps 10,000 closed orders per account and symbol). */
export const CHAOS_STRATEGIES = [
  { name: 'market', file: 'chaos-market.ts', symbol: 'BTCPHP', quantity: '0.0002', maxOpen: 4 },
  { name: 'stops', file: 'chaos-stops.ts', symbol: 'BTCPHP', quantity: '0.0002', maxOpen: 4 },
  { name: 'limits', file: 'chaos-limits.ts', symbol: 'ETHPHP', quantity: '0.004', maxOpen: 6 },
  { name: 'replace', file: 'chaos-replace.ts', symbol: 'ETHPHP', quantity: '0.004', maxOpen: 1 },
] as const;

const SYMBOLS = ['BTCPHP', 'ETHPHP'];
/** The sandbox's reference prices (src/sandbox/config/defaults.ts), so the default sizes clear minNotional. */
const START_PRICES: Record<string, string> = { BTCPHP: '3500000', ETHPHP: '200000' };
/** The bot's account: enough of each asset that 10,000 intents never run it dry. */
const BALANCES = { PHP: '50000000', BTC: '5', ETH: '80', USDT: '10000' };
const STEP_MS = 1000;
/** The longest the heal phase waits for the user stream to be LIVE again (sandbox ms). */
const HEAL_MAX_MS = 15 * 60_000;

export async function runChaos(o: ChaosOptions = {}): Promise<ChaosResult> {
  const seed = o.seed ?? freshSeed();
  const intents = o.intents ?? 10_000;
  const speed = o.speed ?? 2;
  const everyMs = o.everyMs ?? 2000;
  const clientTimeoutMs = o.clientTimeoutMs ?? 1500;
  const stuckAfterMs = o.stuckAfterMs ?? 600_000;
  const rates = o.rates ?? DEFAULT_RATES;
  const say = o.progress ?? (() => {});
  const wallStart = performance.now();
  const schedule = faultSchedule({ seed, intents, rates, clientTimeoutMs });
  const runId = `chaos-${seed}-${Math.random().toString(36).slice(2, 8)}`;
  const recorder = recorderOf(runId);
  const driver = new TimeDriver(CHAOS_T0, speed);
  const dir = mkdtempSync(join(tmpdir(), 'halyard-chaos-'));
  const journalFile = join(dir, 'chaos.db');
  const crashes: { time: number; reason: string }[] = [];
  let sandbox: SandboxHandle | undefined;
  let bot: Bot | undefined;
  let stopping = false;

  const onUncaught = (e: unknown) => crashes.push({ time: sandbox?.clock.now() ?? CHAOS_T0, reason: `uncaught: ${messageOf(e)}` });
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  try {
    sandbox = await startSandbox({
      clock: driver.base,
      config: {
        admin: { enabled: true },
        clock: { speed },
        accounts: [{ uid: DEMO_UID, email: DEMO_EMAIL, balances: BALANCES, keys: [{ apiKey: DEMO_API_KEY, secret: DEMO_API_SECRET, name: 'chaos' }] }],
        market: { enabled: true, seed: `chaos:${seed}`, markets: SYMBOLS.map((symbol) => ({ symbol, source: { type: 'synthetic' as const, startPrice: START_PRICES[symbol] } })) },
      },
    });
    const s = sandbox;
    const now = () => s.clock.now();
    const start = now();
    const log = new RunLog(now);
    const logger = createLogger({ level: 'debug' }, { write: (l: string) => log.write(l) });
    const share = (i: number) => Math.floor(intents / CHAOS_STRATEGIES.length) + (i < intents % CHAOS_STRATEGIES.length ? 1 : 0);
    const strategies = CHAOS_STRATEGIES.map((c, i) => ({
      strategy: join(STRATEGY_DIR, c.file),
      name: c.name,
      params: { run: runId, key: c.name, seed, intents: share(i), symbol: c.symbol, everyMs, quantity: c.quantity, maxOpen: c.maxOpen },
    }));
    say(`chaos: seed ${seed}, ${intents} intents, ${schedule.length} faults scheduled, speed ${speed}`);
    const b = await startBot({
      config: {
        venue: 'sandbox',
        journal: journalFile,
        strategies,
        onStop: 'cancel',
        onStrategyFailure: 'cancel',
        // The user stream's timings on the scheduler (base ms): a stall is noticed within ~15 s of sandbox time.
        stream: { pingIntervalMs: driver.baseMs(10_000), pongTimeoutMs: driver.baseMs(5_000), backoff: { baseMs: driver.baseMs(500), maxMs: driver.baseMs(8_000) }, keepaliveMs: driver.baseMs(20 * 60_000) },
        exchange: { timeoutMs: clientTimeoutMs },
        status: { everyMs: 3_600_000 },
      },
      sandbox: s,
      scheduler: driver.vt.scheduler,
      logger,
      env: {},
      runId,
    });
    bot = b;
    void b.done.then(() => {
      if (!stopping) crashes.push({ time: now(), reason: 'the bot stopped by itself' });
    });
    const injector = new Injector(s, log.outcomes);
    const idle = () => Promise.race([b.venue.idle(), wallSleep(250)]);

    // ---- the run: intents, faults on their schedule
    let next = 0;
    let lastAsked = 0;
    let lastProgressAt = now();
    let reported = 0;
    const every = o.progressEvery ?? 1000;
    while (intentsAsked(recorder) < intents) {
      const asked = intentsAsked(recorder);
      while (next < schedule.length && (schedule[next] as Injection).atIntent <= asked) await injector.inject(schedule[next++] as Injection);
      await driver.advance(STEP_MS);
      await injector.tick();
      await idle();
      if (asked !== lastAsked) {
        lastAsked = asked;
        lastProgressAt = now();
      } else if (now() - lastProgressAt > stuckAfterMs) {
        crashes.push({ time: now(), reason: `no intent for ${stuckAfterMs} ms of sandbox time at ${asked} of ${intents} (strategies: ${JSON.stringify(Object.fromEntries(recorder.intents))})` });
        break;
      }
      if (asked - reported >= every) {
        reported = asked;
        say(`  ${asked} intents, ${injector.log.length} faults injected, ${((performance.now() - wallStart) / 1000).toFixed(1)} s`);
      }
    }
    // Faults due at the last intents.
    while (next < schedule.length) await injector.inject(schedule[next++] as Injection);

    // ---- heal: every fault ended, time for the streams to come back and the resyncs to run
    say('chaos: intents done; ending the faults, letting the bot heal');
    await driver.advance(STEP_MS);
    await injector.tick();
    await injector.endAll();
    // At least 30 s, then until the user stream is LIVE (a 418 keeps it down for 2 minutes of the scheduler's time, which is `speed` times that of the sandbox's).
    for (let t = 0; t < HEAL_MAX_MS; ) {
      // Fine steps while the faults' effects settle, coarser while waiting out a long back-off.
      const step = t < 30_000 ? STEP_MS : 5 * STEP_MS;
      await driver.advance(step);
      await idle();
      t += step;
      if (t >= 30_000 && b.venue.streamHealth.state === 'LIVE') break;
    }

    // ---- stop: open orders cancelled, commands finished, the stream closed, the run ended in the journal
    say('chaos: stopping the bot');
    stopping = true;
    const stopped = b.stop('stopped', 'chaos run done');
    let done = false;
    void stopped.finally(() => (done = true));
    for (let t = 0; !done; t += STEP_MS) {
      if (t > 600_000) {
        crashes.push({ time: now(), reason: 'the bot did not finish stopping within 10 minutes of sandbox time' });
        break;
      }
      // The stop may wait on the sandbox clock (a Retry-After, a backoff): time moves on, a little at a time.
      await wallSleep(5);
      if (!done) await driver.advance(100);
    }
    const end = now();

    // ---- what the venue and the journal hold
    say('chaos: reading the venue and the journal');
    const reader = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret }, clock: s.clock });
    let venue: ChaosRunInput['venue'];
    try {
      venue = await collectVenue(reader.client, SYMBOLS);
    } finally {
      await reader.close();
    }
    const j = openJournal(journalFile);
    let journal: ChaosRunInput['journal'];
    try {
      journal = collectJournal(j);
    } finally {
      j.close();
    }
    settleInstantFaults(injector.log, journal.streamHealth);
    for (const line of log.problems.keys()) {
      if (/failed and is stopped/.test(line)) crashes.push({ time: end, reason: `a strategy failed: ${line}` });
    }
    const input: ChaosRunInput = {
      seed,
      start,
      end,
      venue,
      journal,
      strategies: strategyFills(recorder, CHAOS_STRATEGIES.map((c) => c.name)),
      faults: injector.log.map((f) => ({ kind: f.kind, start: f.start, end: f.end })),
      outcomes: log.outcomes,
      crashes,
      options: { injectedBanKinds: ['418'] },
    };
    const report = checkRun(input);
    return {
      report,
      input,
      seed,
      intents: intentsAsked(recorder),
      schedule,
      faults: injector.log,
      injectedByKind: countByKind(injector.log),
      statuses: log.statusCounts(),
      problems: [...log.problems].map(([msg, p]) => ({ level: p.level, msg, count: p.count, example: p.first.slice(0, 600) })).sort((a, b) => b.count - a.count),
      wallMs: Math.round(performance.now() - wallStart),
      sandboxMs: end - start,
      journal: o.keepJournal === true ? journalFile : undefined,
      strategies: CHAOS_STRATEGIES.map((c) => ({ name: c.name, strategy: c.file.replace(/\.ts$/, ''), symbol: c.symbol })),
    };
  } finally {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
    if (bot !== undefined && !stopping) await bot.stop('stopped', 'chaos run failed').catch(() => undefined);
    await sandbox?.close();
    dropRecorder(runId);
    if (o.keepJournal !== true) rmSync(dir, { recursive: true, force: true });
  }
}

function wallSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
