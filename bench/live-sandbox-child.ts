/**
 * The sandbox for the live-path bench (bench/stream-latency.bench.ts), in its own process: forked
 * by the bench so the sandbox's CPU (matching, its HTTP answers, its stream writes) runs on the
 * other core instead of in the event loop of the client it is measured against, as a real venue
 * would. The bench talks to it over HTTP and WebSocket on 127.0.0.1 like any client; the IPC
 * channel only carries the set-up (URLs, keys) and, at the end, the sandbox-side write times.
 *
 * The write of each executionReport is timed with `process.hrtime.bigint()` (CLOCK_MONOTONIC on
 * Linux: one clock for every process of the machine, so the bench can subtract it from its own
 * receipt time), keyed by the frame's client order id, execution type and trade id. The key is
 * read after the frame is handed to the socket, so the timing costs the write nothing.
 */
import { marketPlugin } from '../src/sandbox/routes/market.ts';
import { spotPlugin } from '../src/sandbox/routes/spot/index.ts';
import { builtInPlugins, startSandbox } from '../src/sandbox/server.ts';
import { StreamConnection } from '../src/sandbox/streams/connection.ts';

export interface ChildReady {
  kind: 'ready';
  baseUrl: string;
  wsUrl: string;
  apiKey: string;
  apiSecret: string;
  /** A second account: its orders take the demo account's resting orders. */
  taker: { apiKey: string; secret: string };
  /** A third account: the bare undici POST baseline's. */
  poster: { apiKey: string; secret: string };
}

const HUGE = { limit: 1e12, windowMs: 60_000 };
const tradingPlugins = () => [spotPlugin(), marketPlugin()].filter((p) => !builtInPlugins().some((b) => b.name === p.name));

/** `c|x|t` of an executionReport -> hrtime (ns) of its write. */
const written = new Map<string, bigint>();
const KEY = /"x":"([A-Z_]+)".*?"c":"([^"]*)"|"c":"([^"]*)".*?"x":"([A-Z_]+)"/;
const TRADE = /"t":(-?\d+)/;
const original = StreamConnection.prototype.sendEvent;
StreamConnection.prototype.sendEvent = function (this: StreamConnection, stream: string, text: string): void {
  if (!text.startsWith('{"e":"executionReport"')) return original.call(this, stream, text);
  const t = process.hrtime.bigint();
  original.call(this, stream, text);
  const k = KEY.exec(text);
  const trade = TRADE.exec(text)?.[1] ?? '-1';
  if (k) written.set(`${k[2] ?? k[3]}|${k[1] ?? k[4]}|${trade}`, t);
};

const s = await startSandbox({ plugins: tradingPlugins(), config: { rateLimits: { pools: { IP: HUGE, UID: HUGE, ORDERS: HUGE } } } });
const now = () => s.clock.now();
const maker = s.accounts.getKey(s.apiKey)!.accountId;
s.services.balances?.credit(maker, 'BTC', '100');
s.services.balances?.credit(maker, 'PHP', '100000000');
const account = (email: string) => {
  const a = s.accounts.createAccount({ email, createdAt: now() });
  const k = s.accounts.createKey({ accountId: a.id, createdAt: now() });
  s.services.balances?.credit(a.id, 'PHP', '100000000000');
  return { apiKey: k.apiKey, secret: k.secret };
};
const ready: ChildReady = { kind: 'ready', baseUrl: s.baseUrl, wsUrl: s.wsUrl, apiKey: s.apiKey, apiSecret: s.apiSecret, taker: account('bench-taker@example.com'), poster: account('bench-poster@example.com') };

process.on('message', (m: { kind: string }) => {
  if (m.kind === 'written') {
    process.send?.({ kind: 'written', times: [...written].map(([k, t]) => [k, t.toString()]) });
    written.clear();
  } else if (m.kind === 'close') {
    void s.close().then(() => process.exit(0));
  }
});
process.send?.(ready);
