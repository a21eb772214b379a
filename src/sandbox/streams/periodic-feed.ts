/**
 * Periodic market streams (protocol notes 4): `<s>@kline_<i>` every 2000 ms, with one last update
 * `x: true` for a kline whose period has ended; `<s>@ticker`, `<s>@miniTicker`, `!ticker@arr`,
 * `!miniTicker@arr` every 1000 ms, changed tickers only (a new subscriber first gets everything).
 * Klines exist only for periods that traded (see kline-series), so a quiet period pushes nothing.
 */
import type { Clock } from '../../ports/clock.ts';
import { periodOpen } from '../../core/market/intervals.ts';
import type { MarketDataStore } from '../market-data/store.ts';
import { readBookTop, type Ticker24Stats } from '../market-data/ticker.ts';
import type { BookSource } from '../market-data/types.ts';
import { stringifyWire } from '../wire-json.ts';
import type { StreamConnection, Subscription, SubscriptionIndex } from './connection.ts';
import { klinePayload, miniTickerPayload, signature, tickerPayload } from './payloads.ts';

/** Fields that move every second without news: event time and the window's own times. */
const VOLATILE = ['E', 'O', 'C'] as const;

export class PeriodicFeed {
  /** Previous tick's signature per symbol, for the "changed only" arrays. */
  private readonly prevArr = { allTickers: new Map<string, string>(), allMiniTickers: new Map<string, string>() };

  constructor(
    private readonly index: SubscriptionIndex,
    private readonly clock: Clock,
    private readonly store: MarketDataStore,
    private readonly book: BookSource,
    private readonly inPercent: boolean,
  ) {}

  pushKlines(): void {
    const now = this.clock.now();
    for (const [name, subs] of this.index.entries()) {
      const stream = first(subs)?.stream;
      if (stream?.kind !== 'kline') continue;
      const { symbol, interval } = stream;
      const curOpen = periodOpen(interval, now);
      const cur = this.store.kline(symbol, interval, curOpen);
      const curText = cur ? stringifyWire(klinePayload(symbol, interval, cur, false, now)) : undefined;
      for (const [conn, sub] of subs) {
        // The period of this subscriber's previous push tick, kline or not: trades made after that
        // tick's push still close in it, and only this x:true update reports them.
        if (sub.lastOpen !== undefined && sub.lastOpen < curOpen) {
          const closed = this.store.kline(symbol, interval, sub.lastOpen);
          if (closed) conn.sendEvent(name, stringifyWire(klinePayload(symbol, interval, closed, true, now)));
        }
        sub.lastOpen = curOpen;
        if (curText) conn.sendEvent(name, curText);
      }
    }
  }

  pushTickers(): void {
    const now = this.clock.now();
    for (const [name, subs] of this.index.entries()) {
      const stream = first(subs)?.stream;
      if (stream?.kind === 'ticker' || stream?.kind === 'miniTicker') {
        const payload = this.payload(stream.kind, this.store.tickerStats(stream.symbol), now);
        const sig = signature(payload, VOLATILE);
        const text = stringifyWire(payload);
        for (const [conn, sub] of subs) {
          if (sub.lastSig === sig) continue;
          sub.lastSig = sig;
          conn.sendEvent(name, text);
        }
      }
    }
    this.pushArray('!ticker@arr', 'allTickers', now);
    this.pushArray('!miniTicker@arr', 'allMiniTickers', now);
  }

  private pushArray(name: string, kind: 'allTickers' | 'allMiniTickers', now: number): void {
    const prev = this.prevArr[kind];
    const subs = this.index.subscribers(name);
    if (!subs) {
      prev.clear();
      return;
    }
    const all: Record<string, unknown>[] = [];
    const changed: Record<string, unknown>[] = [];
    for (const symbol of this.store.symbols()) {
      const payload = this.payload(kind === 'allTickers' ? 'ticker' : 'miniTicker', this.store.tickerStats(symbol), now);
      const sig = signature(payload, VOLATILE);
      all.push(payload);
      if (prev.get(symbol) !== sig) changed.push(payload);
      prev.set(symbol, sig);
    }
    const changedText = changed.length > 0 ? stringifyWire(changed) : undefined;
    for (const [conn, sub] of subs) {
      if (sub.lastSig === undefined) {
        sub.lastSig = 'seen';
        if (all.length > 0) conn.sendEvent(name, stringifyWire(all));
      } else if (changedText) conn.sendEvent(name, changedText);
    }
  }

  private payload(kind: 'ticker' | 'miniTicker', stats: Ticker24Stats, now: number): Record<string, unknown> {
    if (kind === 'miniTicker') return miniTickerPayload(stats, now);
    return tickerPayload(stats, readBookTop(this.book, stats.symbol), now, this.inPercent);
  }
}

function first(subs: ReadonlyMap<StreamConnection, Subscription>): Subscription | undefined {
  return subs.values().next().value;
}
