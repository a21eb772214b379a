/**
 * The live-bot bench's measured process (bench/bot-live.bench.ts forks it, with --expose-gc):
 *
 * - `bare`: loads the same modules as `bot` (the bot's composition root, the three strategy files,
 *   the journal, the backtester) and does nothing else: its RSS after a full GC is the baseline,
 *   what Node + tsx + the code cost before the bot holds anything.
 * - `bot`: forks the sandbox (bench/bot-live-sandbox.ts, its own process: its memory and CPU are
 *   not the bot's), starts the bot with `startBot` (what `halyard run` runs) against it over HTTP
 *   and WebSocket on 127.0.0.1, 3 strategies on each of the 5 sandbox symbols, then runs an hour
 *   of 1-minute bars on virtual time: each minute the sandbox's VirtualClock and the bot's
 *   VirtualTimeScheduler move together, and the child waits (wall time) until the minute's 5 bars
 *   reached the bot and its commands were answered. RSS is sampled every 10 ms of wall time
 *   (the peak also read from the kernel's high-water mark, resourceUsage().maxRSS), and read after
 *   a full GC with the bot still running at the end of the hour. CPU is process.cpuUsage() (user +
 *   system) of this process from the first minute to the last: the bot's work on the bars, the
 *   fills and the streams, plus the driver's (the virtual scheduler's flush, the wall-time polling
 *   between minutes). Then the bot stops, and the same strategies with the same params are
 *   backtested on the bars the run recorded in its journal (its warm-up bars as history), timed
 *   the same way, twice (the first pays the backtester's JIT warm-up).
 *
 * The three strategies: the SMA crossover, RSI exits and DCA (a timer), all driven by bars and
 * time, so the live per-bar CPU compares with the backtest's. Not the market maker: it quotes on
 * every book top, and on the sandbox's market its quotes were refused in a loop (cancelReplace
 * -1132, then -1015 rate-limited): 10,524 orders in the hour, none filled, 150 s of wall time.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseInstruments } from '../src/core/market/instrument.ts';
import { runBacktest } from '../src/backtest/run/run-backtest.ts';
import type { BacktestBar } from '../src/backtest/types.ts';
import { startBot } from '../src/bot/run-bot.ts';
import { VirtualTime } from '../src/exchange/ws/testing/virtual-time.ts';
import { openJournal } from '../src/journal/journal.ts';
import { createLogger } from '../src/log/logger.ts';
import dca from '../strategies/dca.ts';
import rsiExits from '../strategies/rsi-exits.ts';
import smaCrossover from '../strategies/sma-crossover.ts';
import type { SandboxReply, SandboxRequest } from './bot-live-sandbox.ts';

export const T0 = Date.parse('2024-03-13T10:00:00Z');
export const MINUTES = 60;
const MIN = 60_000;
/** Bars of history the sandbox's market starts with: the largest warm-up (RSI 14: 233 bars, strategy/warmup) and spare. */
const HISTORY_BARS = 300;
const MB = 2 ** 20;

/** Per symbol: what an entry of the SMA and RSI strategies spends, and a DCA buy (each above the symbol's minimum notional; all of them together inside the demo account). */
const SYMBOLS: Record<string, { quoteAmount: string; dcaAmount: string }> = {
  BTCPHP: { quoteAmount: '1000', dcaAmount: '100' },
  ETHPHP: { quoteAmount: '1000', dcaAmount: '100' },
  BTCUSDT: { quoteAmount: '20', dcaAmount: '2' },
  ETHUSDT: { quoteAmount: '20', dcaAmount: '2' },
  USDTPHP: { quoteAmount: '1000', dcaAmount: '100' },
};

const definitions = { 'sma-crossover': smaCrossover, 'rsi-exits': rsiExits, dca };
type StrategyName = keyof typeof definitions;

/** 3 strategies x 5 symbols: 15 instances, each named strategy-symbol. */
function instances(): { strategy: StrategyName; name: string; params: Record<string, unknown> }[] {
  return Object.entries(SYMBOLS).flatMap(([symbol, s]) => [
    { strategy: 'sma-crossover' as const, name: `sma-${symbol}`, params: { symbol, interval: '1m', fast: 10, slow: 30, quoteAmount: s.quoteAmount } },
    { strategy: 'rsi-exits' as const, name: `rsi-${symbol}`, params: { symbol, interval: '1m', rsiPeriod: 14, buyLevel: 45, quoteAmount: s.quoteAmount } },
    { strategy: 'dca' as const, name: `dca-${symbol}`, params: { symbol, interval: '1m', everyMinutes: 10, quoteAmount: s.dcaAmount, maxBuys: 6 } },
  ]);
}

export interface BareResult {
  kind: 'bare';
  rssMb: number;
  heapMb: number;
}

export interface BotResult {
  kind: 'bot';
  strategies: number;
  symbols: number;
  minutes: number;
  bars: number;
  missedBars: number;
  orders: number;
  fills: number;
  rss: { beforeStartMb: number; afterStartMb: number; peakStartMb: number; byQuarter: number[]; peakSampledMb: number; peakKernelMb: number; afterGcMb: number; heapAfterGcMb: number };
  startCpuMs: number;
  liveCpuMs: number;
  liveWallMs: number;
  sandboxCpuMs: number;
  sandboxMaxRssMb: number;
  backtest: { bars: number; history: number; cpuMs: number[]; wallMs: number[]; fills: number };
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const rss = (): number => process.memoryUsage().rss / MB;
const cpuMs = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1000;
/** Anonymous and file-backed RSS (kB) and threads, from /proc (Linux; BOT_BENCH_DEBUG only). */
const procStatus = (): string => (readFileSync('/proc/self/status', 'utf8').match(/(RssAnon|RssFile|Threads):\s+\d+/g) ?? []).join(' ');

async function waitFor(pred: () => boolean, wallMs: number): Promise<boolean> {
  const end = performance.now() + wallMs;
  while (!pred()) {
    if (performance.now() > end) return false;
    await new Promise<void>((r) => setTimeout(r, 2));
  }
  return true;
}

/** The sandbox process and a request/answer over IPC, one at a time. */
function sandboxProcess(): Promise<{ p: ChildProcess; ready: SandboxReply & { kind: 'ready' }; ask: (m: SandboxRequest) => Promise<SandboxReply> }> {
  const p = fork(fileURLToPath(new URL('./bot-live-sandbox.ts', import.meta.url)), [String(T0), String(HISTORY_BARS)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (m: SandboxRequest) =>
    new Promise<SandboxReply>((resolve) => {
      p.once('message', (r) => resolve(r as SandboxReply));
      p.send(m);
    });
  return new Promise((resolve, reject) => {
    p.once('message', (r) => resolve({ p, ready: r as SandboxReply & { kind: 'ready' }, ask }));
    p.once('error', reject);
    p.once('exit', (code) => reject(new Error(`the bench's sandbox exited with ${String(code)} before it was ready`)));
  });
}

async function bot(): Promise<BotResult> {
  gc();
  const beforeStartMb = rss();
  if (process.env['BOT_BENCH_DEBUG']) console.error(`before start ${beforeStartMb.toFixed(0)} MB`);
  let peak = beforeStartMb;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 10);
  const dir = mkdtempSync(join(tmpdir(), 'halyard-bench-bot-'));
  const sb = await sandboxProcess();
  try {
    const vt = new VirtualTime(T0);
    const specs = instances();
    let started = false;
    const cpu0 = process.cpuUsage();
    const b = await startBot({
      config: {
        venue: { baseUrl: sb.ready.baseUrl, wsUrl: sb.ready.wsUrl },
        journal: join(dir, 'bot.db'),
        strategies: specs,
        // Pings every two minutes on the virtual scheduler (the sandbox closes a socket silent for 300 s).
        stream: { pingIntervalMs: 2 * MIN, pongTimeoutMs: 100_000, requestTimeoutMs: 100_000, backoff: { baseMs: 1000, maxMs: 8000 } },
        exchange: { retry: { maxAttempts: 1 } },
        status: { everyMs: MIN },
        log: { level: 'info' },
      },
      env: { HALYARD_API_KEY: sb.ready.apiKey, HALYARD_API_SECRET: sb.ready.apiSecret },
      scheduler: vt.scheduler,
      clock: vt,
      // Every line formatted as `halyard run` formats it, then dropped (a terminal's cost is not the bot's).
      logger: createLogger({ level: process.env['BOT_BENCH_DEBUG'] ? 'debug' : 'info' }, { write: (l: string) => void (process.env['BOT_BENCH_DEBUG'] && !started && console.error(`${rss().toFixed(0)} MB (${procStatus()}; peak ${peak.toFixed(0)}; heap total ${(process.memoryUsage().heapTotal / MB).toFixed(0)}, external ${(process.memoryUsage().external / MB).toFixed(0)}) ${l.slice(0, 160)}`)) }),
      // The status snapshot built every minute, as the CLI does, and dropped.
      onStatus: () => undefined,
    });
    const startCpuMs = cpuMs(process.cpuUsage(cpu0));
    started = true;
    const afterStartMb = rss();
    // The start-up's own peak (warm-up through REST klines, the strategies' modules compiled by tsx), told from the hour's.
    const peakStartMb = Math.max(peak, afterStartMb);
    const symbols = Object.keys(SYMBOLS).length;
    const byQuarter: number[] = [];
    let missedBars = 0;
    const bars = () => b.status().counts.bars ?? 0;
    const cpu1 = process.cpuUsage();
    const wall1 = performance.now();
    for (let i = 1; i <= MINUTES; i++) {
      await sb.ask({ kind: 'advance', ms: MIN });
      await vt.advance(MIN);
      if (!(await waitFor(() => bars() >= symbols * i, 5000))) missedBars = symbols * i - bars();
      await b.venue.idle();
      if (i % 15 === 0) byQuarter.push(rss());
      // BOT_BENCH_DEBUG=1: each minute's bars, RSS and wall time on stderr.
      if (process.env['BOT_BENCH_DEBUG']) console.error(`minute ${i}: bars ${bars()} rss ${rss().toFixed(0)} wall ${(performance.now() - wall1).toFixed(0)} ms`);
    }
    const liveCpuMs = cpuMs(process.cpuUsage(cpu1));
    const liveWallMs = performance.now() - wall1;
    // The high-water mark before the GC this bench forces (a full compaction briefly needs room of its own).
    const peakKernelMb = process.resourceUsage().maxRSS / 1024;
    gc();
    const afterGcMb = rss();
    const heapAfterGcMb = process.memoryUsage().heapUsed / MB;
    clearInterval(sampler);
    const info = parseInstruments(await b.client.general.exchangeInfo());
    const summary = await b.stop();
    const backtest = replay(b.journalFile, specs, info, b.strategies.length);
    const stopped = await sb.ask({ kind: 'stop' });
    return {
      kind: 'bot',
      strategies: specs.length,
      symbols,
      minutes: MINUTES,
      bars: summary.bars ?? bars(),
      missedBars,
      orders: summary.orders,
      fills: summary.fills,
      rss: { beforeStartMb, afterStartMb, peakStartMb, byQuarter, peakSampledMb: peak, peakKernelMb, afterGcMb, heapAfterGcMb },
      startCpuMs,
      liveCpuMs,
      liveWallMs,
      sandboxCpuMs: stopped.kind === 'stopped' ? stopped.cpuUs / 1000 : NaN,
      sandboxMaxRssMb: stopped.kind === 'stopped' ? stopped.maxRssMb : NaN,
      backtest,
    };
  } finally {
    clearInterval(sampler);
    if (sb.p.exitCode === null) sb.p.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each instance backtested on its symbol's bars from the journal: those before the live run as history, the live run's as the bars; twice. */
function replay(file: string, specs: ReturnType<typeof instances>, info: ReturnType<typeof parseInstruments>, started: number): BotResult['backtest'] {
  if (started !== specs.length) throw new Error(`bot-live bench: ${started} of ${specs.length} strategies started`);
  const j = openJournal(file, { readonly: true });
  const barsOf = new Map<string, { history: BacktestBar[]; live: BacktestBar[] }>();
  for (const symbol of Object.keys(SYMBOLS)) {
    const all = j.klines.klines(symbol, '1m').map((k): BacktestBar => ({ openTime: k.openTime, closeTime: k.closeTime, open: k.open, high: k.high, low: k.low, close: k.close, volume: k.volume }));
    barsOf.set(symbol, { history: all.filter((c) => c.openTime < T0), live: all.filter((c) => c.openTime >= T0) });
  }
  j.close();
  const out: BotResult['backtest'] = { bars: 0, history: 0, cpuMs: [], wallMs: [], fills: 0 };
  for (let round = 0; round < 2; round++) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    let bars = 0;
    let history = 0;
    let fills = 0;
    for (const s of specs) {
      const symbol = s.params['symbol'] as string;
      const { history: h, live } = barsOf.get(symbol) as { history: BacktestBar[]; live: BacktestBar[] };
      const run = runBacktest({ strategy: definitions[s.strategy], params: s.params, symbol, interval: '1m', bars: live, history: h, instrument: info.get(symbol)!, fees: { maker: '0.001', taker: '0.001' }, balances: { PHP: '100000', USDT: '1700', BTC: '0.03', ETH: '0.5' } });
      bars += live.length;
      history += h.length;
      fills += run.fills.length;
    }
    out.cpuMs.push(cpuMs(process.cpuUsage(c0)));
    out.wallMs.push(performance.now() - w0);
    out.bars = bars;
    out.history = history;
    out.fills = fills;
  }
  return out;
}

function bare(): BareResult {
  // The modules are loaded (the imports above); nothing else runs.
  gc();
  return { kind: 'bare', rssMb: rss(), heapMb: process.memoryUsage().heapUsed / MB };
}

const mode = process.argv[2];
if (mode === 'bare') process.send?.(bare(), () => process.exit(0));
if (mode === 'bot') {
  bot().then(
    (r) => process.send?.(r, () => process.exit(0)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
