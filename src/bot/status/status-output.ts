/**
 * Where the status goes (issue 21 deliverable 4: "on a terminal, a status block refreshed every
 * few seconds ...; pino JSON lines when not on a terminal"). The bot calls `show(snapshot, now)`
 * on its refresh tick; this decides the form:
 * - on a terminal: the block (render-block.ts), drawn over the previous one in place: the cursor
 *   goes up by the lines last drawn and the screen is cleared from there down (ANSI CUU and ED);
 *   lines are cut to the terminal's width so none wraps and the count stays true;
 * - otherwise: one pino line per refresh, `msg: "status"`, the snapshot's essentials as fields
 *   (decimal strings stay strings), so a log collector can read positions and health.
 * Anything else written to the terminal between two blocks would be erased by the redraw: the
 * caller calls `release()` after writing there, and the next block is drawn below instead.
 */
import type { Logger } from 'pino';
import { renderStatusBlock } from './render-block.ts';
import type { BotStatusSnapshot } from './types.ts';

export interface StatusOutputOptions {
  /** Whether the output is a terminal (default: process.stdout.isTTY). */
  readonly tty?: boolean;
  /** Writes the block on a terminal (default: process.stdout). */
  readonly write?: (text: string) => void;
  /** The terminal's columns now (default: process.stdout.columns); undefined: lines are not cut. */
  readonly columns?: () => number | undefined;
  /** Environment read for NO_COLOR / FORCE_COLOR (default: process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Colour forced on or off; default: colorWanted(env, tty). */
  readonly color?: boolean;
  /** Where the JSON lines go when not on a terminal (the project's logger, log/logger.ts). */
  readonly logger?: Pick<Logger, 'info'>;
}

/** NO_COLOR (https://no-color.org) set and non-empty: never; FORCE_COLOR not '0'/'false': always; else on a terminal. */
export function colorWanted(env: NodeJS.ProcessEnv, tty: boolean): boolean {
  const no = env['NO_COLOR'];
  if (no !== undefined && no !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return tty;
}

/** The ANSI sequence that takes the cursor to the start of a block of `lines` lines just printed and clears from there down. */
export function redrawPrefix(lines: number): string {
  return lines > 0 ? `\r\u001b[${lines}A\u001b[J` : '';
}

export class StatusOutput {
  private drawn = 0;
  private readonly tty: boolean;
  private readonly write: (text: string) => void;
  private readonly columns: () => number | undefined;
  private readonly color: boolean;

  constructor(private readonly options: StatusOutputOptions = {}) {
    this.tty = options.tty ?? process.stdout.isTTY === true;
    this.write = options.write ?? ((t) => void process.stdout.write(t));
    this.columns = options.columns ?? (() => process.stdout.columns);
    this.color = options.color ?? colorWanted(options.env ?? process.env, this.tty);
  }

  /** Whether `show` draws blocks (a terminal) or logs JSON lines. */
  get onTerminal(): boolean {
    return this.tty;
  }

  show(snapshot: BotStatusSnapshot, now: number): void {
    if (!this.tty) {
      this.options.logger?.info(statusLogFields(snapshot), 'status');
      return;
    }
    const columns = this.columns();
    const block = renderStatusBlock(snapshot, { now, color: this.color, ...(columns !== undefined && columns > 0 ? { width: columns } : {}) });
    this.write(`${redrawPrefix(this.drawn)}${block}\n`);
    this.drawn = block.split('\n').length;
  }

  /** Something else was written to the terminal: keep the last block, draw the next one below. */
  release(): void {
    this.drawn = 0;
  }
}

/** The fields of one JSON status line: what the block shows, compact, money as decimal strings. */
export function statusLogFields(s: BotStatusSnapshot): Record<string, unknown> {
  return {
    runId: s.runId,
    kind: s.kind,
    state: s.state,
    ...(s.exitReason === null ? {} : { exitReason: s.exitReason }),
    userStream: s.streams.userStream === null ? null : { state: s.streams.userStream.state, since: s.streams.userStream.since },
    marketData: s.streams.marketData.mode,
    weight: Object.fromEntries(s.weight.map((w) => [w.pool, Number(w.share.toFixed(4))])),
    clockOffsetMs: s.clockOffsetMs,
    counts: s.counts,
    ...(s.quoteAsset === null ? {} : { quoteAsset: s.quoteAsset }),
    strategies: s.strategies.map((st) => ({
      name: st.name,
      health: st.health,
      ...(st.healthReason === null ? {} : { healthReason: st.healthReason }),
      positions: Object.fromEntries(st.positions.map((p) => [p.symbol, p.quantity])),
      openOrders: st.openOrderCount,
      realisedPnl: st.realisedPnl,
      unrealisedPnl: st.unrealisedPnl,
      lastSignal: st.lastSignal === null ? null : { time: st.lastSignal.time, kind: st.lastSignal.kind, summary: st.lastSignal.summary },
    })),
  };
}
