import { describe, expect, it } from 'vitest';
import { D } from '../src/core/money/decimal.ts';
import type { Intent, IntentInput, OrderUpdate } from '../src/strategy/index.ts';
import { instrumentView } from '../src/strategy/instrument-view.ts';
import { candlesFromCloses, StrategyHarness, testInstrument } from '../src/strategy/testing/index.ts';
import marketMaker, { BACKOFF_MS, MAX_BACKOFF_MS } from './market-maker.ts';

// spread 20 bps: at mid 1000 the quotes sit 1 below and 1 above; skew 10 bps at full inventory
const params = { spreadBps: 20, skewBps: 10, refreshBps: 2, quantity: '0.1', maxInventory: '0.4' };
const top = (bid: string, ask: string) => ({ bidPrice: bid, bidQty: '1', askPrice: ask, askQty: '1' });
const maker = (side: 'BUY' | 'SELL', price: string, quantity = '0.1') => ({ side, type: 'LIMIT_MAKER', quantity, price });

function harness(held = '0') {
  // The harness runs the real pre-trade checks: 0.1 BTC at ~1000 is just under testInstrument's default minNotional of 100.
  const h = new StrategyHarness(marketMaker, { params, instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '100000', BTC: held } });
  if (held !== '0') h.view.setPosition('BTCPHP', held, '1000');
  h.start();
  return h;
}

const prices = (intents: readonly Intent[]) => intents.map((i) => (i.kind === 'place' ? `${i.tag}@${i.price}` : i.kind === 'cancelReplace' ? `${i.tag}->${i.order.price}` : `cancel ${i.tag}`));

describe('market-maker', () => {
  it('quotes around the book mid; with nothing held it only bids', () => {
    const h = harness();
    expect(h.bookTop(top('999', '1001'))).toEqual([{ kind: 'place', symbol: 'BTCPHP', ...maker('BUY', '999'), tag: 'bid' }]);
  });

  it('quotes both sides when holding, skewed down by the inventory', () => {
    const h = harness('0.2'); // half of max inventory: centre 1000 * (1 - 0.5 * 10 bps) = 999.5
    expect(h.bookTop(top('999', '1001'))).toEqual([
      { kind: 'place', symbol: 'BTCPHP', ...maker('BUY', '998.5'), tag: 'bid' },
      { kind: 'place', symbol: 'BTCPHP', ...maker('SELL', '1000.5'), tag: 'ask' },
    ]);
  });

  it('a book top with an empty side has no mid: it quotes around the last close, and bars keep driving until the book is two-sided', () => {
    const h = harness();
    // Live, a side can be swept or mid-replacement: its price is 0, and half the ask is no price to bid.
    expect(prices(h.bookTop(top('0', '1001')))).toEqual([]);
    expect(prices(h.bar(candlesFromCloses(['1000'])[0]!))).toEqual(['bid@999']);
    expect(prices(h.bookTop(top('0', '0')))).toEqual([]);
    expect(h.failures).toEqual([]);
  });

  it('a refused cancel-replace keeps the quote it replaced when that is still on the book, and frees the slot when its cancel went through', () => {
    // 0.08 BTC at the account: the first ask (0.05, all it holds by its fills) fits; once it holds 0.2
    // by its fills the ask's replacement wants 0.1, which the account cannot cover: denied.
    const h = new StrategyHarness(marketMaker, { params, instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '100000', BTC: '0.08' } });
    h.view.setPosition('BTCPHP', '0.05', '1000');
    h.start();
    expect(prices(h.bookTop(top('999', '1001'))).map((x) => x.slice(0, 4))).toEqual(['bid@', 'ask@']);
    const first = h.openOrders().find((o) => o.side === 'SELL')!.price;
    h.view.setPosition('BTCPHP', '0.2', '1000');
    const kinds = (intents: readonly Intent[]) => prices(intents).map((x) => x.replace(/[\d.]+$/, ''));
    expect(kinds(h.bookTop(top('1009', '1011')))).toEqual(['bid->', 'ask->']);
    const asks = () => h.openOrders().filter((o) => o.side === 'SELL');
    expect(asks().map((o) => o.price)).toEqual([first]);
    expect(h.failures).toEqual([]);
    // Both sides were refused: both pause (a refusal is not answered at the rate of book tops).
    expect(kinds(h.bookTop(top('1019', '1021')))).toEqual([]);
    // After the pause the next top replaces the old ask again, never places a second one beside it.
    // The bid's replace went the other way: its cancel went through and the new LIMIT_MAKER was
    // rejected, so nothing of the bid is left and a fresh one is placed (a replace of it would be refused).
    expect(kinds(h.bookTop({ ...top('1019', '1021'), time: h.view.time + BACKOFF_MS }))).toEqual(['bid@', 'ask->']);
    expect(asks()).toHaveLength(1);
    expect(h.openOrders().filter((o) => o.side === 'BUY').length).toBeLessThanOrEqual(1);
  });

  it('refuses a quantity below the LOT_SIZE step, saying so', () => {
    const h = new StrategyHarness(marketMaker, { params: { ...params, quantity: '0.0000001' }, instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '100000' } });
    h.start();
    expect(h.bookTop(top('999', '1001'))).toEqual([]);
    expect(h.failures.map((f) => f.message)).toEqual([expect.stringMatching(/quantity 0\.0000001 is below BTCPHP's LOT_SIZE step 0\.000001: set a larger quantity/)]);
  });

  it('falls back to the last close before any book top', () => {
    const h = harness();
    expect(prices(h.bar(candlesFromCloses(['2000'])[0]!))).toEqual(['bid@1998']);
    expect(h.bar(candlesFromCloses(['2000', '2100'])[1]!)).toHaveLength(1); // moved 5%: replaced
    h.bookTop(top('2099', '2101'));
    expect(h.bar(candlesFromCloses(['2000', '2100', '3000'])[2]!)).toEqual([]); // book tops rule now
  });

  it('replaces quotes only when the target moved at least refreshBps', () => {
    const h = harness('0.2');
    h.bookTop(top('999', '1001'));
    expect(h.bookTop(top('999.1', '1001.1'))).toEqual([]); // targets 998.59 / 1000.61: about 1 bp away
    // mid 1001: centre 1000.4995, half 1.001; the bid rounds down, the ask up
    expect(prices(h.bookTop(top('1000', '1002')))).toEqual(['bid->999.49', 'ask->1001.51']);
    expect(h.openOrders().map((o) => `${o.tag}@${o.price}`)).toEqual(['bid@999.49', 'ask@1001.51']);
    expect(h.failures).toEqual([]);
  });

  it('a filled bid raises inventory, requotes lower, and max inventory pulls the bid', () => {
    const h = harness('0.2');
    h.bookTop(top('999', '1001'));
    // bid fills: 0.3 held, fullness 0.75: centre 999.25, bid 998.25 (new slot), ask replaced at 1000.25
    expect(prices(h.fill('bid'))).toEqual(['bid@998.25', 'ask->1000.25']);
    // bid fills again: 0.4 held = max: the bid is not re-placed, the ask moves to 1000 (centre 999)
    const out = h.fill('bid');
    expect(prices(out)).toEqual(['ask->1000']);
    expect(h.openOrders().map((o) => o.tag)).toEqual(['ask']);
    expect(h.view.position('BTCPHP')?.base).toBe('0.4');
  });

  it('a filled ask lowers inventory; with nothing left to sell the ask is not re-placed', () => {
    const h = harness('0.1');
    h.bookTop(top('999', '1001'));
    // held 0.1 (fullness 0.25): bid 998.75, ask 1000.75; the ask fills: nothing held, no skew, bid up to 999
    expect(prices(h.fill('ask'))).toEqual(['bid->999']);
    expect(h.openOrders().map((o) => o.tag)).toEqual(['bid']);
  });

  it('frees a slot whose order was refused, and cancels both quotes on stop', () => {
    const h = harness('0.2');
    h.bookTop(top('999', '1001'));
    const bid = h.order('bid')!;
    h.runner.orderUpdate({ symbol: 'BTCPHP', clientOrderId: bid.clientOrderId, tag: 'bid', side: 'BUY', type: 'LIMIT_MAKER', status: 'EXPIRED', executedQty: '0', cumulativeQuoteQty: '0', time: h.view.time });
    expect(prices(h.bookTop(top('999', '1001')))).toEqual(['bid@998.5']);
    expect(prices(h.stop())).toEqual(['cancel bid', 'cancel ask']);
  });

  it('keeps a LIMIT_MAKER off the other side of the book top, and places no ask for a sliver below the minimums', () => {
    // skew 30 bps at full inventory (0.4): centre 997, ask target 998, at or under the best bid 999: it would take (-2010).
    const h = new StrategyHarness(marketMaker, { params: { ...params, skewBps: 30 }, instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '100000', BTC: '0.4' } });
    h.view.setPosition('BTCPHP', '0.4', '1000');
    h.start();
    expect(prices(h.bookTop(top('999', '1001')))).toEqual(['ask@1001']);
    // 0.0005 BTC at ~1000 is 0.5 PHP, under minNotional 1: bid only.
    const s = new StrategyHarness(marketMaker, { params, instruments: [testInstrument({ minNotional: '1' })], balances: { PHP: '100000', BTC: '0.0005' } });
    s.view.setPosition('BTCPHP', '0.0005', '1000');
    s.start();
    expect(prices(s.bookTop(top('999', '1001')))).toEqual(['bid@998.99']);
    expect(s.denials).toEqual([]);
  });
});

/**
 * Live timing by hand: the venue answers later than the next book top, so a quote is in flight
 * (placed or replaced, no NEW yet) while tops keep arriving. A context of the strategy's own reads.
 */
describe('market-maker against a venue that answers late', () => {
  function live(held: string) {
    const inst = instrumentView(testInstrument({ minNotional: '1' }));
    let now = 1_000_000;
    let book: { bidPrice: number; askPrice: number; mid: number; exact: { bidPrice: string; askPrice: string } } | undefined;
    const p = { symbol: 'BTCPHP', interval: '1m', ...params };
    const ctx = {
      symbol: 'BTCPHP',
      params: p,
      state: marketMaker.state!(p as never) as never,
      now: () => now,
      book: () => book,
      bars: () => ({ close: () => undefined }),
      instrument: () => inst,
      position: () => ({ base: new D(held) }),
      openOrders: () => [],
    } as never;
    const on = (bid: number, ask: number, at = now): IntentInput[] => {
      now = at;
      book = { bidPrice: bid, askPrice: ask, mid: (bid + ask) / 2, exact: { bidPrice: String(bid), askPrice: String(ask) } };
      return marketMaker.onBookTop!(ctx, book as never) as IntentInput[];
    };
    let seq = 0;
    const answer = (tag: 'bid' | 'ask', status: OrderUpdate['status']) =>
      void marketMaker.onOrderUpdate!(ctx, { symbol: 'BTCPHP', clientOrderId: `${tag}-${++seq}`, tag, side: tag === 'bid' ? 'BUY' : 'SELL', type: 'LIMIT_MAKER', status, executedQty: '0', cumulativeQuoteQty: '0', time: now } as never);
    const kinds = (out: readonly IntentInput[]) => out.map((i) => `${i.kind} ${(i as { tag: string }).tag}`);
    return { on, answer, kinds, at: () => now };
  }

  it('moves no quote while its place or replace is unanswered', () => {
    const m = live('0.2');
    expect(m.kinds(m.on(999, 1001))).toEqual(['place bid', 'place ask']);
    // The market moves 1% before the venue answered: nothing is sent (a replace of an order the
    // venue may not have yet is refused -1132, and its placement then lands beside the new quote).
    expect(m.on(1009, 1011)).toEqual([]);
    m.answer('bid', 'NEW');
    m.answer('ask', 'NEW');
    expect(m.kinds(m.on(1009, 1011))).toEqual(['cancelReplace bid', 'cancelReplace ask']);
    expect(m.on(1019, 1021)).toEqual([]);
    expect(m.on(1029, 1031)).toEqual([]);
  });

  it('answers refusals with a doubling pause, not at the rate of book tops', () => {
    const m = live('0.2');
    m.on(999, 1001);
    m.answer('bid', 'NEW');
    m.answer('ask', 'NEW');
    const t0 = m.at();
    let sent = 0;
    // For ten minutes the market keeps moving every 50 ms and every replace is refused (the order
    // filled on its way: -1132, its fill still to come): each refusal pauses that side longer.
    for (let t = t0; t < t0 + 600_000; t += 50) {
      const px = 1000 + (Math.floor((t - t0) / 50) % 2 === 0 ? 10 : -10);
      for (const i of m.on(px - 1, px + 1, t)) {
        sent++;
        m.answer((i as { tag: 'bid' | 'ask' }).tag, 'REJECTED');
      }
    }
    // Pauses of 1, 2, 4 ... 32 s, then 60 s each: 6 + 9 refusals a side at most, against 24,000 replaces at book-top rate.
    expect(sent).toBeLessThanOrEqual(2 * (6 + Math.ceil(600_000 / MAX_BACKOFF_MS)));
    expect(sent).toBeGreaterThanOrEqual(2 * 6);
    // An acknowledged quote resets the pause: the next refusal pauses BACKOFF_MS again.
    const t1 = m.at() + MAX_BACKOFF_MS;
    expect(m.kinds(m.on(1099, 1101, t1))).toEqual(['cancelReplace bid', 'cancelReplace ask']);
    m.answer('bid', 'NEW');
    m.answer('ask', 'NEW');
    expect(m.kinds(m.on(1199, 1201, t1))).toEqual(['cancelReplace bid', 'cancelReplace ask']);
    m.answer('bid', 'REJECTED');
    expect(m.kinds(m.on(1299, 1301, t1 + BACKOFF_MS - 1))).toEqual([]);
    m.answer('ask', 'NEW');
    expect(m.kinds(m.on(1299, 1301, t1 + BACKOFF_MS))).toEqual(['cancelReplace bid', 'cancelReplace ask']);
  });
});
