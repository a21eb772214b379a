/**
 * End-to-end wiring for the live venue's tests (test/live-*.test.ts): the order manager and a
 * LiveVenue over the project's client and user data stream against a running sandbox (real HTTP
 * and WebSocket on 127.0.0.1), its timers on an RxJS VirtualTimeScheduler, a journal file, and
 * what the strategy was told (order updates, fills, issues) recorded in order.
 */
import { parseInstruments } from '../../../core/market/instrument.ts';
import { OrderManager } from '../../../core/orders/order-manager.ts';
import type { OrderIssue } from '../../../core/orders/apply-venue-events.ts';
import type { Denial } from '../../../core/orders/order-manager-types.ts';
import type { FillOut, OrderIntent, OrderUpdateOut } from '../../../core/orders/types.ts';
import type { ExchangeClient } from '../../../exchange/client/exchange-client.ts';
import { decodeUserEvent } from '../../../exchange/streams/user-payloads.ts';
import type { UserStreamEvent } from '../../../exchange/streams/user-payload-types.ts';
import { seededRandom } from '../../../exchange/ws/backoff.ts';
import type { StreamTimingsInput } from '../../../exchange/ws/stream-timings.ts';
import { VirtualTime } from '../../../exchange/ws/testing/virtual-time.ts';
import { UserDataStream } from '../../../exchange/ws/user-data-stream.ts';
import type { Journal } from '../../../journal/journal.ts';
import type { VenueEvent } from '../../../ports/venue.ts';
import type { SandboxHandle } from '../../../sandbox/server.ts';
import { adoptOrder, strategyKeys, type AdoptInput } from '../adopt-order.ts';
import { LiveVenue, type LiveVenueOptions } from '../live-venue.ts';
import type { VenueLogEntry } from '../venue-log.ts';

export const STRATEGY = 's1';
/** Pings out of the way; reconnects within 8 s of virtual time. */
export const QUIET_TIMINGS: StreamTimingsInput = { pingIntervalMs: 48 * 3_600_000, backoff: { baseMs: 1000, maxMs: 8000 } };

export interface HarnessOptions {
  readonly runId: string;
  readonly journal?: Journal;
  readonly symbols?: readonly string[];
  /** Earlier runs whose orders may be adopted. */
  readonly adoptRuns?: readonly string[];
  readonly venue?: Partial<LiveVenueOptions>;
  readonly wsUrl?: string;
  readonly timings?: StreamTimingsInput;
  /** The project's client for the sandbox's demo account (the test makes and closes it). */
  readonly client: ExchangeClient;
  readonly balances?: Record<string, string>;
}

export interface Harness {
  readonly vt: VirtualTime;
  readonly client: ExchangeClient;
  readonly stream: UserDataStream<UserStreamEvent>;
  readonly venue: LiveVenue;
  readonly om: OrderManager;
  readonly updates: OrderUpdateOut[];
  readonly fills: FillOut[];
  readonly issues: OrderIssue[];
  readonly denials: Denial[];
  readonly batches: VenueEvent[][];
  readonly logs: VenueLogEntry[];
  /** After each batch, the order manager's status of each order it named: [client order id, status]. */
  readonly trace: [string, string][];
  /** Adopts an order into the order manager (start-up reconciliation's `adopt`). */
  adopt(order: AdoptInput): boolean;
  /** The strategy's intents through the order manager to the venue; the commands' client ids. */
  submit(...intents: OrderIntent[]): string[];
  close(): Promise<void>;
}

/** What the harness needs of the sandbox: its stream URL and a clock (a child process has no handle: Date.now). */
export type HarnessVenueSide = Pick<SandboxHandle, 'wsUrl'> & { readonly clock: { now(): number } };

export async function liveHarness(s: HarnessVenueSide, o: HarnessOptions): Promise<Harness> {
  const vt = new VirtualTime(s.clock.now());
  const client = o.client;
  const instruments = parseInstruments(await client.general.exchangeInfo());
  const om = new OrderManager({ runId: o.runId, now: () => s.clock.now(), instruments: [...instruments.values()], balances: o.balances ?? { PHP: '100000', BTC: '0.03' } });
  const stream = new UserDataStream<UserStreamEvent>({
    listenKeys: client.userStream,
    wsUrl: o.wsUrl ?? s.wsUrl,
    decode: decodeUserEvent,
    scheduler: vt.scheduler,
    random: seededRandom(7),
    timings: o.timings ?? QUIET_TIMINGS,
  });
  const logs: VenueLogEntry[] = [];
  const keys = strategyKeys([o.runId, ...(o.adoptRuns ?? [])], [STRATEGY]);
  const venue = new LiveVenue({
    client,
    stream,
    journal: o.journal,
    runId: o.runId,
    symbols: o.symbols ?? ['BTCPHP'],
    now: () => s.clock.now(),
    scheduler: vt.scheduler,
    log: (e) => logs.push(e),
    adopt: (e) => adoptOrder(om, e, keys),
    ...o.venue,
  });
  const h: Harness = {
    vt,
    client,
    stream,
    venue,
    om,
    updates: [],
    fills: [],
    issues: [],
    denials: [],
    batches: [],
    logs,
    trace: [],
    adopt: (order) => adoptOrder(om, order, keys),
    submit(...intents) {
      const r = om.submit(STRATEGY, intents, s.clock.now());
      h.denials.push(...r.denials);
      for (const c of r.commands) venue.send(c);
      return r.commands.map((c) => (c.kind === 'cancelReplace' ? c.order.clientOrderId : c.clientOrderId));
    },
    async close() {
      await venue.close();
    },
  };
  venue.connect((events) => {
    h.batches.push([...events]);
    const r = om.onVenueEvents(events);
    h.issues.push(...r.issues);
    for (const e of events) if (e.kind !== 'balance') h.trace.push([e.clientOrderId, om.orders.get(e.clientOrderId)?.status ?? 'unknown to the order manager']);
    for (const e of r.events) {
      if (e.kind === 'fill') h.fills.push(e.fill);
      else h.updates.push(e.update);
    }
  });
  return h;
}

/** Polls `pred` between event-loop turns (real I/O: an HTTP answer, a frame), up to `wallMs`. */
export async function waitFor(pred: () => boolean, wallMs = 5000, what = 'condition'): Promise<void> {
  const end = performance.now() + wallMs;
  while (!pred()) {
    if (performance.now() > end) throw new Error(`waitFor: ${what} not met within ${wallMs} ms`);
    await new Promise<void>((resolve) => setTimeout(resolve, 3));
  }
}

/** Start the venue and wait until its first resync made the stream LIVE. */
export async function startLive(h: Harness): Promise<void> {
  h.venue.start();
  await waitFor(() => h.venue.streamHealth.state === 'LIVE', 5000, 'user stream LIVE');
}
