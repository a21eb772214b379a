/**
 * `--kill N` (issue 22 deliverable 3): "kills the bot (SIGKILL) at N random points of the order
 * flow (between journaling an intent and sending it, after sending and before the answer,
 * mid-fill, mid-resync, mid-reconciliation), lets the market move, restarts it on the same journal
 * and checks the same table after each restart."
 *
 * The sandbox runs in this process on 127.0.0.1 (ephemeral port), the bot in a child process
 * (`halyard run`, bot-process.ts) trading kill-flow-strategy.ts. For each planned kill (kill-plan.ts,
 * from the seed):
 *
 *   1. the bot starts with HALYARD_KILL_AT=<point>:<n> and trades while a taker lifts its asks and
 *      the user streams are dropped now and then (resyncs), until it SIGKILLs itself at the point
 *      (live/kill-points.ts; if it never gets there within `killWithinMs`, the parent kills it);
 *   2. the market moves while it is dead: the sandbox clock jumps `downMs` ahead and the taker
 *      lifts what rests;
 *   3. the bot restarts on the same journal (no kill point); its start-up reconciliation runs
 *      before the stream, and once the stream is LIVE it trades `tradeMs` more, then is stopped
 *      with SIGINT (its orders cancelled: the account then holds still while it is read);
 *   4. the checks (src/chaos: collect + checkRun) over the venue and the journal: consistent or not.
 *
 * `breakRecovery` is for the proof that the checks can fail: `wipe-journal` deletes the journal file
 * between the kill and the restart (the restart has no record of what was sent or filled).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '../../app/create-client.ts';
import { parseConfig } from '../../config/load.ts';
import { openJournal } from '../../journal/journal.ts';
import { KILL_POINTS, type KillPoint } from '../../live/kill-points.ts';
import { startSandbox, type SandboxHandle } from '../../sandbox/server.ts';
import { checkRun } from '../check-run.ts';
import { collectJournal } from '../collect/journal-state.ts';
import { mergeStrategyFills, strategyFillsFromJournal, strategyFillsFromLog } from '../collect/strategy-fills.ts';
import { collectVenue } from '../collect/venue-state.ts';
import type { ChaosReport } from '../report.ts';
import { describeExit, spawnBot, type BotProcess } from './bot-process.ts';
import { startKillMarket, type KillMarket } from './kill-market.ts';
import { planKills, type PlannedKill } from './kill-plan.ts';

const STRATEGY = fileURLToPath(new URL('./kill-flow-strategy.ts', import.meta.url));
const SYMBOL = 'BTCPHP';

export interface KillRunOptions {
  readonly seed: string;
  readonly kills: number;
  /** The points to draw from (default all of live/kill-points.ts KILL_POINTS). */
  readonly points?: readonly KillPoint[];
  /** The kills to make, instead of drawing them from the seed. */
  readonly plan?: readonly PlannedKill[];
  /** Where the journal, the bot config and each bot process's log go (default a new temporary folder, removed at the end). */
  readonly dir?: string;
  /** Wall ms the bot gets, once LIVE, to reach its kill point before the parent kills it (default 20 s). */
  readonly killWithinMs?: number;
  /** Sandbox ms the clock jumps while the bot is dead (default 60 s). */
  readonly downMs?: number;
  /** Wall ms the restarted bot trades once LIVE, before it is stopped and checked (default 500). */
  readonly tradeMs?: number;
  /** Wall ms a bot gets to start (default 120 s: tsx compiles the sources; a loaded machine is slow). */
  readonly startWithinMs?: number;
  /** The strategy's timer (venue ms, default 150). */
  readonly everyMs?: number;
  /** Deliberately broken recovery, to show the checks fail (tests). */
  readonly breakRecovery?: 'wipe-journal';
  /** Progress lines (default none). */
  readonly log?: (line: string) => void;
}

export interface KillRestart {
  readonly index: number;
  readonly point: KillPoint;
  readonly occurrence: number;
  /** `point`: the bot killed itself at the point; `parent`: it never got there and the parent killed it. */
  readonly killedBy: 'point' | 'parent';
  readonly consistent: boolean;
  readonly failures: readonly string[];
  readonly report: ChaosReport;
  /** Wall ms of this kill-restart-check cycle. */
  readonly wallMs: number;
}

export interface KillRunResult {
  readonly seed: string;
  readonly restarts: readonly KillRestart[];
  readonly consistent: number;
  /** The last restart's report (the checks over the whole run so far). */
  readonly report: ChaosReport | undefined;
  readonly wallMs: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function accountIdOf(s: SandboxHandle, apiKey: string): string {
  const a = s.accounts.allAccounts().find((x) => s.accounts.keysOf(x.id).some((k) => k.apiKey === apiKey));
  if (a === undefined) throw new Error('the sandbox has no account for its own key');
  return a.id;
}

/** Runs `fn` every `ms` until the returned stop is called; failures of one call are kept, not thrown. */
function every(ms: number, fn: () => Promise<void> | void, errors: string[]): () => Promise<void> {
  let on = true;
  const loop = (async () => {
    while (on) {
      try {
        await fn();
      } catch (e) {
        errors.push(e instanceof Error ? e.message : String(e));
      }
      await sleep(ms);
    }
  })();
  return async () => {
    on = false;
    await loop;
  };
}

export async function runKills(o: KillRunOptions): Promise<KillRunResult> {
  const started = performance.now();
  const log = o.log ?? (() => {});
  const plan = o.plan ?? planKills(o.seed, o.kills, o.points ?? KILL_POINTS);
  const ownDir = o.dir === undefined;
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'halyard-kill-'));
  mkdirSync(dir, { recursive: true });
  const journalFile = join(dir, 'kill-journal.sqlite');
  const configFile = join(dir, 'kill-bot.json');
  const logs: string[] = [];
  const restarts: KillRestart[] = [];
  const closers: (() => Promise<void> | void)[] = [];
  const bots: BotProcess[] = [];
  try {
    // The bot, the taker and the checks all come from 127.0.0.1 and two of them on one account: the
    // venue's pools (IP 1,200, UID 1,800 a minute) are the bot's alone on a real deployment. Shared
    // here, a quick machine (a kill cycle in 10-15 s) passed them: the taker's lifts and the bot's
    // orders were refused 429 (2 fills never made it to the journal before a restart ended; the run
    // died of an uncaught 429). Five times the spec's pools leave the bot its own.
    const pools = { IP: { limit: 6000, windowMs: 60_000 }, UID: { limit: 9000, windowMs: 60_000 } };
    const s = await startSandbox({ config: { admin: { enabled: true }, listen: { host: '127.0.0.1', port: 0 }, rateLimits: { pools } } });
    closers.push(() => s.close());
    s.services.balances?.credit(accountIdOf(s, s.apiKey), 'BTC', '100');
    const market: KillMarket = await startKillMarket(s, { symbol: SYMBOL, bidPrice: '2900000', bidQuantity: '6', liftPrice: '3300000', liftQuantity: '0.0004' });
    closers.push(() => market.close());
    // The checks' reads (collect/venue-state.ts, all idempotent) wait a 429 out and go again: the bot,
    // the taker and these reads share 127.0.0.1's 1,200 requests a minute, and a quick machine made
    // 6 kills in two minutes pass it; the suite died of the 429 (RateLimitedError out of collectVenue).
    const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 5 } } }).exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret } });
    closers.push(() => handle.close());
    writeFileSync(
      configFile,
      JSON.stringify({
        strategies: [{ strategy: STRATEGY, name: 'kill-flow', params: { symbol: SYMBOL, everyMs: o.everyMs ?? 150 } }],
        venue: { baseUrl: s.baseUrl, wsUrl: s.wsUrl },
        journal: journalFile,
        onStop: 'cancel',
        status: { everyMs: 600_000 },
        log: { level: 'info' },
      }),
    );
    const runStart = s.clock.now();
    const spawn = (killAt?: string): BotProcess => {
      const bot = spawnBot({ configFile, apiKey: s.apiKey, apiSecret: s.apiSecret, ...(killAt ? { killAt } : {}) });
      bots.push(bot);
      closers.push(async () => {
        if (!bot.exited()) bot.proc.kill('SIGKILL');
        await bot.exit;
      });
      return bot;
    };
    const crashes: { time: number; reason: string }[] = [];

    for (const [index, kill] of plan.entries()) {
      const cycle = performance.now();
      const errors: string[] = [];
      // ---- 1. trade until the kill point
      const victim = spawn(`${kill.point}:${kill.occurrence}`);
      const stopLifts = every(250, () => (victim.err().includes('the user stream is LIVE') ? market.lift() : undefined), errors);
      const stopDrops = every(1200, () => {
        if (victim.err().includes('the user stream is LIVE')) s.services.streams?.dropAll();
      }, errors);
      // The start (tsx, the venue probe, the reconciliation) is not the order flow: the time to reach
      // the point counts from LIVE (a mid-reconcile kill comes before it).
      const live = victim.until((e) => e.includes('the user stream is LIVE'), o.startWithinMs ?? 120_000, `bot before kill ${index + 1}`).then(
        () => true,
        () => false,
      );
      const died = await Promise.race([victim.exit.then(() => true), live.then((ok) => (ok ? Promise.race([victim.exit.then(() => true), sleep(o.killWithinMs ?? 20_000).then(() => false)]) : victim.exited()))]);
      await stopLifts();
      await stopDrops();
      let killedBy: 'point' | 'parent' = 'point';
      if (!died) {
        killedBy = 'parent';
        victim.proc.kill('SIGKILL');
      }
      const exit = await victim.exit;
      logs.push(victim.err());
      // A folder of the caller's keeps each process's log beside the journal (what a failed verdict is read from).
      if (!ownDir) writeFileSync(join(dir, `kill-${index + 1}-killed.log`), victim.err());
      if (exit.signal !== 'SIGKILL') crashes.push({ time: s.clock.now(), reason: `bot before kill ${index + 1} ended on its own: ${describeExit(exit)}` });
      log(`kill ${index + 1}/${plan.length}: ${kill.point} #${kill.occurrence} (${killedBy === 'point' ? 'at the point' : 'point not reached: killed by the parent'})`);

      // ---- 2. the market moves while it is dead
      s.clock.advance(o.downMs ?? 60_000);
      for (let i = 0; i < 3; i++) await market.lift();
      if (o.breakRecovery === 'wipe-journal') for (const f of [journalFile, `${journalFile}-wal`, `${journalFile}-shm`]) rmSync(f, { force: true });

      // ---- 3. restart on the same journal, reconcile, trade a little, stop cleanly
      const restarted = spawn();
      let restartError: string | undefined;
      try {
        await restarted.until((e) => e.includes('the user stream is LIVE'), o.startWithinMs ?? 120_000, `restart ${index + 1}`);
        await sleep(o.tradeMs ?? 500);
        restarted.proc.kill('SIGINT');
      } catch (e) {
        restartError = e instanceof Error ? e.message : String(e);
        if (!restarted.exited()) restarted.proc.kill('SIGKILL');
      }
      const rexit = await restarted.exit;
      logs.push(restarted.err());
      if (!ownDir) writeFileSync(join(dir, `kill-${index + 1}-restart.log`), restarted.err());
      if (restartError !== undefined || rexit.code !== 0) crashes.push({ time: s.clock.now(), reason: `restart ${index + 1}: ${restartError ?? describeExit(rexit)}` });

      // ---- 4. the checks
      const venue = await collectVenue(handle.client, [SYMBOL]);
      const j = openJournal(journalFile, { readonly: true });
      let journal;
      let told;
      try {
        journal = collectJournal(j);
        // Two witnesses of what each strategy was told: its log lines and the journal's fill-told marks
        // (the logger writes stderr synchronously now, but a kill can still land between a mark and its line).
        told = mergeStrategyFills(strategyFillsFromLog(logs, venue.orders), strategyFillsFromJournal(j, venue.orders));
      } finally {
        j.close();
      }
      const report = checkRun({ seed: o.seed, start: runStart, end: s.clock.now(), venue, journal, strategies: told, faults: [], outcomes: [], crashes });
      const failures = [...report.failures, ...errors.map((e) => `market: ${e}`)];
      restarts.push({ index: index + 1, point: kill.point, occurrence: kill.occurrence, killedBy, consistent: report.ok, failures, report, wallMs: Math.round(performance.now() - cycle) });
      log(`restart ${index + 1}: ${report.ok ? 'consistent' : `INCONSISTENT: ${report.failures.join('; ')}`} (${Math.round(performance.now() - cycle)} ms)`);
    }
    return { seed: o.seed, restarts, consistent: restarts.filter((r) => r.consistent).length, report: restarts.at(-1)?.report, wallMs: Math.round(performance.now() - started) };
  } finally {
    for (const c of closers.splice(0).reverse()) {
      try {
        await c();
      } catch {
        // closing what is left; the run's result stands
      }
    }
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  }
}
