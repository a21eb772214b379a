import { describe, expect, it } from 'vitest';
import { checkRun } from './check-run.ts';
import type { ChaosRunInput } from './input.ts';

// A clean run: two intents, one filled by two trades while the user stream was LIVE, one cancelled.
// Order ids above 2^53 (kept as strings).
const BIG = '9007199254740993';
function clean(): ChaosRunInput {
  return {
    seed: 'seed-1',
    start: 0,
    end: 10_000,
    venue: {
      orders: [
        { symbol: 'BTCPHP', orderId: BIG, clientOrderId: 'hyaaaaaaa-1', status: 'FILLED', time: 1_000, updateTime: 2_000 },
        { symbol: 'BTCPHP', orderId: '7', clientOrderId: 'hyaaaaaaa-2', status: 'CANCELED', time: 3_000, updateTime: 4_000 },
      ],
      trades: [
        { symbol: 'BTCPHP', id: '100', orderId: BIG, price: '1000.5', qty: '0.1', isBuyer: true, time: 1_500 },
        { symbol: 'BTCPHP', id: '101', orderId: BIG, price: '1000.5', qty: '0.1', isBuyer: true, time: 2_000 },
      ],
      balances: [
        { asset: 'BTC', free: '0.2', locked: '0' },
        { asset: 'PHP', free: '997999.8', locked: '0.00000000' },
      ],
    },
    journal: {
      requests: [
        { clientOrderId: 'hyaaaaaaa-1', kind: 'place', attempt: 1, state: 'acknowledged' },
        { clientOrderId: 'hyaaaaaaa-2', kind: 'place', attempt: 1, state: 'acknowledged' },
        { clientOrderId: 'hyaaaaaaa-2', kind: 'cancel', attempt: 1, state: 'acknowledged' },
      ],
      orders: [
        { clientOrderId: 'hyaaaaaaa-1', exchangeOrderId: BIG, status: 'FILLED' },
        { clientOrderId: 'hyaaaaaaa-2', exchangeOrderId: '7', status: 'CANCELED' },
      ],
      fills: [
        { symbol: 'BTCPHP', tradeId: '100', clientOrderId: 'hyaaaaaaa-1', exchangeOrderId: BIG, side: 'BUY' },
        // Journaled before the ack: named through its client id.
        { symbol: 'BTCPHP', tradeId: '101', clientOrderId: 'hyaaaaaaa-1', exchangeOrderId: null, side: 'BUY' },
      ],
      // Trailing zeros and a missing zero line are equal amounts.
      balances: [
        { asset: 'BTC', free: '0.20', locked: '0' },
        { asset: 'PHP', free: '997999.80', locked: '0' },
        { asset: 'ETH', free: '0', locked: '0' },
      ],
      streamHealth: [
        { time: 0, stream: 'user', to: 'CONNECTING' },
        { time: 500, stream: 'user', to: 'LIVE' },
        { time: 0, stream: 'btcphp@depth', to: 'CONNECTING' },
        { time: 600, stream: 'btcphp@depth', to: 'LIVE' },
      ],
    },
    strategies: [
      { strategy: 'grid', fills: [{ orderId: BIG, tradeId: '100' }] },
      { strategy: 'grid2', fills: [{ orderId: BIG, tradeId: '101' }] },
    ],
    faults: [{ kind: '5xx-after-commit', start: 1_200, end: 1_300 }],
    outcomes: [{ time: 1_250, status: 503 }],
    crashes: [],
  };
}

describe('checkRun', () => {
  it('a clean run is ok with every count 0', () => {
    const r = checkRun(clean());
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.orders).toEqual({ intents: 2, venue: 2, duplicates: [], unjournaled: [] });
    expect(r.fills).toMatchObject({ venue: 2, journal: 2, lostFromJournal: [], lostFromStrategies: [], doubled: [], phantom: [] });
    expect(r.balances).toEqual({ equal: true, mismatches: [] });
    expect(r.bans).toEqual({ earned: 0, injected: 0 });
    expect(r.blind).toEqual({ longest: null, totalMs: 0, limitMs: null });
    expect(r.faults.heals).toEqual([{ kind: '5xx-after-commit', start: 1_200, end: 1_300, healedAt: 1_300, healMs: 0 }]);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('two venue orders from one intent are a duplicate', () => {
    const input = clean();
    input.venue.orders = [...input.venue.orders, { symbol: 'BTCPHP', orderId: '8', clientOrderId: 'hyaaaaaaa-2', status: 'CANCELED', time: 4_500, updateTime: 4_600 }];
    const r = checkRun(input);
    expect(r.orders.duplicates).toEqual([{ clientOrderId: 'hyaaaaaaa-2', orderIds: ['7', '8'] }]);
    expect(r.ok).toBe(false);
    expect(r.failures).toContain('1 intent(s) placed more than once at the venue');
  });

  it('one order listed twice by the venue (allOrders and openOrders) is not a duplicate', () => {
    const input = clean();
    input.venue.orders = [...input.venue.orders, { ...input.venue.orders[1]! }];
    expect(checkRun(input).orders.duplicates).toEqual([]);
  });

  it('a venue order the journal never recorded is unjournaled', () => {
    const input = clean();
    input.venue.orders = [...input.venue.orders, { symbol: 'BTCPHP', orderId: '9', clientOrderId: 'hyaaaaaaa-3', status: 'CANCELED', time: 5_000, updateTime: 5_100 }];
    const r = checkRun(input);
    expect(r.orders.unjournaled).toEqual(['hyaaaaaaa-3']);
    expect(r.ok).toBe(false);
  });

  it('a venue fill the journal lacks is lost', () => {
    const input = clean();
    input.journal.fills = input.journal.fills.slice(0, 1);
    const r = checkRun(input);
    expect(r.fills.lostFromJournal).toEqual([{ orderId: BIG, tradeId: '101' }]);
    expect(r.fills.lostFromStrategies).toEqual([]);
    expect(r.ok).toBe(false);
  });

  it('a venue fill no strategy was told of is lost', () => {
    const input = clean();
    input.strategies = [input.strategies[0]!];
    const r = checkRun(input);
    expect(r.fills.lostFromStrategies).toEqual([{ orderId: BIG, tradeId: '101' }]);
    expect(r.ok).toBe(false);
  });

  it('a fill applied twice, in the journal or to the strategies, is doubled', () => {
    const input = clean();
    // The same trade written once with the order id and once before the ack: one fill, twice.
    input.journal.fills = [...input.journal.fills, { ...input.journal.fills[0]!, exchangeOrderId: null }];
    input.strategies = [...input.strategies, { strategy: 'grid', fills: [{ orderId: BIG, tradeId: '100' }] }];
    const r = checkRun(input);
    expect(r.fills.doubled).toEqual([
      { orderId: BIG, tradeId: '100', where: 'journal', times: 2 },
      { orderId: BIG, tradeId: '100', where: 'grid', times: 2 },
    ]);
    expect(r.ok).toBe(false);
    expect(r.failures).toContain('2 fill(s) applied more than once');
  });

  it('one trade id on two orders (a self-trade) is two fills, not a doubled one', () => {
    const input = clean();
    input.venue.trades = [...input.venue.trades, { symbol: 'BTCPHP', id: '100', orderId: '7', price: '1000.5', qty: '0.1', isBuyer: false, time: 1_500 }];
    input.journal.fills = [...input.journal.fills, { symbol: 'BTCPHP', tradeId: '100', clientOrderId: 'hyaaaaaaa-2', exchangeOrderId: '7', side: 'SELL' }];
    input.strategies = [...input.strategies, { strategy: 'seller', fills: [{ orderId: '7', tradeId: '100' }] }];
    const r = checkRun(input);
    expect(r.fills.doubled).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('a journal fill the venue never made is phantom', () => {
    const input = clean();
    input.journal.fills = [...input.journal.fills, { symbol: 'BTCPHP', tradeId: '555', clientOrderId: 'hyzzzzzzz-1', exchangeOrderId: null, side: 'BUY' }];
    const r = checkRun(input);
    expect(r.fills.phantom).toEqual([{ orderId: 'client:hyzzzzzzz-1', tradeId: '555' }]);
    expect(r.ok).toBe(false);
  });

  it('a balance off by 1e-8 is a mismatch, exactly', () => {
    const input = clean();
    input.journal.balances = [{ asset: 'BTC', free: '0.20000001', locked: '0' }, input.journal.balances[1]!];
    const r = checkRun(input);
    expect(r.balances).toEqual({ equal: false, mismatches: [{ asset: 'BTC', field: 'free', journal: '0.20000001', venue: '0.2', diff: '0.00000001' }] });
    expect(r.ok).toBe(false);
  });

  it('an asset only one side holds is compared with 0', () => {
    const input = clean();
    input.venue.balances = [...input.venue.balances, { asset: 'ETH', free: '0', locked: '0.5' }];
    expect(checkRun(input).balances.mismatches).toEqual([{ asset: 'ETH', field: 'locked', journal: '0', venue: '0.5', diff: '-0.5' }]);
  });

  it('a 418 outside an injected-418 fault is a ban earned; inside one it is not', () => {
    const input = clean();
    input.faults = [...input.faults, { kind: '418', start: 6_000, end: 6_100 }];
    input.outcomes = [...input.outcomes, { time: 6_050, status: 418 }];
    expect(checkRun(input).bans).toEqual({ earned: 0, injected: 1 });
    input.outcomes = [...input.outcomes, { time: 7_000, status: 418 }];
    const r = checkRun(input);
    expect(r.bans).toEqual({ earned: 1, injected: 1 });
    expect(r.ok).toBe(false);
    expect(r.failures).toContain('1 ban(s) (418) earned');
  });

  it('a process crash fails the run', () => {
    const input = clean();
    input.crashes = [{ time: 5_000, reason: 'exit 1' }];
    expect(checkRun(input).ok).toBe(false);
  });

  it('the user stream down while an order is open is blind time, and fails past the limit', () => {
    const input = clean();
    input.journal.streamHealth = [
      ...input.journal.streamHealth,
      { time: 1_400, stream: 'user', to: 'DOWN' },
      { time: 1_700, stream: 'user', to: 'RESYNCING' },
      { time: 1_900, stream: 'user', to: 'LIVE' },
      // Down again while no order is open (between 2_000 and 3_000): not blind.
      { time: 2_200, stream: 'user', to: 'STALE' },
      { time: 3_100, stream: 'user', to: 'LIVE' },
      // A market stream down does not blind the bot to its orders.
      { time: 3_500, stream: 'btcphp@depth', to: 'DOWN' },
      { time: 3_900, stream: 'btcphp@depth', to: 'LIVE' },
    ];
    const r = checkRun(input);
    expect(r.blind).toEqual({ longest: { start: 1_400, end: 1_900, ms: 500 }, totalMs: 600, limitMs: null });
    expect(r.ok).toBe(true);
    const limited = checkRun({ ...input, options: { maxBlindMs: 499 } });
    expect(limited.ok).toBe(false);
    expect(limited.failures).toEqual(['blind for 500 ms with an order open (limit 499 ms)']);
  });

  it('an order still open at the end is open until the end; a stream never LIVE is blind from the start', () => {
    const input = clean();
    input.venue.orders = [...input.venue.orders, { symbol: 'BTCPHP', orderId: '9', clientOrderId: 'hyaaaaaaa-2', status: 'NEW', time: 100, updateTime: 100 }];
    input.journal.streamHealth = [{ time: 8_000, stream: 'user', to: 'DOWN' }];
    const r = checkRun(input);
    expect(r.blind.longest).toEqual({ start: 100, end: 10_000, ms: 9_900 });
  });

  it('a fault heals when every stream is LIVE again after it ends, and one that never heals fails the run', () => {
    const input = clean();
    input.faults = [
      { kind: 'ws-drop', start: 4_000, end: 4_100 },
      { kind: 'ws-stall', start: 8_000, end: 8_500 },
    ];
    input.journal.streamHealth = [
      ...input.journal.streamHealth,
      { time: 4_000, stream: 'user', to: 'DOWN' },
      { time: 4_300, stream: 'user', to: 'LIVE' },
      { time: 4_000, stream: 'btcphp@depth', to: 'DOWN' },
      { time: 4_700, stream: 'btcphp@depth', to: 'LIVE' },
      { time: 8_000, stream: 'btcphp@depth', to: 'STALE' },
    ];
    const r = checkRun(input);
    expect(r.faults.heals.map((h) => [h.kind, h.healedAt, h.healMs])).toEqual([
      ['ws-drop', 4_700, 600],
      ['ws-stall', null, null],
    ]);
    expect(r.faults).toMatchObject({ unhealed: 1, longestHealMs: 600 });
    expect(r.ok).toBe(false);
  });

  it('a fault still on at the end of the run is unhealed', () => {
    const input = clean();
    input.faults = [{ kind: 'clock-skew', start: 9_000, end: null }];
    expect(checkRun(input).faults.unhealed).toBe(1);
  });

  it('refuses an id given as a number and money that is not a decimal string, naming the field', () => {
    const input = clean();
    (input.venue.trades[0] as { id: unknown }).id = 2 ** 53 + 2;
    expect(() => checkRun(input)).toThrow('venue.trades[0].id must be an id as a string of digits (ids exceed 2^53), got a number 9007199254740994');
    const money = clean();
    (money.venue.balances[0] as { free: unknown }).free = 0.2;
    expect(() => checkRun(money)).toThrow('venue.balances[0] (BTC).free must be a decimal string, got the number 0.2');
    const exp = clean();
    exp.journal.balances = [{ asset: 'BTC', free: '1e-8', locked: '0' }];
    expect(() => checkRun(exp)).toThrow(/journal\.balances\[0\] \(BTC\)\.free must be a decimal string .* got "1e-8"/);
  });
});
