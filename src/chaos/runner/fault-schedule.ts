/**
 * The fault schedule of a chaos run (issue 22 deliverable 1: "a seeded random schedule of faults";
 * deliverable 2: "A seed that fails replays the same schedule"): seed + intents + rates -> the list
 * of injections, each due once the bot has asked for `atIntent` intents. Pure: the same inputs give
 * the same list, drawn from the seed's `faults` stream only (prng.ts), so neither the strategies nor
 * the machine's speed move it. Every kind with a rate above 0 is injected at least once (a short run
 * with small rates would otherwise miss some).
 *
 * Durations are sandbox ms. HTTP faults fire on the next matching request (`count`), or are removed
 * unfired after `durationMs`; a stall or a clock skew is on for `durationMs`; drop and listen-key
 * expiry are instants.
 */
import { FAULT_KINDS, type FaultKind, type FaultRates } from './fault-kinds.ts';
import { pick, streamOf, type Prng } from './prng.ts';

export interface Injection {
  /** Position in the schedule. */
  readonly seq: number;
  readonly atIntent: number;
  readonly kind: FaultKind;
  /** The sandbox fault (POST /faults) when the kind is one. */
  readonly fault?: {
    readonly kind: 'delay' | 'hang' | 'ban' | 'rate-limit' | 'error-before' | 'error-after' | 'clock-skew';
    readonly endpoint?: string;
    readonly count?: number;
    readonly status?: number;
    readonly delayMs?: number;
    readonly retryAfterSeconds?: number;
    readonly skewMs?: number;
  };
  readonly durationMs: number;
}

export interface ScheduleOptions {
  readonly seed: string;
  readonly intents: number;
  readonly rates: FaultRates;
  /** The bot's REST timeout (wall ms): a `timeout` holds its answer past it, a `slow` one stays within. */
  readonly clientTimeoutMs: number;
}

/** The order flow's endpoints (src/exchange/endpoints/areas/spot.ts): where a 5xx or a lost answer matters. */
const WRITES = ['spot.newOrder', 'spot.newOrder', 'spot.newOrder', 'spot.cancelOrder', 'spot.cancelReplace', 'spot.cancelReplace'];
const READS = ['spot.queryOrder', 'spot.openOrders', 'spot.myTrades', 'account.account'];

function injectionOf(kind: FaultKind, p: Prng, o: ScheduleOptions): Omit<Injection, 'seq' | 'atIntent'> {
  const writeOrRead = () => (p.next() < 0.8 ? pick(p, WRITES) : pick(p, READS));
  switch (kind) {
    case 'error-before':
      return { kind, fault: { kind: 'error-before', endpoint: writeOrRead(), count: 1, status: pick(p, [500, 502, 503, 504]) }, durationMs: 60_000 };
    case 'error-after':
      return { kind, fault: { kind: 'error-after', endpoint: pick(p, WRITES), count: 1, status: pick(p, [500, 502, 503, 504]) }, durationMs: 60_000 };
    case 'timeout':
      return { kind, fault: { kind: 'delay', endpoint: pick(p, WRITES), count: 1, delayMs: o.clientTimeoutMs + 300 }, durationMs: 60_000 };
    case 'hang':
      return { kind, fault: { kind: 'hang', endpoint: writeOrRead(), count: 1, delayMs: o.clientTimeoutMs + 200 }, durationMs: 60_000 };
    case 'slow':
      return { kind, fault: { kind: 'delay', count: p.int(1, 5), delayMs: p.int(20, Math.min(400, Math.floor(o.clientTimeoutMs / 3))) }, durationMs: 60_000 };
    case '429':
      return { kind, fault: { kind: 'rate-limit', count: p.int(1, 2), retryAfterSeconds: p.int(1, 3) }, durationMs: 60_000 };
    case '418':
      // Spec 8.5: a ban lasts 2 minutes at the least; the bot's user stream waits that long after a 418 whatever the Retry-After (src/exchange/ws/listen-key-policy.ts).
      return { kind, fault: { kind: 'ban', count: 1, retryAfterSeconds: p.int(120, 180) }, durationMs: 60_000 };
    case 'clock-skew':
      return { kind, fault: { kind: 'clock-skew', count: p.int(1, 3), skewMs: pick(p, [-1, 1]) * p.int(6_000, 30_000) }, durationMs: 60_000 };
    case 'drop':
    case 'listen-key':
      return { kind, durationMs: 0 };
    case 'stall':
      return { kind, durationMs: p.int(30_000, 120_000) };
  }
}

export function faultSchedule(o: ScheduleOptions): Injection[] {
  if (!Number.isInteger(o.intents) || o.intents < 0) throw new RangeError(`intents must be a whole number >= 0, got ${String(o.intents)}`);
  const p = streamOf(o.seed, 'faults');
  const kinds = FAULT_KINDS.filter((k) => (o.rates[k] ?? 0) > 0);
  const drawn: Omit<Injection, 'seq'>[] = [];
  const seen = new Set<FaultKind>();
  // Intent 0 is left alone (the run is trading before the first fault), and the last tenth too: a
  // fault there could find no request to fire on before the strategies are done.
  const last = Math.max(1, Math.floor(o.intents * 0.9));
  for (let i = 1; i < last; i++) {
    for (const kind of kinds) {
      if (p.next() < (o.rates[kind] ?? 0)) {
        drawn.push({ atIntent: i, ...injectionOf(kind, p, o) });
        seen.add(kind);
      }
    }
  }
  for (const kind of kinds) {
    if (!seen.has(kind) && o.intents > 1) drawn.push({ atIntent: p.int(1, Math.max(1, last - 1)), ...injectionOf(kind, p, o) });
  }
  drawn.sort((a, b) => a.atIntent - b.atIntent);
  return drawn.map((d, seq) => ({ seq, ...d }));
}

/** Injections per kind, every kind listed. */
export function countByKind(schedule: readonly { kind: FaultKind }[]): Record<FaultKind, number> {
  const out = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  for (const i of schedule) out[i.kind]++;
  return out;
}
