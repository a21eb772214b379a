import { describe, expect, it } from 'vitest';
import { instrument } from '../../core/orders/test-support.ts';
import type { VenueEvent } from '../../ports/venue.ts';
import { SIM_ACCOUNT, SimVenue } from './sim-venue.ts';

const inst = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
  ],
});

function venue() {
  const v = new SimVenue({ instruments: [inst], fees: { maker: '0', taker: '0' }, balances: { PHP: '1000', BTC: '1' } });
  const batches: VenueEvent[][] = [];
  v.connect((b) => batches.push([...b]));
  return { v, batches, kinds: () => batches.map((b) => b.map((e) => (e.kind === 'order' ? `order ${e.status}` : e.kind)).join(',')) };
}

describe('SimVenue', () => {
  it('queues commands until a flush, then runs them at that time and price, one event batch per operation', () => {
    const { v, kinds, batches } = venue();
    v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'a', side: 'BUY', type: 'MARKET', quantity: '1' });
    expect(batches).toEqual([]);
    expect([v.queued, v.busy()]).toEqual([1, true]);
    v.flush('BTCPHP', 5000, '100');
    expect(kinds()).toEqual(['order NEW,fill,balance,balance']);
    expect(batches[0]![1]).toMatchObject({ kind: 'fill', price: '100', qty: '1', time: 5000, orderStatus: 'FILLED' });
    expect(v.balances.get(SIM_ACCOUNT, 'PHP')).toEqual({ free: '900', locked: '0' });
    expect(v.busy()).toBe(false);
  });

  it('gives the engine the last idle price before the next command (a stop that would trigger is refused)', () => {
    const { v, batches } = venue();
    v.idle('BTCPHP', 1000, '90');
    v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 's', side: 'SELL', type: 'STOP_LOSS', quantity: '1', stopPrice: '95' });
    v.flush('BTCPHP', 2000, '90');
    expect(batches.at(-1)).toEqual([{ kind: 'rejected', symbol: 'BTCPHP', clientOrderId: 's', code: -2010, reason: 'Order would trigger immediately.', time: 2000 }]);
    expect(v.engine.lastPrice('BTCPHP')).toBe('90');
  });

  it('fills resting orders by prints, through or touch, capped', () => {
    const { v, batches } = venue();
    v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'b', side: 'BUY', type: 'LIMIT', quantity: '2', price: '95' });
    v.flush('BTCPHP', 1000, '100');
    expect(v.print('BTCPHP', 2000, '95')).toBe('0'); // through: 95 does not trade through 95
    expect(v.print('BTCPHP', 3000, '95', '0.5', 'touch')).toBe('0.5');
    expect(v.print('BTCPHP', 4000, '94')).toBe('1.5');
    expect(batches.at(-1)?.[0]).toMatchObject({ kind: 'fill', price: '95', qty: '1.5', isMaker: true, orderStatus: 'FILLED' });
  });

  it('slips a triggered stop-market as a MARKET order, only its own fill: the print stays the last price', () => {
    const batches: VenueEvent[][] = [];
    const v = new SimVenue({ instruments: [inst], fees: { maker: '0', taker: '0' }, balances: { PHP: '1000', BTC: '1' }, slippageBps: 100 });
    v.connect((b) => batches.push([...b]));
    v.print('BTCPHP', 1000, '98');
    v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 's', side: 'SELL', type: 'STOP_LOSS', quantity: '0.5', stopPrice: '96' });
    v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'b', side: 'BUY', type: 'STOP_LOSS', quantity: '0.5', stopPrice: '99' });
    v.flush('BTCPHP', 2000, '98');
    v.print('BTCPHP', 3000, '99');
    v.print('BTCPHP', 4000, '96');
    const fills = batches.flat().filter((e) => e.kind === 'fill');
    expect(fills.map((e) => e.kind === 'fill' && `${e.clientOrderId} ${e.price}`)).toEqual(['b 99.99', 's 95.04']);
    expect(v.engine.lastPrice('BTCPHP')).toBe('96');
  });

  it('caps all fills from outside liquidity until capFills is called again', () => {
    const { v, batches } = venue();
    v.capFills('BTCPHP', '0.75');
    v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'm', side: 'BUY', type: 'MARKET', quantity: '0.5' });
    v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'l', side: 'BUY', type: 'LIMIT', quantity: '1', price: '101' });
    v.flush('BTCPHP', 1000, '100');
    expect(v.print('BTCPHP', 2000, '99')).toBe('0');
    v.capFills('BTCPHP', undefined);
    expect(v.print('BTCPHP', 3000, '99')).toBe('0.75');
    const fills = batches.flat().filter((e) => e.kind === 'fill');
    expect(fills.map((e) => e.kind === 'fill' && `${e.clientOrderId} ${e.qty}@${e.price}`)).toEqual(['m 0.5@100', 'l 0.25@100', 'l 0.75@101']);
  });

  describe('takes the outside liquidity before own orders that are not better than it', () => {
    const orders = (batches: VenueEvent[][]) => batches.flat().flatMap((e) => (e.kind === 'order' ? [`${e.clientOrderId} ${e.status}${e.reason ? ` ${e.reason}` : ''}`] : e.kind === 'fill' ? [`${e.clientOrderId} fill ${e.qty}@${e.price}`] : []));

    it('a MARKET BUY fills at the market, not against the own SELL LIMIT resting above it', () => {
      const { v, batches } = venue();
      v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'ask', side: 'SELL', type: 'LIMIT', quantity: '0.5', price: '120' });
      v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'm', side: 'BUY', type: 'MARKET', quantity: '1' });
      v.flush('BTCPHP', 1000, '100');
      expect(orders(batches)).toEqual(['ask NEW', 'm NEW', 'm fill 1@100']);
      expect(v.engine.openOrders(SIM_ACCOUNT).map((o) => o.clientOrderId)).toEqual(['ask']);
    });

    it('a triggered STOP_LOSS SELL fills at its stop, not against the own BUY LIMIT below it', () => {
      const { v, batches } = venue();
      v.print('BTCPHP', 500, '100');
      v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'bid', side: 'BUY', type: 'LIMIT', quantity: '1', price: '90' });
      v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'sl', side: 'SELL', type: 'STOP_LOSS', quantity: '1', stopPrice: '96' });
      v.flush('BTCPHP', 1000, '100');
      v.print('BTCPHP', 2000, '96');
      expect(orders(batches).slice(2)).toEqual(['sl NEW', 'sl fill 1@96']);
      expect(v.engine.openOrders(SIM_ACCOUNT).map((o) => o.clientOrderId)).toEqual(['bid']);
    });

    it('an own order strictly better than the price it takes outside is met first: self-trade prevention (CB) cancels both', () => {
      // A bid the cap kept from filling stays above the market ...
      const { v, batches } = venue();
      v.capFills('BTCPHP', '0');
      v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'bid', side: 'BUY', type: 'LIMIT', quantity: '1', price: '101' });
      v.flush('BTCPHP', 1000, '100');
      v.capFills('BTCPHP', undefined);
      v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'm', side: 'SELL', type: 'MARKET', quantity: '0.5' });
      v.flush('BTCPHP', 2000, '100');
      expect(orders(batches).slice(1)).toEqual(['m NEW', 'bid CANCELED self-trade prevention', 'm CANCELED self-trade prevention']);
      // ... and so is one between the market and a MARKET order's slipped price (the slippage walks past it).
      const batches2: VenueEvent[][] = [];
      const w = new SimVenue({ instruments: [inst], fees: { maker: '0', taker: '0' }, balances: { PHP: '1000', BTC: '1' }, slippageBps: 100 });
      w.connect((b) => batches2.push([...b]));
      w.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'bid', side: 'BUY', type: 'LIMIT', quantity: '1', price: '99.5' });
      w.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'm', side: 'SELL', type: 'MARKET', quantity: '0.5' });
      w.flush('BTCPHP', 1000, '100');
      expect(orders(batches2)).toEqual(['bid NEW', 'm NEW', 'bid CANCELED self-trade prevention', 'm CANCELED self-trade prevention']);
    });

    it('at a tie the outside liquidity comes first: an own bid at the market price stays', () => {
      const { v, batches } = venue();
      v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'bid', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' });
      v.flush('BTCPHP', 1000, '101');
      expect(v.print('BTCPHP', 1500, '100')).toBe('0'); // 'through': the print at its limit does not fill it
      v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'm', side: 'SELL', type: 'MARKET', quantity: '0.5' });
      v.flush('BTCPHP', 2000, '100');
      expect(orders(batches)).toEqual(['bid NEW', 'm NEW', 'm fill 0.5@100']);
      expect(v.engine.openOrders(SIM_ACCOUNT).map((o) => o.clientOrderId)).toEqual(['bid']);
    });
  });

  it('runs cancelReplace as cancel then place; a failed cancel places nothing', () => {
    const { v, batches } = venue();
    v.send({ kind: 'cancelReplace', symbol: 'BTCPHP', cancelClientOrderId: 'nope', order: { kind: 'place', symbol: 'BTCPHP', clientOrderId: 'n', side: 'BUY', type: 'LIMIT', quantity: '1', price: '90' } });
    v.flush('BTCPHP', 1000, '100');
    expect(batches.map((b) => b.map((e) => e.kind))).toEqual([['cancelRejected'], ['rejected']]);
    expect(batches[1]![0]).toMatchObject({ clientOrderId: 'n', code: -1132, reason: 'Order cancel-replace failed. (cancel: Unknown order sent.)' });
    expect(v.engine.openOrders(SIM_ACCOUNT)).toEqual([]);
  });

  it('runs MARKET orders with no market price as the engine does: nothing to fill, expired', () => {
    const { v, batches } = venue();
    v.send({ kind: 'place', symbol: 'BTCPHP', clientOrderId: 'm', side: 'BUY', type: 'MARKET', quantity: '1' });
    v.flush('BTCPHP', 1000, undefined);
    expect(batches[0]?.find((e) => e.kind === 'order' && e.status === 'EXPIRED')).toBeDefined();
  });
});
