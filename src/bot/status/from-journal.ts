/**
 * The status of a live or sandbox run from its journal alone (issue 21 deliverable 4: "`halyard
 * status --journal FILE` prints the same for a running or stopped bot from its journal"): the
 * same BotStatusSnapshot the bot fills in-process, rebuilt from the stores (live-run-store,
 * orders, fills, intents, stream health, klines, exchangeInfo). It only reads, so it works on the
 * journal of a running bot opened read-only (WAL: a reader never blocks the writer).
 *
 * What belongs to a strategy: the orders whose client order id carries its key (client-order-id.ts:
 * a hash of run id and strategy name), for this run and the earlier live runs of the journal (an
 * order adopted after a restart keeps its first run's key), and the fills of those orders.
 *
 * PnL (symbol-pnl.ts): FIFO through the backtest's round-trip book, every fee inside. Fills of the
 * strategy in earlier runs are fed first, so a position carried over a restart keeps its cost;
 * realised PnL is what this run's fills realised. Unrealised PnL marks the open position at the
 * newest price the journal knows: the last fill of the symbol or the close of the last recorded
 * kline, whichever is later (`markSource` says which), no later than the run's end for a stopped
 * run.
 *
 * Bars: the market-data pipeline records every live bar (live/market-data/bar-series.ts, source
 * `live:stream` or `live:rest`); those of the run's symbols that closed during the run are its
 * bars received. Market-data mode: from stream-health rows of streams other than `user` when the
 * journal has them (a last state other than LIVE means REST polling stands in), else from the
 * recorded live bars: a series whose newest bars came by REST is being polled (since the first of
 * them), all by stream is stream.
 *
 * What a journal does not hold is left unknown: weight used (the ledger lives in the process) and
 * the clock offset. A strategy failed or stopped by the bot is read from the intent of kind
 * `strategy-failed` / `strategy-stopped` (payload `{ reason }`) the bot writes then
 * (src/bot/strategy-journal.ts, which also writes every intent and the exchangeInfo the bot
 * started with, cut to the run's symbols: base, quote and minQty come from it; a journal without
 * one, e.g. of an older bot, falls back on the symbol's name).
 */
import { parseClientOrderId, runKey } from '../../core/orders/client-order-id.ts';
import { parseInstruments } from '../../core/market/instrument.ts';
import type { FillRecord } from '../../journal/fill-store.ts';
import type { Journal } from '../../journal/journal.ts';
import type { LiveRunRecord } from '../../journal/runs/live-run-store.ts';
import type { OrderEvent, OrderRecord } from '../../journal/order-store.ts';
import type { IntentRecord } from '../../journal/runs/run-store.ts';
import { FILL_OWED, FILL_TOLD } from '../../live/reconcile/untold-fills.ts';
import { sumText, SymbolPnl, type SymbolAssets } from './symbol-pnl.ts';
import { X40 } from '../../core/money/exact40.ts';
import type { BotStatusSnapshot, LastSignal, OpenOrderStatus, StrategyStatus, StreamStatus, SymbolPosition } from './types.ts';

/** Intent kinds the bot writes when it stops a strategy (a throw: failed; on purpose: stopped). */
export const STRATEGY_FAILED_INTENT = 'strategy-failed';
export const STRATEGY_STOPPED_INTENT = 'strategy-stopped';

/** Why no snapshot could be made: the CLI turns it into a usage error. */
export class StatusFromJournalError extends Error {
  constructor(
    readonly code: 'NO_LIVE_RUN' | 'UNKNOWN_RUN',
    message: string,
  ) {
    super(message);
    this.name = 'StatusFromJournalError';
  }
}

/** States in which an order can still fill or is not settled yet (sent, unknown outcome). */
const ENDED = new Set(['FILLED', 'CANCELED', 'PARTIALLY_CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH', 'REJECTED', 'DENIED']);
/** Quote assets tried, longest first, when the journal holds no exchangeInfo listing a symbol. */
const KNOWN_QUOTES = ['FDUSD', 'USDT', 'USDC', 'BUSD', 'TUSD', 'DAI', 'PHP', 'EUR', 'GBP', 'TRY', 'BRL', 'JPY', 'BTC', 'ETH', 'BNB'];

/**
 * The snapshot of `runId`, or of the journal's last live or sandbox run (by start) when none is
 * given. Throws StatusFromJournalError when the journal has no such run.
 */
export function statusFromJournal(journal: Journal, runId?: string): BotStatusSnapshot {
  // One deferred read transaction: every query sees the same state of a journal the bot is
  // writing (WAL gives a reader a snapshot), and no write lock is taken.
  return journal.db.transaction(() => snapshotOf(journal, runId))();
}

function snapshotOf(journal: Journal, runId: string | undefined): BotStatusSnapshot {
  const runs = journal.liveRuns.list();
  const run = pickRun(journal, runs, runId);
  const earlier = runs.filter((r) => r.startedAt < run.startedAt || (r.startedAt === run.startedAt && r.id <= run.id)).map((r) => r.id);
  const lastActivity = journal.runLog.lastActivity(run.id) ?? run.startedAt;
  const markBound = run.endedAt ?? Number.MAX_SAFE_INTEGER;

  const runOrders = journal.orders.byRun(run.id);
  const runFills = journal.fills.list({ runId: run.id });
  const intents = journal.runs.intents(run.id);
  const events = journal.orders.eventsByRun(run.id);
  const ordersById = new Map<string, OrderRecord>();
  for (const o of [...runOrders, ...journal.orders.active()]) ordersById.set(o.clientOrderId, o);
  const allowedRuns = new Set(earlier);
  const assetsCache = new Map<string, SymbolAssets>();
  const assetsOf = (symbol: string): SymbolAssets => {
    let a = assetsCache.get(symbol);
    if (a === undefined) assetsCache.set(symbol, (a = symbolAssets(journal, symbol, run.startedAt)));
    return a;
  };
  const fillsBySymbol = new Map<string, FillRecord[]>();
  const symbolFills = (symbol: string): FillRecord[] => {
    let f = fillsBySymbol.get(symbol);
    if (f === undefined) fillsBySymbol.set(symbol, (f = journal.fills.list({ symbol }).filter((x) => x.runId === null || allowedRuns.has(x.runId))));
    return f;
  };

  const strategies: StrategyStatus[] = run.strategies.map((s) => {
    const keys = new Set(earlier.map((r) => runKey(r, s.name)));
    const mine = (cid: string | null): boolean => {
      const parsed = cid === null ? undefined : parseClientOrderId(cid);
      return parsed !== undefined && keys.has(parsed.key);
    };
    const cidOf = (f: FillRecord): string | null => f.clientOrderId ?? (f.exchangeOrderId === null ? null : (journal.orders.byExchangeId(f.symbol, f.exchangeOrderId)?.clientOrderId ?? null));
    const orders = [...ordersById.values()].filter((o) => mine(o.clientOrderId));
    const traded = new Set<string>();
    for (const o of runOrders) if (mine(o.clientOrderId)) traded.add(o.symbol);
    for (const f of runFills) if (mine(cidOf(f))) traded.add(f.symbol);
    const symbols = [...(s.symbols ?? [])];
    for (const sym of [...traded].sort()) if (!symbols.includes(sym)) symbols.push(sym);

    const positions: SymbolPosition[] = [];
    let fees = X40.ZERO;
    for (const symbol of symbols) {
      const book = new SymbolPnl(symbol, assetsOf(symbol));
      const fills = symbolFills(symbol).filter((f) => mine(cidOf(f)));
      // Earlier runs' fills first: the cost of a position carried over a restart.
      for (const f of fills) if (f.runId !== run.id) book.add(f);
      const before = book.checkpoint();
      const feesBefore = book.fees;
      for (const f of fills) if (f.runId === run.id) book.add(f);
      fees = fees.plus(book.fees.minus(feesBefore));
      const mark = markOf(journal, symbol, symbolFills(symbol), markBound);
      positions.push({
        symbol,
        quantity: book.quantity,
        averageEntryPrice: book.averageEntryPrice,
        markPrice: mark?.price ?? null,
        markSource: mark?.source ?? null,
        markTime: mark?.time ?? null,
        unrealisedPnl: book.unrealised(mark?.price ?? null),
        realisedPnl: book.realisedSince(before),
      });
    }

    const open = orders.filter((o) => !ENDED.has(o.status)).sort((a, b) => a.createdAt - b.createdAt || (a.clientOrderId < b.clientOrderId ? -1 : 1));
    const stop = [...intents].reverse().find((i) => i.strategy === s.name && (i.kind === STRATEGY_FAILED_INTENT || i.kind === STRATEGY_STOPPED_INTENT));
    return {
      name: s.name,
      symbols,
      positions,
      openOrderCount: open.length,
      openOrders: open.map(openOrder),
      realisedPnl: sumText(positions.map((p) => p.realisedPnl)),
      unrealisedPnl: sumText(positions.map((p) => p.unrealisedPnl)),
      fees: sumText([fees.toString()]),
      lastSignal: lastSignal(
        intents.filter((i) => i.strategy === s.name),
        events.filter((e) => mine(e.clientOrderId)),
        ordersById,
        runFills,
      ),
      health: stop === undefined ? 'active' : stop.kind === STRATEGY_FAILED_INTENT ? 'failed' : 'stopped',
      healthReason: stop === undefined ? null : reasonOf(stop.payload),
    };
  });

  const liveBars = liveBarsOf(journal, [...new Set(strategies.flatMap((s) => s.symbols))], run.startedAt, run.endedAt ?? Number.MAX_SAFE_INTEGER);
  const quotes = new Set(strategies.flatMap((s) => s.symbols.map((sym) => assetsOf(sym).quoteAsset)));
  return {
    runId: run.id,
    kind: run.kind === 'sandbox' ? 'sandbox' : 'live',
    state: run.endedAt === null ? 'running' : run.exitReason === 'crashed' ? 'crashed' : 'stopped',
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    exitReason: run.exitReason,
    exitDetail: detailText(run),
    // A running bot's last sign of life: its last record, or the last bar it recorded (bars are not in run_log).
    asOf: run.endedAt ?? Math.max(lastActivity, ...liveBars.map((b) => b.last)),
    quoteAsset: quotes.size === 1 ? ([...quotes][0] as string) : null,
    strategies,
    streams: streamsOf(journal, run.id, liveBars),
    weight: [],
    clockOffsetMs: null,
    counts: {
      orders: runOrders.length,
      fills: runFills.length,
      rejected: runOrders.filter((o) => o.status === 'REJECTED' || o.status === 'DENIED').length,
      bars: liveBars.reduce((n, b) => n + b.count, 0),
    },
  };
}

function pickRun(journal: Journal, runs: readonly LiveRunRecord[], runId: string | undefined): LiveRunRecord {
  if (runId === undefined) {
    const last = runs.at(-1);
    if (last === undefined) throw new StatusFromJournalError('NO_LIVE_RUN', `journal ${journal.file} holds no live or sandbox run: \`halyard run\` (or \`npm start\`) writes one`);
    return last;
  }
  const run = journal.liveRuns.get(runId);
  if (run === undefined || (run.kind !== 'live' && run.kind !== 'sandbox')) {
    const known = runs.slice(-5).map((r) => r.id);
    const hint = known.length === 0 ? 'it holds no live or sandbox run' : `its live runs${runs.length > 5 ? ' (the last 5)' : ''}: ${known.join(', ')}`;
    throw new StatusFromJournalError('UNKNOWN_RUN', `journal ${journal.file} has no live run ${JSON.stringify(runId)}${run === undefined ? '' : ` (it is a ${run.kind} run)`}; ${hint}`);
  }
  return run;
}

function detailText(run: LiveRunRecord): string | null {
  const d = run.exitDetail;
  if (d === null || d === undefined) return null;
  if (typeof d === 'string') return d;
  if (typeof d === 'object') {
    const o = d as Record<string, unknown>;
    if (run.exitReason === 'crashed' && typeof o['lastActivityAt'] === 'number') {
      return `no stop written; last record at ${new Date(o['lastActivityAt']).toISOString()}, found by run ${String(o['detectedBy'])}`;
    }
    if (typeof o['message'] === 'string') return o['message'];
    if (typeof o['signal'] === 'string') return o['signal'];
  }
  return JSON.stringify(d);
}

function reasonOf(payload: unknown): string | null {
  if (typeof payload === 'string') return payload;
  if (payload !== null && typeof payload === 'object') {
    const r = (payload as Record<string, unknown>)['reason'] ?? (payload as Record<string, unknown>)['message'];
    if (typeof r === 'string') return r;
  }
  return payload === null || payload === undefined ? null : JSON.stringify(payload);
}

/** Base, quote and minQty from the exchangeInfo the journal holds for the symbol, else guessed from its name (minQty 0). */
function symbolAssets(journal: Journal, symbol: string, time: number): SymbolAssets {
  const listing = journal.exchangeInfo.listing(symbol, time);
  if (listing !== undefined) {
    try {
      const inst = parseInstruments(listing.body).get(symbol);
      if (inst !== undefined) return { baseAsset: inst.baseAsset, quoteAsset: inst.quoteAsset, minQty: inst.filter('LOT_SIZE')?.minQty.toFixed() ?? '0' };
    } catch {
      // A snapshot this code cannot read: the name is the next best source.
    }
  }
  const quote = KNOWN_QUOTES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  return quote === undefined ? { baseAsset: symbol, quoteAsset: '?', minQty: '0' } : { baseAsset: symbol.slice(0, -quote.length), quoteAsset: quote, minQty: '0' };
}

/** The newest price known at or before `bound`: the last fill (any of the account's) or the last recorded kline close. */
function markOf(journal: Journal, symbol: string, fills: readonly FillRecord[], bound: number): { price: string; time: number; source: 'last-fill' | 'kline-close' } | undefined {
  let best: { price: string; time: number; source: 'last-fill' | 'kline-close' } | undefined;
  for (const f of fills) if (f.time <= bound && (best === undefined || f.time >= best.time)) best = { price: f.price, time: f.time, source: 'last-fill' };
  const intervals = journal.db.prepare('SELECT DISTINCT interval FROM klines WHERE symbol = ?').pluck(true).all(symbol) as string[];
  const last = journal.db.prepare('SELECT close, close_time FROM klines WHERE symbol = ? AND interval = ? AND close_time <= ? ORDER BY open_time DESC LIMIT 1').raw(true);
  for (const interval of intervals) {
    const row = last.get(symbol, interval, bound) as [string, number] | undefined;
    if (row !== undefined && (best === undefined || row[1] > best.time)) best = { price: row[0], time: row[1], source: 'kline-close' };
  }
  return best;
}

/** Longest kline interval (1M) in ms, with room: a bar that closed during the run opened at most this long before it began. */
const LONGEST_BAR_MS = 32 * 86_400_000;
/** Newest live bars read per series to find where its current source began. */
const RECENT_BARS = 500;

interface LiveBars {
  symbol: string;
  interval: string;
  /** Live bars of the series that closed in the run. */
  count: number;
  /** The newest one's close time. */
  last: number;
  /** The newest one's source (`stream` or `rest`) and since when the series' bars came that way (a close time). */
  newest: { source: string; since: number } | undefined;
}

/** The live bars (source `live:*`) of each series of `symbols` that closed in [from, to]. */
function liveBarsOf(journal: Journal, symbols: readonly string[], from: number, to: number): LiveBars[] {
  const db = journal.db;
  const intervals = db.prepare('SELECT DISTINCT interval FROM klines WHERE symbol = ?').pluck(true);
  const count = db.prepare("SELECT count(*) FROM klines WHERE symbol = ? AND interval = ? AND open_time >= ? AND close_time BETWEEN ? AND ? AND source LIKE 'live:%'").pluck(true);
  const recent = db
    .prepare(`SELECT source, close_time FROM klines WHERE symbol = ? AND interval = ? AND open_time >= ? AND close_time BETWEEN ? AND ? AND source LIKE 'live:%' ORDER BY open_time DESC LIMIT ${RECENT_BARS}`)
    .raw(true);
  const out: LiveBars[] = [];
  for (const symbol of symbols) {
    for (const interval of intervals.all(symbol) as string[]) {
      const args = [symbol, interval, from - LONGEST_BAR_MS, from, to] as const;
      const n = count.get(...args) as number;
      if (n === 0) continue;
      const rows = recent.all(...args) as [string, number][];
      const source = (rows[0] as [string, number])[0];
      let since = (rows[0] as [string, number])[1];
      for (const [src, closeTime] of rows) {
        if (src !== source) break;
        since = closeTime;
      }
      out.push({ symbol, interval, count: n, last: (rows[0] as [string, number])[1], newest: { source: source.slice('live:'.length), since } });
    }
  }
  return out;
}

function streamsOf(journal: Journal, runId: string, bars: readonly LiveBars[]): StreamStatus {
  const changes = journal.streamHealth.byRun(runId);
  const latest = new Map<string, (typeof changes)[number]>();
  for (const c of changes) latest.set(c.stream, c);
  const user = latest.get('user');
  const market = [...latest.values()].filter((c) => c.stream !== 'user');
  let marketData: StreamStatus['marketData'] = { mode: 'unknown', since: null, reason: null };
  if (market.length > 0) {
    const off = market.filter((c) => c.to !== 'LIVE').sort((a, b) => a.time - b.time);
    if (off.length > 0) {
      const first = off[0] as (typeof market)[number];
      marketData = { mode: 'polling', since: first.time, reason: `${first.stream} ${first.to}${first.reason ? `: ${first.reason}` : ''}` };
    } else marketData = { mode: 'stream', since: Math.max(...market.map((c) => c.time)), reason: null };
  } else if (bars.length > 0) {
    const polled = bars.filter((b) => b.newest?.source !== 'stream').sort((a, b) => (a.newest?.since ?? 0) - (b.newest?.since ?? 0));
    const first = polled[0];
    if (first !== undefined) marketData = { mode: 'polling', since: first.newest?.since ?? null, reason: `${first.symbol} ${first.interval} bars by ${first.newest?.source ?? '?'}` };
    else marketData = { mode: 'stream', since: Math.max(...bars.map((b) => b.newest?.since ?? 0)), reason: null };
  }
  return { userStream: user === undefined ? null : { state: user.to, since: user.time, reason: user.reason }, marketData };
}

function openOrder(o: OrderRecord): OpenOrderStatus {
  return {
    clientOrderId: o.clientOrderId,
    orderId: o.exchangeOrderId,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    price: o.price,
    quantity: o.qty,
    executedQuantity: o.executedQty,
    status: o.status === 'PENDING_NEW' ? 'PENDING' : o.status,
    createdAt: o.createdAt,
  };
}

/** The later of the strategy's last intent and the last update of one of its orders (an intent wins a tie: it came first). */
function lastSignal(intents: readonly IntentRecord[], events: readonly OrderEvent[], orders: ReadonlyMap<string, OrderRecord>, fills: readonly FillRecord[]): LastSignal | null {
  const intent = intents.filter((i) => i.kind !== STRATEGY_FAILED_INTENT && i.kind !== STRATEGY_STOPPED_INTENT).at(-1);
  // Bookkeeping, not news of the order: a dropped duplicate, a fill's owed and told marks (untold-fills.ts).
  const event = events.filter((e) => e.kind !== 'duplicate-dropped' && e.kind !== FILL_OWED && e.kind !== FILL_TOLD).at(-1);
  if (intent === undefined && event === undefined) return null;
  if (event === undefined || (intent !== undefined && intent.time >= event.time)) {
    const i = intent as IntentRecord;
    return { time: i.time, kind: 'intent', summary: intentText(i), symbol: symbolOf(i.payload) };
  }
  const order = orders.get(event.clientOrderId);
  const fill = event.kind.startsWith('fill ') ? fills.find((f) => f.tradeId === event.kind.slice(5) && f.clientOrderId === event.clientOrderId) : undefined;
  const what = fill !== undefined ? ` ${fill.side} ${fill.qty} @ ${fill.price}` : order !== undefined ? ` ${order.side} ${order.type} ${order.qty}${order.price === null ? '' : ` @ ${order.price}`}` : '';
  const kind = event.kind.startsWith('fill ') ? 'fill' : event.kind;
  return { time: event.time, kind: 'order', summary: `${event.status ?? kind} ${event.clientOrderId}${what} (${kind})`, symbol: order?.symbol ?? null };
}

function intentText(i: IntentRecord): string {
  const p = (i.payload ?? {}) as Record<string, unknown>;
  const field = (k: string): string | undefined => (typeof p[k] === 'string' ? (p[k] as string) : undefined);
  const parts = [field('kind') ?? i.kind, field('side'), field('type'), field('quantity') ?? field('quoteOrderQty'), field('symbol')].filter((x) => x !== undefined);
  const price = field('price');
  const tag = field('tag');
  return `${parts.join(' ')}${price === undefined ? '' : ` @ ${price}`}${tag === undefined ? '' : ` [${tag}]`}${i.clientOrderId === null ? '' : ` as ${i.clientOrderId}`}`;
}

function symbolOf(payload: unknown): string | null {
  const s = payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>)['symbol'] : undefined;
  return typeof s === 'string' ? s : null;
}
