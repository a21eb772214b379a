/**
 * The status block the operator reads (issue 21 deliverable 4): the run's state, stream health,
 * weight used as a share of each pool's budget, the clock offset, counts, then per strategy its
 * PnL, each symbol's position and mark, its open orders and its last signal. Plain text, one fact
 * per line, the same text for the same snapshot and `now` (tests compare it whole).
 *
 * Colour is optional (`color`, the caller decides: status-output.ts follows NO_COLOR and the
 * terminal) and only wraps words in ANSI SGR codes, so the uncoloured text is identical. With
 * `width` every line is cut to that many visible characters: the in-place redraw moves the cursor
 * up by the number of lines it printed, which a wrapped line would break.
 * Amounts print rounded to DISPLAY_DP decimals (a FIFO average entry is a quotient with 12); the
 * snapshot itself (`--json`, the JSON status lines) keeps them as they were computed.
 */
import { X40 } from '../../core/money/exact40.ts';
import type { BotStatusSnapshot, OpenOrderStatus, StrategyStatus, StreamStatus, SymbolPosition, TreasuryStatus, WeightPoolStatus } from './types.ts';

export interface RenderOptions {
  /** The clock the ages (`up 5m`, `12s ago`) are counted from. */
  readonly now: number;
  /** Cut lines to this many visible characters (a terminal's columns). */
  readonly width?: number;
  /** ANSI colours (default off). */
  readonly color?: boolean;
  /** Open orders listed per strategy; the rest are counted (default 5). */
  readonly maxOpenOrders?: number;
}

/** Decimals an amount is printed with at most (the venue's usual precision). */
export const DISPLAY_DP = 8;

/** A decimal string rounded half up to DISPLAY_DP decimals, trailing zeros dropped; anything else as it is. */
export function amountText(v: string): string {
  try {
    return X40.parse(v).toFixedDp(DISPLAY_DP);
  } catch {
    return v;
  }
}

type Tone = 'good' | 'warn' | 'bad' | 'dim';
const SGR: Record<Tone, string> = { good: '32', warn: '33', bad: '31', dim: '2' };

export function renderStatusBlock(s: BotStatusSnapshot, options: RenderOptions): string {
  const paint = (text: string, tone: Tone | undefined): string => (options.color === true && tone !== undefined ? `\u001b[${SGR[tone]}m${text}\u001b[0m` : text);
  const lines: string[] = [runLine(s, options.now, paint), streamLine(s.streams, s.clockOffsetMs, options.now, paint)];
  if (s.weight.length > 0) lines.push(`weight: ${s.weight.map((w) => weightText(w, paint)).join(' | ')}`);
  lines.push(countsLine(s));
  if (s.treasury !== undefined) lines.push(treasuryLine(s.treasury, options.now, paint));
  const quote = s.quoteAsset === null ? '' : ` ${s.quoteAsset}`;
  for (const st of s.strategies) lines.push(...strategyLines(st, quote, options, paint));
  if (s.strategies.length === 0) lines.push('no strategies');
  const width = options.width;
  return (width === undefined ? lines : lines.map((l) => cut(l, width))).join('\n');
}

function runLine(s: BotStatusSnapshot, now: number, paint: (t: string, tone: Tone | undefined) => string): string {
  const head = `run ${s.runId} (${s.kind})`;
  const started = `started ${clockText(s.startedAt, true)}`;
  if (s.state === 'running') {
    const quiet = now - s.asOf;
    return `${head} ${paint('RUNNING', 'good')} up ${durationText(now - s.startedAt)}, ${started}, last record ${agoText(quiet)}`;
  }
  const ended = s.endedAt ?? s.asOf;
  const why = [s.exitReason ?? 'ended', s.exitDetail].filter((x) => x !== null && x !== '').join(': ');
  const word = s.state === 'crashed' ? paint('CRASHED', 'bad') : paint('STOPPED', s.exitReason === 'error' ? 'bad' : 'warn');
  return `${head} ${word} (${why}) at ${clockText(ended, true)} after ${durationText(ended - s.startedAt)}, ${started}`;
}

function streamLine(st: StreamStatus, offset: number | null, now: number, paint: (t: string, tone: Tone | undefined) => string): string {
  const user =
    st.userStream === null
      ? 'user stream unknown'
      : `user stream ${paint(st.userStream.state, stateTone(st.userStream.state))} for ${durationText(now - st.userStream.since)}${st.userStream.reason && st.userStream.state !== 'LIVE' ? ` (${st.userStream.reason})` : ''}`;
  const md = st.marketData;
  const mdTone: Tone | undefined = md.mode === 'stream' ? 'good' : md.mode === 'polling' ? 'warn' : undefined;
  const market = `market data ${paint(md.mode, mdTone)}${md.since === null ? '' : ` for ${durationText(now - md.since)}`}${md.mode === 'polling' && md.reason ? ` (${md.reason})` : ''}`;
  const clock = offset === null ? 'clock offset unknown' : `clock offset ${offset > 0 ? '+' : ''}${offset} ms`;
  return `${user} | ${market} | ${clock}`;
}

function stateTone(state: string): Tone {
  if (state === 'LIVE') return 'good';
  if (state === 'DOWN') return 'bad';
  return 'warn';
}

function weightText(w: WeightPoolStatus, paint: (t: string, tone: Tone | undefined) => string): string {
  const pct = `${(w.share * 100).toFixed(1)}%`;
  return `${w.pool} ${paint(pct, w.share >= 0.9 ? 'bad' : w.share >= 0.7 ? 'warn' : undefined)} (${w.used}/${w.limit})`;
}

function treasuryLine(t: TreasuryStatus, now: number, paint: (t: string, tone: Tone | undefined) => string): string {
  const state = paint(t.state, t.state === 'paused' ? 'warn' : t.state === 'off' ? 'dim' : undefined);
  const last = t.lastRunAt === null ? 'not run yet' : `last ${agoText(now - t.lastRunAt)}: ${t.lastResult ?? ''}`;
  const next = t.nextRunAt === null ? '' : ` | next in ${durationText(Math.max(0, t.nextRunAt - now))}`;
  return `treasury ${state} | ${last}${t.reason !== null && t.state !== 'paused' ? ` (${t.reason})` : ''}${next} | moves done ${t.movesDone}`;
}

function countsLine(s: BotStatusSnapshot): string {
  const c = s.counts;
  return `orders ${c.orders}, fills ${c.fills}, rejected ${c.rejected}${c.bars === null ? '' : `, bars ${c.bars}`}`;
}

function strategyLines(st: StrategyStatus, quote: string, o: RenderOptions, paint: (t: string, tone: Tone | undefined) => string): string[] {
  const health = st.health === 'active' ? 'active' : paint(`${st.health.toUpperCase()}${st.healthReason ? `: ${st.healthReason}` : ''}`, st.health === 'failed' ? 'bad' : 'warn');
  const pnl = (v: string): string => paint(signed(v), pnlTone(v));
  const out = [
    `${st.name} [${st.symbols.join(', ')}] ${health} | realised ${pnl(st.realisedPnl)}${quote} | unrealised ${pnl(st.unrealisedPnl)}${quote} | fees ${amountText(st.fees)}${quote} | open orders ${st.openOrderCount}`,
  ];
  for (const p of st.positions) out.push(`  ${positionText(p, o.now)}`);
  const max = o.maxOpenOrders ?? 5;
  for (const order of st.openOrders.slice(0, max)) out.push(`  open ${orderText(order)}`);
  if (st.openOrderCount > Math.min(max, st.openOrders.length)) out.push(`  open ... ${st.openOrderCount - Math.min(max, st.openOrders.length)} more`);
  const sig = st.lastSignal;
  out.push(sig === null ? '  last signal: none yet' : `  last signal ${clockText(sig.time, false)} (${agoText(o.now - sig.time)}) ${sig.kind}: ${sig.summary}`);
  return out;
}

function positionText(p: SymbolPosition, now: number): string {
  const entry = p.averageEntryPrice === null ? '' : ` @ ${amountText(p.averageEntryPrice)}`;
  const source = p.markSource === null ? '' : ` (${p.markSource.replace('-', ' ')}${p.markTime === null ? '' : ` ${clockText(p.markTime, false)}, ${agoText(now - p.markTime)}`})`;
  const mark = p.markPrice === null ? 'no mark' : `mark ${p.markPrice}${source}`;
  return `${p.symbol} position ${p.quantity}${entry} | ${mark} | unrealised ${signed(p.unrealisedPnl)} | realised ${signed(p.realisedPnl)}`;
}

function orderText(o: OpenOrderStatus): string {
  const price = o.price === null ? '' : ` @ ${o.price}`;
  const done = o.executedQuantity === '0' ? '' : ` (${o.executedQuantity} done)`;
  return `${o.side} ${o.type} ${o.symbol} ${o.quantity}${price}${done} ${o.status} ${o.clientOrderId}`;
}

function signed(value: string): string {
  const v = amountText(value);
  return v.startsWith('-') || v === '0' ? v : `+${v}`;
}

function pnlTone(value: string): Tone | undefined {
  const v = amountText(value);
  if (v === '0') return undefined;
  return v.startsWith('-') ? 'bad' : 'good';
}

/** `2024-03-13 10:00:05Z` (with the date) or `10:00:05Z`. */
export function clockText(ms: number, withDate: boolean): string {
  const iso = new Date(ms).toISOString();
  return `${withDate ? `${iso.slice(0, 10)} ` : ''}${iso.slice(11, 19)}Z`;
}

/** `0s`, `45s`, `5m02s`, `1h02m03s`, `2d03h04m`: seconds resolution, never negative. */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  if (d > 0) return `${d}d${two(h)}h${two(m)}m`;
  if (h > 0) return `${h}h${two(m)}m${two(sec)}s`;
  if (m > 0) return `${m}m${two(sec)}s`;
  return `${sec}s`;
}

function agoText(ms: number): string {
  return `${durationText(ms)} ago`;
}

/** The first `width` visible characters of `line` (ANSI SGR sequences kept, not counted), a reset added when cut inside colour. */
export function cut(line: string, width: number): string {
  let visible = 0;
  let i = 0;
  let coloured = false;
  while (i < line.length) {
    if (line.charCodeAt(i) === 0x1b) {
      const end = line.indexOf('m', i);
      if (end < 0) break;
      coloured = line.slice(i, end + 1) !== '\u001b[0m';
      i = end + 1;
      continue;
    }
    if (visible === width) return `${line.slice(0, i)}${coloured ? '\u001b[0m' : ''}`;
    visible++;
    i++;
  }
  return line;
}
