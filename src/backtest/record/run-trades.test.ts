import { describe, expect, it } from 'vitest';
import { D } from '../../core/money/decimal.ts';
import type { FillOut } from '../../core/orders/types.ts';
import { RoundTripBook } from '../../core/portfolio/round-trips.ts';
import { openTradeOf, reportedPnl, tripsOf } from './run-trades.ts';

let n = 0;
const f = (side: 'BUY' | 'SELL', price: string, qty: string, commission: string, time: number): FillOut => ({
  symbol: 'BTCPHP',
  clientOrderId: `c${++n}`,
  orderId: String(n),
  tradeId: String(n),
  side,
  price,
  qty,
  quoteQty: new D(price).times(qty).toFixed(),
  commission,
  commissionAsset: side === 'BUY' ? 'BTC' : 'PHP',
  isMaker: false,
  orderStatus: 'FILLED',
  cumulativeQty: qty,
  time,
});

describe("tripsOf: a book's closed trips as RoundTrips", () => {
  it('closes a trip when the position is back under the minimum quantity, with every fee in the pnl', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.onFill(f('BUY', '100', '1', '0.001', 1000), 1);
    b.onFill(f('SELL', '110', '0.999', '0.10989', 5000), 5);
    expect(tripsOf(b)).toEqual([
      {
        symbol: 'BTCPHP',
        direction: 'LONG',
        entryTime: 1000,
        exitTime: 5000,
        entryPrice: '100',
        exitPrice: '110',
        qty: '1',
        pnl: '9.78011', // 0.999 * 110 - 0.10989 - 100
        returnRatio: 0.0978011,
        fees: '0.20989', // 0.001 BTC at 100 + 0.10989 PHP
        barsHeld: 4,
      },
    ]);
  });

  it('matches costs first in, first out across scale-ins and partial exits', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.onFill(f('BUY', '100', '1', '0', 1), 1);
    b.onFill(f('BUY', '200', '1', '0', 2), 2);
    b.onFill(f('SELL', '150', '1', '0', 3), 3); // closes the 100 lot: still holding 1
    expect(tripsOf(b)).toEqual([]);
    b.onFill(f('SELL', '150', '1', '0', 4), 4);
    expect(tripsOf(b)[0]).toMatchObject({ entryPrice: '150', exitPrice: '150', qty: '2', pnl: '0', barsHeld: 3 });
  });

  it('counts base held at the start as a lot bought at the first open', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.seed(new D(2), new D(100), 0);
    b.onFill(f('SELL', '120', '2', '0', 10), 3);
    expect(tripsOf(b)[0]).toMatchObject({ entryTime: 0, entryPrice: '100', qty: '2', pnl: '40', barsHeld: 3 });
  });

  it('a closed trip reads as the plain object it stands for: keys in order, JSON, spreads and assignment', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.onFill(f('BUY', '100', '3', '0', 1), 1);
    b.onFill(f('SELL', '110', '3', '0', 2), 2);
    const t = tripsOf(b)[0]!;
    const plain = { symbol: 'BTCPHP', direction: 'LONG', entryTime: 1, exitTime: 2, entryPrice: '100', exitPrice: '110', qty: '3', pnl: '30', returnRatio: 0.1, fees: '0', barsHeld: 1 };
    expect(Object.keys(t)).toEqual(Object.keys(plain));
    expect(JSON.stringify(t)).toBe(JSON.stringify(plain));
    expect({ ...t }).toEqual(plain);
    expect(structuredClone(t)).toEqual(plain);
    t.qty = '4';
    t.pnl = '1';
    expect([t.qty, t.pnl, t.exitPrice]).toEqual(['4', '1', '110']);
  });

  it('keeps closed trips as exact records and prints them on first read; the reported PnL is the printed one', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.onFill(f('BUY', '100', '3', '0', 1), 1);
    b.onFill(f('SELL', '110.0000000000004', '3', '0', 2), 2);
    expect(b.records).toHaveLength(1);
    const r = b.records[0]!;
    expect(r.pnl.toString()).toBe('30.0000000000012');
    expect(reportedPnl(r).toString()).toBe('30.000000000001');
    expect(tripsOf(b)[0]?.pnl).toBe('30.000000000001');
    expect(tripsOf(b)).toBe(tripsOf(b)); // made once
    b.onFill(f('BUY', '100', '1', '0', 3), 3);
    b.onFill(f('SELL', '90', '1', '0', 4), 4);
    expect(tripsOf(b).map((t) => t.pnl)).toEqual(['30.000000000001', '-10']); // a trip closed later is added
  });
});

describe('openTradeOf: the position a run ends holding', () => {
  it('values the lots still held at the last close: cost FIFO, unrealized before the exit fee', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.onFill(f('BUY', '100', '1', '0', 1000), 1);
    b.onFill(f('BUY', '200', '1', '0.001', 2000), 2);
    b.onFill(f('SELL', '150', '1', '0.15', 3000), 3); // takes the 100 lot: 0.999 of the 200 lot is left
    expect(b.records).toHaveLength(0);
    expect(openTradeOf(b, 'BTCPHP', '210', 9)).toEqual({
      symbol: 'BTCPHP',
      direction: 'LONG',
      entryTime: 1000,
      qty: '0.999',
      cost: '200',
      entryPrice: '200.2002002002', // 200 / 0.999, 12 places
      markPrice: '210',
      value: '209.79',
      unrealizedPnl: '9.79',
      realizedPnl: '49.85', // the sell: 150 - 0.15 fee, less the 100 lot it took
      fees: '0.35', // 0.001 BTC at 200 + 0.15 PHP
      barsHeld: 8,
    });
  });

  it('is undefined when the run ended flat or holding only dust under the minimum quantity', () => {
    const flat = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    expect(openTradeOf(flat, 'BTCPHP', '100', 0)).toBeUndefined();
    flat.onFill(f('BUY', '100', '1', '0.001', 1), 1);
    flat.onFill(f('SELL', '110', '0.9985', '0', 2), 2); // 0.0005 BTC of dust left
    expect(flat.records).toHaveLength(1);
    expect(openTradeOf(flat, 'BTCPHP', '120', 3)).toBeUndefined();
  });

  it('counts base held at the start from the first open', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.seed(new D('2'), new D('50'), 500);
    expect(openTradeOf(b, 'BTCPHP', '55', 10)).toMatchObject({ entryTime: 500, qty: '2', cost: '100', entryPrice: '50', value: '110', unrealizedPnl: '10', realizedPnl: '0', fees: '0', barsHeld: 10 });
  });

  it('a grid trading around base held at the start realizes profit without ever going flat: trades, realized and unrealized add up', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.seed(new D('2'), new D('100'), 0); // a lot of 2 BTC at 100
    b.onFill({ ...f('SELL', '110', '0.5', '0.055', 1), commissionAsset: 'PHP' }, 1); // 54.945 for 0.5 of the 100 lot
    b.onFill({ ...f('BUY', '105', '0.5', '0.0005', 2), commissionAsset: 'BTC' }, 2); // 0.4995 BTC for 52.5
    b.onFill({ ...f('SELL', '112', '0.5', '0.056', 3), commissionAsset: 'PHP' }, 3); // 55.944 for 0.5 of the 100 lot
    expect(b.records).toHaveLength(0);
    const open = openTradeOf(b, 'BTCPHP', '108', 4);
    expect(open).toMatchObject({ qty: '1.4995', cost: '152.5', realizedPnl: '10.889', unrealizedPnl: '9.446' });
    // Start 200 + 0 PHP; end 1.4995 BTC at 108 + (54.945 - 52.5 + 55.944) PHP = 161.946 + 58.389.
    const net = new D('161.946').plus('58.389').minus(200);
    expect(new D(open!.realizedPnl).plus(open!.unrealizedPnl).toFixed()).toBe(net.toFixed());
  });
});

describe('tripsOf: order tags', () => {
  const tagged = (fill: FillOut, tag: string): FillOut => ({ ...fill, tag });
  it('a trip carries the tag of the order that opened it and of the one that closed it; untagged orders leave them out', () => {
    const b = new RoundTripBook('BTCPHP', 'BTC', 'PHP', new D('0.001'));
    b.onFill(tagged(f('BUY', '100', '1', '0', 1), 'breakout'), 1);
    b.onFill(tagged(f('BUY', '101', '1', '0', 2), 'add'), 2);
    b.onFill(tagged(f('SELL', '105', '1', '0', 3), 'scale-out'), 3);
    b.onFill(tagged(f('SELL', '99', '1', '0', 4), 'stop'), 4);
    b.onFill(f('BUY', '100', '1', '0', 5), 5);
    b.onFill(f('SELL', '100', '1', '0', 6), 6);
    b.onFill(tagged(f('BUY', '100', '1', '0', 7), 'late'), 7);
    expect(tripsOf(b).map((t) => [t.entryTag, t.exitTag])).toEqual([
      ['breakout', 'stop'],
      [undefined, undefined],
    ]);
    expect(Object.keys(tripsOf(b)[1]!)).not.toContain('entryTag');
    expect(openTradeOf(b, 'BTCPHP', '100', 8)?.entryTag).toBe('late');
  });
});
