/** The REST answers map to the stream's event shapes (from-new-order.ts, from-order.ts, from-account-trade.ts, from-account.ts). */
import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import type { Order, OrderFull } from '../../exchange/codecs/order.ts';
import type { PlaceCommand, VenueEvent } from '../../ports/venue.ts';
import { TestVenue } from '../resync/test-venue.ts';
import { fromAccount } from './from-account.ts';
import { fromAccountTrade } from './from-account-trade.ts';
import { fromExecutionReport } from './from-execution-report.ts';
import { fromNewOrderResponse } from './from-new-order.ts';
import { fromCanceledOrder, fromOrder } from './from-order.ts';
import { VenueMappingError } from './mapping-error.ts';

const ACK = { symbol: 'BTCPHP', orderId: '1375445991893797391', clientOrderId: 'hy0k3x9zqbid-1', transactTime: 1538323200012 };
const RESULT = { ...ACK, price: '3425000', origQty: '0.002', executedQty: '0', cummulativeQuoteQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', stopPrice: '0', origQuoteOrderQty: '0' };
const FULL: OrderFull = {
  ...RESULT,
  executedQty: '0.002',
  cummulativeQuoteQty: '6850.1',
  status: 'FILLED',
  fills: [
    { price: '3425000', qty: '0.0015', commission: '0.0000015', commissionAsset: 'BTC', tradeId: '9007199254740993' },
    { price: '3425200', qty: '0.0005', commission: '0.0000005', commissionAsset: 'BTC', tradeId: '9007199254740994' },
  ],
};
const limitBuy = { side: 'BUY', type: 'LIMIT' } as const;
const brief = (es: readonly VenueEvent[]) => es.map((e) => (e.kind === 'fill' ? `fill ${e.tradeId} ${e.qty} cum ${e.cumulativeQty}/${e.cumulativeQuoteQty} ${e.orderStatus}` : e.kind === 'order' ? `order ${e.status} ${e.executedQty} working=${e.working}` : e.kind));

describe('fromNewOrderResponse', () => {
  it('ACK: accepted, nothing executed (a stop order not yet working)', () => {
    expect(fromNewOrderResponse(ACK, limitBuy)).toEqual([{ kind: 'order', symbol: 'BTCPHP', clientOrderId: 'hy0k3x9zqbid-1', orderId: '1375445991893797391', status: 'NEW', executedQty: '0', cumulativeQuoteQty: '0', working: true, time: 1538323200012 }]);
    expect(fromNewOrderResponse(ACK, { side: 'SELL', type: 'STOP_LOSS_LIMIT' })[0]).toMatchObject({ working: false });
  });

  it('RESULT: the order as it stands (its trades come from the stream or myTrades)', () => {
    expect(brief(fromNewOrderResponse({ ...RESULT, status: 'FILLED', executedQty: '0.002', cummulativeQuoteQty: '6850' }, limitBuy))).toEqual(['order FILLED 0.002 working=true']);
    expect(() => fromNewOrderResponse({ ...RESULT, status: 'PENDING' }, limitBuy)).toThrow(new VenueMappingError('newOrder', 'status', '"PENDING" is not an order status of spec 3.1'));
  });

  it('FULL: a taker fill per entry with the cumulative progress; the last one FILLED with the venue own quote text', () => {
    const out = fromNewOrderResponse(FULL, limitBuy);
    expect(brief(out)).toEqual(['fill 9007199254740993 0.0015 cum 0.0015/5137.5 PARTIALLY_FILLED', 'fill 9007199254740994 0.0005 cum 0.002/6850.1 FILLED']);
    expect(out[0]).toMatchObject({ side: 'BUY', isMaker: false, quoteQty: '5137.5', commission: '0.0000015', commissionAsset: 'BTC', time: 1538323200012 });
  });

  it('FULL of an IOC that expired part-filled: the fills, then the end; no fills at all: the order event alone', () => {
    const ioc = { ...FULL, status: 'EXPIRED', executedQty: '0.0015', cummulativeQuoteQty: '5137.5', fills: FULL.fills.slice(0, 1) };
    expect(brief(fromNewOrderResponse(ioc, limitBuy))).toEqual(['fill 9007199254740993 0.0015 cum 0.0015/5137.5 PARTIALLY_FILLED', 'order EXPIRED 0.0015 working=true']);
    expect(brief(fromNewOrderResponse({ ...FULL, status: 'NEW', executedQty: '0', cummulativeQuoteQty: '0', fills: [] }, limitBuy))).toEqual(['order NEW 0 working=true']);
    expect(() => fromNewOrderResponse({ ...FULL, fills: [{ ...FULL.fills[0]!, qty: '0' }] }, limitBuy)).toThrow('newOrder.fills[0].qty: 0 is not a positive quantity');
  });

  it('the FULL answer and the stream say the same fills (the order manager cannot tell which road brought them)', () => {
    const venue = new TestVenue({ PHP: '1000', BTC: '1' });
    const cmd: PlaceCommand = { kind: 'place', symbol: 'BTCPHP', clientOrderId: 'hyabcdefgx-1', side: 'BUY', type: 'LIMIT', quantity: '0.05', price: '99.5' };
    const full = venue.place(cmd, new D('0.03'), 'FULL');
    const rest = fromNewOrderResponse(full, cmd).filter((e) => e.kind === 'fill');
    const stream = venue.stream.flatMap((i) => (i.kind === 'report' ? fromExecutionReport(i.report) : [])).filter((e) => e.kind === 'fill');
    const noTime = (e: VenueEvent) => ({ ...e, time: 0 });
    expect(rest.map(noTime)).toEqual(stream.map(noTime));
    expect(rest).toHaveLength(1);
  });
});

describe('order answers, myTrades rows, account', () => {
  const order: Order = { ...RESULT, status: 'PARTIALLY_CANCELED', executedQty: '0.001', cummulativeQuoteQty: '3425', time: 1538323200012, updateTime: 1538323260311, isWorking: false };

  it('an order answer: its status now, at its update time', () => {
    expect(fromOrder(order)).toEqual({ kind: 'order', symbol: 'BTCPHP', clientOrderId: 'hy0k3x9zqbid-1', orderId: '1375445991893797391', status: 'PARTIALLY_CANCELED', executedQty: '0.001', cumulativeQuoteQty: '3425', working: false, time: 1538323260311, reason: 'self-trade prevention' });
    expect(() => fromOrder({ ...order, status: 'REJECTED' }, 'openOrders')).toThrow('openOrders.status: "REJECTED" is not an order status of spec 3.1');
  });

  it('a cancel answer: whichever time it carries, else now', () => {
    const { time: _t, updateTime: _u, isWorking: _w, transactTime: _x, ...bare } = order;
    expect(fromCanceledOrder({ ...bare, status: 'CANCELED', transactTime: 5 }, 9)).toMatchObject({ status: 'CANCELED', time: 5, working: true });
    expect(fromCanceledOrder({ ...bare, status: 'CANCELED' }, 9).time).toBe(9);
  });

  it('a myTrades row: the fill with the progress the caller computed, side from isBuyer', () => {
    const row = { symbol: 'BTCPHP', id: '1375445991893797400', orderId: '1375445991893797391', price: '3425000', qty: '0.0003', quoteQty: '1027.5', commission: '1.2', commissionAsset: 'PHP', time: 7, isBuyer: false, isMaker: true, isBestMatch: true };
    expect(fromAccountTrade(row, { clientOrderId: 'c', orderStatus: 'PARTIALLY_FILLED', cumulativeQty: '0.0013', cumulativeQuoteQty: '4452.5' })).toEqual({
      kind: 'fill',
      symbol: 'BTCPHP',
      clientOrderId: 'c',
      orderId: '1375445991893797391',
      tradeId: '1375445991893797400',
      side: 'SELL',
      price: '3425000',
      qty: '0.0003',
      quoteQty: '1027.5',
      commission: '1.2',
      commissionAsset: 'PHP',
      isMaker: true,
      orderStatus: 'PARTIALLY_FILLED',
      cumulativeQty: '0.0013',
      cumulativeQuoteQty: '4452.5',
      time: 7,
    });
  });

  it('account information: a balance per asset at its update time', () => {
    expect(fromAccount({ updateTime: 42, balances: [{ asset: 'PHP', free: '1.5', locked: '0' }] })).toEqual([{ kind: 'balance', asset: 'PHP', free: '1.5', locked: '0', time: 42 }]);
  });
});
