import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_MESSAGE } from '../market/index.ts';
import { dec } from '../money/decimal.ts';
import { externalPriceInt } from './external.ts';
import type { SymbolSpec } from './numbers/symbol-spec.ts';
import type { NewOrderRequest } from './types.ts';
import { harness } from './test-support.ts';

describe('applyPrint', () => {
  it("'through' fills only when the print is beyond the limit, 'touch' also at the limit", () => {
    const h = harness();
    const buy = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const sell = h.place('bob', { side: 'SELL', type: 'LIMIT', price: '102', quantity: '1' });
    expect(h.engine.applyPrint('BTCPHP', { price: '100', time: 2000, mode: 'through' })).toMatchObject({ filledQty: '0', fills: 0 });
    expect(h.engine.lastPrice('BTCPHP')).toBe('100');
    const touch = h.engine.applyPrint('BTCPHP', { price: '100', time: 2001, mode: 'touch' });
    expect(touch).toMatchObject({ filledQty: '1', fills: 1 });
    expect(h.engine.order('alice', 'BTCPHP', { orderId: buy.order.orderId })[0]).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '100', updateTime: 2001 });
    // Maker at its own limit price, even when the print is far beyond it.
    h.engine.applyPrint('BTCPHP', { price: '110', time: 2002, mode: 'through' });
    expect(h.engine.order('bob', 'BTCPHP', { orderId: sell.order.orderId })[0]).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '102' });
    expect(h.balances.get('alice', 'BTC').free).toBe('101');
    expect(h.balances.get('bob', 'PHP').free).toBe('1000102');
    const trade = touch.events.find((e) => e.kind === 'trade');
    expect(trade).toMatchObject({ external: true, buyerOrderId: buy.order.orderId, sellerOrderId: '', sellerAccountId: null, buyerIsMaker: true, price: '100' });
  });

  it('caps the total at maxQty, best price then time priority', () => {
    const h = harness({ fund: { a: { PHP: '1000' }, b: { PHP: '1000' }, c: { PHP: '1000' } } });
    const a = h.place('a', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const b = h.place('b', { side: 'BUY', type: 'LIMIT', price: '101', quantity: '1' });
    const c = h.place('c', { side: 'BUY', type: 'LIMIT', price: '100', quantity: '1' });
    const r = h.engine.applyPrint('BTCPHP', { price: '99', time: 2000, maxQty: '1.5', mode: 'through' });
    expect(r).toMatchObject({ filledQty: '1.5', fills: 2 });
    const status = (acct: string, id: string) => h.engine.order(acct, 'BTCPHP', { orderId: id })[0];
    expect(status('b', b.order.orderId)).toMatchObject({ status: 'FILLED' });
    expect(status('a', a.order.orderId)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.5' });
    expect(status('c', c.order.orderId)).toMatchObject({ status: 'NEW' });
    expect(h.engine.depth('BTCPHP').bids).toEqual([['100', '1.5']]);
  });

  it('sets the last price and triggers stops, which fill at the print when the book is empty', () => {
    const h = harness();
    h.engine.applyPrint('BTCPHP', { price: '100', time: 1000, mode: 'through' });
    const stop = h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '95', quantity: '1' });
    h.engine.applyPrint('BTCPHP', { price: '94.5', time: 3000, mode: 'through' });
    expect(h.engine.order('alice', 'BTCPHP', { orderId: stop.order.orderId })[0]).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '94.5', updateTime: 3000 });
    expect(h.engine.lastPrice('BTCPHP')).toBe('94.5');
  });

  it('fills triggered stop-markets at stopPrices for their side, rounded against them; stop-limits and the last price keep the print', () => {
    const h = harness();
    h.engine.applyPrint('BTCPHP', { price: '100', time: 1000, mode: 'through' });
    const sl = h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '96', quantity: '1' });
    const tp = h.place('alice', { side: 'BUY', type: 'TAKE_PROFIT', stopPrice: '96', quantity: '1' });
    const sll = h.place('bob', { side: 'SELL', type: 'STOP_LOSS_LIMIT', stopPrice: '96', price: '95.5', quantity: '1', timeInForce: 'GTC' });
    const later = h.place('bob', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '95.5', quantity: '1' });
    h.engine.applyPrint('BTCPHP', { price: '96', time: 2000, mode: 'through', stopPrices: { BUY: '96.961', SELL: '95.049' } });
    const order = (acct: string, id: string) => h.engine.order(acct, 'BTCPHP', { orderId: id })[0];
    expect(order('alice', sl.order.orderId)).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '95.04' });
    expect(order('alice', tp.order.orderId)).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '96.97' });
    expect(order('bob', sll.order.orderId)).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '96' }); // a LIMIT 95.5 at the trigger: taker at the print
    // The slipped fills moved neither the last price nor a stop the print did not reach.
    expect(h.engine.lastPrice('BTCPHP')).toBe('96');
    expect(order('bob', later.order.orderId)).toMatchObject({ status: 'NEW', isWorking: false });
  });
});

describe('stopBetween', () => {
  it('names the first stop a move passes strictly between its ends, in the direction of the move', () => {
    const h = harness();
    expect(h.engine.stopBetween('BTCPHP', '100', '90')).toBeUndefined();
    h.engine.applyPrint('BTCPHP', { price: '100', time: 1000, mode: 'through' });
    h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '96', quantity: '1' });
    h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '98', quantity: '1' });
    h.place('alice', { side: 'BUY', type: 'STOP_LOSS', stopPrice: '105', quantity: '1' });
    h.place('alice', { side: 'SELL', type: 'TAKE_PROFIT', stopPrice: '103', quantity: '1' });
    expect(h.engine.waitingStops('BTCPHP')).toBe(4);
    expect(h.engine.stopBetween('BTCPHP', '100', '90')).toBe('98');
    expect(h.engine.stopBetween('BTCPHP', '98', '90')).toBe('96');
    expect(h.engine.stopBetween('BTCPHP', '96', '90')).toBeUndefined();
    expect(h.engine.stopBetween('BTCPHP', '100', '96')).toBe('98'); // a stop at the end is the end's print
    expect(h.engine.stopBetween('BTCPHP', '99', '110')).toBe('103');
    expect(h.engine.stopBetween('BTCPHP', '103', '110')).toBe('105');
    expect(h.engine.stopBetween('BTCPHP', '104', '105')).toBeUndefined();
    // A rising stop already due at the start (placed since) is passed over: the first print triggers it.
    expect(h.engine.stopBetween('BTCPHP', '104', '110')).toBe('105');
  });
});

describe('placeOrder with externalPrice', () => {
  it('fills a MARKET order as taker at the external price, unlimited size, after the book', () => {
    const h = harness({ fee: { maker: '0.001', taker: '0.002' } });
    h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const r = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '5' }, 2000, { externalPrice: '100.5' });
    expect(r.ok && r.fills.map((f) => [f.price, f.qty, f.commission])).toEqual([
      ['100', '1', '0.002'],
      ['100.5', '4', '0.008'],
    ]);
    expect(r.ok && r.order).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '502' });
    expect(h.engine.lastPrice('BTCPHP')).toBe('100.5');
  });

  it('fills the marketable part of a LIMIT, and only when the external price is within the limit', () => {
    const h = harness();
    const ok = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '101', quantity: '2' }, 2000, { externalPrice: '100' });
    expect(ok.ok && ok.order).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '200' });
    expect(h.balances.get('alice', 'PHP')).toEqual({ free: '999800', locked: '0' });
    const rests = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', price: '101', quantity: '2' }, 2000, { externalPrice: '100' });
    expect(rests.ok && rests.order.status).toBe('NEW');
    const fok = h.engine.placeOrder('bob', { symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'FOK', price: '99', quantity: '50' }, 2000, { externalPrice: '100' });
    expect(fok.ok && fok.order).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '5000' });
  });

  it('rejects a LIMIT_MAKER that the external price would take', () => {
    const h = harness();
    const r = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT_MAKER', price: '101', quantity: '1' }, 2000, { externalPrice: '100' });
    expect(r).toMatchObject({ ok: false, msg: ENGINE_MESSAGE.wouldMatchAndTake });
  });

  it('rounds an off-scale external price against the taker', () => {
    const h = harness();
    const buy = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' }, 2000, { externalPrice: '100.0001' });
    expect(buy.ok && buy.fills[0]?.price).toBe('100.01');
    const sell = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '1' }, 2000, { externalPrice: '100.0099' });
    expect(sell.ok && sell.fills[0]?.price).toBe('100');
  });
});

describe('placeOrder with externalPrice: the book only where it beats the outside liquidity', () => {
  const status = (h: ReturnType<typeof harness>, acct: string, id: string) => {
    const o = h.engine.order(acct, 'BTCPHP', { orderId: id })[0];
    return `${o?.status} ${o?.executedQty}`;
  };
  const fills = (r: ReturnType<ReturnType<typeof harness>['try']>) => (r.ok ? r.fills.map((f) => `${f.qty}@${f.price}`) : r.msg);

  it('fills a MARKET BUY at the external price, not by walking up to an own ask beyond it (no self-trade prevention)', () => {
    const h = harness();
    const ask = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '120', quantity: '1' });
    const r = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '2' }, 2000, { externalPrice: '100' });
    expect(fills(r)).toEqual(['2@100']);
    expect(r.ok && r.order.status).toBe('FILLED');
    expect(status(h, 'alice', ask.order.orderId)).toBe('NEW 0');
    expect(h.events.some((e) => e.kind === 'order' && e.cause === 'STP')).toBe(false);
    // Another account's ask beyond the external price is not reached either: the outside market is better.
    const bobAsk = h.place('bob', { side: 'SELL', type: 'LIMIT', price: '110', quantity: '1' });
    expect(fills(h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '115', quantity: '1' }, 2000, { externalPrice: '100' }))).toEqual(['1@100']);
    expect(status(h, 'bob', bobAsk.order.orderId)).toBe('NEW 0');
  });

  it('without an external price (the sandbox) the book alone is walked, as before: the own ask is met and STP cancels both', () => {
    const h = harness();
    const ask = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '120', quantity: '1' });
    const r = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '2' }, 2000);
    expect(r.ok && r.order.status).toBe('CANCELED');
    expect(status(h, 'alice', ask.order.orderId)).toBe('CANCELED 0');
  });

  it('fills a triggered STOP_LOSS SELL at its stop print, not against an own bid below it', () => {
    const h = harness();
    h.engine.applyPrint('BTCPHP', { price: '100', time: 1000, mode: 'through' });
    const bid = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '90', quantity: '1' });
    const sl = h.place('alice', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '96', quantity: '1' });
    h.engine.applyPrint('BTCPHP', { price: '96', time: 2000, mode: 'through' });
    const o = h.engine.order('alice', 'BTCPHP', { orderId: sl.order.orderId })[0];
    expect(o).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '96' });
    expect(status(h, 'alice', bid.order.orderId)).toBe('NEW 0');
  });

  it('still meets an own order strictly better than the external price first: STP by the taker\'s stpFlag', () => {
    const setup = () => {
      const h = harness();
      const bid = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '101', quantity: '1' });
      return { h, bid };
    };
    const sell = (h: ReturnType<typeof harness>, stpFlag: 'CB' | 'CO' | 'CN') => h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'SELL', type: 'MARKET', quantity: '2', stpFlag }, 2000, { externalPrice: '100' });
    const cb = setup();
    const rcb = sell(cb.h, 'CB');
    expect([rcb.ok && rcb.order.status, status(cb.h, 'alice', cb.bid.order.orderId)]).toEqual(['CANCELED', 'CANCELED 0']);
    const co = setup();
    const rco = sell(co.h, 'CO');
    expect(fills(rco)).toEqual(['2@100']); // the own bid cancelled, then the outside liquidity
    expect(status(co.h, 'alice', co.bid.order.orderId)).toBe('CANCELED 0');
    const cn = setup();
    const rcn = sell(cn.h, 'CN');
    expect([rcn.ok && rcn.order.status, status(cn.h, 'alice', cn.bid.order.orderId)]).toEqual(['CANCELED', 'NEW 0']);
    // Another account's bid strictly better fills first, as maker, then the outside liquidity.
    const h = harness();
    h.place('bob', { side: 'BUY', type: 'LIMIT', price: '101', quantity: '1' });
    expect(fills(sell(h, 'CB'))).toEqual(['1@101', '1@100']);
  });

  it('prefers the outside liquidity at a tie: a book order at the external price is not taken', () => {
    const h = harness();
    const own = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    const other = h.place('bob', { side: 'SELL', type: 'LIMIT', price: '100', quantity: '1' });
    expect(fills(h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '3' }, 2000, { externalPrice: '100' }))).toEqual(['3@100']);
    expect([status(h, 'alice', own.order.orderId), status(h, 'bob', other.order.orderId)]).toEqual(['NEW 0', 'NEW 0']);
    expect(h.engine.depth('BTCPHP').asks).toEqual([['100', '2']]);
    // A FOK is fillable from the outside liquidity alone: the own order at the tie does not end its walk.
    const fok = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '100', quantity: '5' }, 2000, { externalPrice: '100' });
    expect(fok.ok && fok.order).toMatchObject({ status: 'FILLED', executedQty: '5' });
  });

  it('never walks into own orders beyond the external price when the cap runs out: a GTC LIMIT rests, a MARKET expires', () => {
    const h = harness();
    const ask = h.place('alice', { side: 'SELL', type: 'LIMIT', price: '102', quantity: '1' });
    h.engine.capExternal('BTCPHP', '1');
    const lim = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '105', quantity: '3' }, 2000, { externalPrice: '100' });
    expect(lim.ok && lim.order).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '1' });
    const mkt = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '1' }, 2000, { externalPrice: '100' });
    expect(mkt.ok && mkt.order).toMatchObject({ status: 'EXPIRED', executedQty: '0' });
    expect(status(h, 'alice', ask.order.orderId)).toBe('NEW 0');
    expect(h.events.some((e) => e.kind === 'order' && e.cause === 'STP')).toBe(false);
  });

  it('checks a funds-limited MARKET BUY against the first price it takes: the external price, not an own ask beyond it', () => {
    const h = harness({ fund: { alice: { PHP: '0.11', BTC: '1' } } });
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '120', quantity: '0.01' });
    const r = h.engine.placeOrder('alice', { symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', quantity: '0.01' }, 2000, { externalPrice: '100' });
    expect(fills(r)).toEqual(['0.001@100']); // one step is all 0.11 pays for at 100 (not at 120)
  });
});

describe('capExternal', () => {
  it('caps what outside liquidity gives, all fills together, until set again: a GTC LIMIT rests the rest, MARKET and IOC expire it, FOK fills nothing', () => {
    const h = harness();
    h.engine.capExternal('BTCPHP', '2.5');
    const ext = { externalPrice: '100' };
    const place = (acct: string, req: Omit<NewOrderRequest, 'symbol'>) => {
      const r = h.engine.placeOrder(acct, { symbol: 'BTCPHP', ...req }, 2000, ext);
      return r.ok ? `${r.order.status} ${r.order.executedQty}` : r.msg;
    };
    expect(place('alice', { side: 'BUY', type: 'MARKET', quantity: '1' })).toBe('FILLED 1');
    expect(place('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '101', quantity: '2' })).toBe('EXPIRED 0'); // 1.5 left
    expect(place('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '101', quantity: '2' })).toBe('PARTIALLY_FILLED 1.5');
    expect(h.engine.depth('BTCPHP').bids).toEqual([['101', '0.5']]);
    expect(place('alice', { side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '101', quantity: '1' })).toBe('EXPIRED 0');
    // The book is not outside liquidity: bob takes alice's bid, then finds nothing outside.
    expect(place('bob', { side: 'SELL', type: 'MARKET', quantity: '1' })).toBe('EXPIRED 0.5');
    h.engine.capExternal('BTCPHP', undefined);
    expect(place('bob', { side: 'SELL', type: 'MARKET', quantity: '7' })).toBe('FILLED 7');
  });

  it('counts the resting orders a print fills and the stops it triggers against the same cap', () => {
    const h = harness();
    h.engine.applyPrint('BTCPHP', { price: '100', time: 1000, mode: 'through' });
    const bid = h.place('alice', { side: 'BUY', type: 'LIMIT', price: '97', quantity: '1' });
    const sl = h.place('bob', { side: 'SELL', type: 'STOP_LOSS', stopPrice: '96.5', quantity: '1' });
    h.engine.capExternal('BTCPHP', '1.25');
    expect(h.engine.applyPrint('BTCPHP', { price: '96', time: 2000, mode: 'through', maxQty: '5' })).toMatchObject({ filledQty: '1' });
    const order = (acct: string, id: string) => h.engine.order(acct, 'BTCPHP', { orderId: id })[0];
    expect(order('alice', bid.order.orderId)).toMatchObject({ status: 'FILLED' });
    expect(order('bob', sl.order.orderId)).toMatchObject({ status: 'EXPIRED', executedQty: '0.25' }); // a MARKET once triggered: the rest expires
  });
});

describe('externalPriceInt', () => {
  /** The price int by decimal.js, rounded as asked; undefined where externalPriceInt throws. */
  function reference(text: string, pd: number, mode: 'up' | 'down' | 'nearest'): number | undefined {
    let d;
    try {
      d = dec(text).times(`1e${pd}`);
    } catch {
      return undefined;
    }
    const r = mode === 'up' ? d.ceil() : mode === 'down' ? d.floor() : d.round();
    return d.lte(0) || r.lte(0) || r.gt(Number.MAX_SAFE_INTEGER) ? undefined : Number(r.toFixed());
  }

  it('answers every call of any sequence as parsing afresh would (its one-entry cache of the last text never leaks)', () => {
    const text = fc.oneof(fc.constantFrom('100', '100.5', '100.50', '100.005', '0.001', '0', '-1', 'abc', '1e2', '99.999'), fc.integer({ min: 1, max: 10 ** 7 }).map((n) => String(n / 1000)));
    const call = fc.record({ text, pd: fc.integer({ min: 0, max: 3 }), mode: fc.constantFrom('up' as const, 'down' as const, 'nearest' as const) });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 30 }), (calls) => {
        for (const { text: t, pd, mode } of calls) {
          const spec = { symbol: 'X', pd } as SymbolSpec;
          const want = reference(t, pd, mode);
          if (want === undefined) expect(() => externalPriceInt(spec, t, mode)).toThrow(RangeError);
          else expect(externalPriceInt(spec, t, mode)).toBe(want);
        }
      }),
      { numRuns: 500 },
    );
  });
});
