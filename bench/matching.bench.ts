/**
 * Matching engine throughput (issue "matching engine", target 1,000,000 orders/s in process):
 * a seeded random flow of LIMIT GTC orders around a mid price, about half of them crossing,
 * from two funded accounts (alice buys, bob sells, so every cross is a trade, not a self-trade
 * cancel). Measured with events off (the matching engine itself: every check, matching,
 * settlement, retained history, and the result read: its fills) and on (the engine also builds
 * the execution-report, trade, depth and balance event objects that the sandbox's streams and the
 * backtest's simulated venue consume), against a same-run baseline that parses the same orders
 * and pushes them into arrays, sorted by price at the end, without matching.
 */
import { Balances } from '../src/core/portfolio/balances.ts';
import { SpotEngine } from '../src/core/matching/engine.ts';
import { DEFAULT_FILTERS, instrument } from '../src/core/matching/test-support.ts';
import type { NewOrderRequest } from '../src/core/matching/types.ts';
import { firstId } from '../src/sandbox/exchange-core/ids.ts';
import { measureSync, row } from './harness.ts';

/** mulberry32: small, seeded, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const POOL = 1 << 16;
const START = Date.UTC(2026, 0, 1);

/** Buys and sells within +-0.20 of 100.00, 0.02 to 0.09 BTC: roughly half cross on arrival. */
function orders(seed: number): NewOrderRequest[] {
  const rnd = prng(seed);
  const out: NewOrderRequest[] = [];
  for (let i = 0; i < POOL; i++) {
    const side = rnd() < 0.5 ? 'BUY' : 'SELL';
    const cents = 10000 + Math.floor(rnd() * 41) - 20;
    const price = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const quantity = `0.0${2 + Math.floor(rnd() * 8)}`;
    out.push({ symbol: 'BTCPHP', side, type: 'LIMIT', timeInForce: 'GTC', price, quantity });
  }
  return out;
}

function engine(recordEvents: boolean): SpotEngine {
  const balances = new Balances();
  for (const who of ['alice', 'bob']) {
    balances.credit(who, 'BTC', '1000000000');
    balances.credit(who, 'PHP', '1000000000000');
  }
  return new SpotEngine({
    // The sample's 200 open orders per account would turn most of this flow into rejections.
    instruments: [instrument({ filters: DEFAULT_FILTERS.map((f) => (f['filterType'] === 'MAX_NUM_ORDERS' ? { ...f, maxNumOrders: 10_000_000 } : f)) })],
    defaultFees: { maker: '0.001', taker: '0.001' },
    feeAccountId: 'fees',
    // Ids above 2^53 made the way the sandbox makes them.
    firstOrderId: firstId(START, 0n),
    firstTradeId: firstId(START, 500_000n),
    balances,
    recordEvents,
    retain: 1000,
  });
}

export async function run(): Promise<string[]> {
  const N = 1_000_000;
  const flow = orders(42);
  const mask = POOL - 1;

  const bids: { price: number; qty: number }[] = [];
  const asks: { price: number; qty: number }[] = [];
  const baseline = measureSync('baseline: parse + push into arrays, sort at end', N, (i) => {
    const o = flow[i & mask] as NewOrderRequest;
    (o.side === 'BUY' ? bids : asks).push({ price: Number(o.price), qty: Number(o.quantity) });
    if (bids.length + asks.length >= POOL) {
      bids.sort((a, b) => b.price - a.price);
      asks.sort((a, b) => a.price - b.price);
      bids.length = asks.length = 0;
    }
  });

  const lines = ['Matching engine: random crossing LIMIT flow (target 1,000,000 orders/s)', row(baseline)];
  for (const record of [false, true]) {
    const e = engine(record);
    let now = 0;
    let trades = 0;
    const m = measureSync(`SpotEngine.placeOrder, events ${record ? 'on' : 'off'}`, N, (i) => {
      const o = flow[i & mask] as NewOrderRequest;
      const r = e.placeOrder(o.side === 'BUY' ? 'alice' : 'bob', o, ++now);
      if (r.ok) trades += r.fills.length;
    });
    lines.push(row(m, baseline));
    const total = N + Math.min(N, Math.max(1000, Math.floor(N / 10)));
    const resting = e.openCounts('alice', 'BTCPHP').orders + e.openCounts('bob', 'BTCPHP').orders;
    const levels = e.depth('BTCPHP', 1000);
    lines.push(`    ${(trades / total).toFixed(2)} fills per order; at the end ${resting} resting orders on ${levels.bids.length + levels.asks.length} levels`);
  }
  return lines;
}
