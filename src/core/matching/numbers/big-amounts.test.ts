/**
 * Amounts whose scaled products pass 2^53: the engine's number path hands them to bigint units
 * (amounts.ts), and every balance must still come out exact. 8 price and 8 quantity decimals,
 * 60,000 * 500: price int 6e12 times 5e10 lots is 3e23 on the notional scale.
 */
import { describe, expect, it } from 'vitest';
import { D } from '../../money/decimal.ts';
import { harness, instrument } from '../test-support.ts';

const fine = instrument({
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.00000001', maxPrice: '10000000', tickSize: '0.00000001' },
    { filterType: 'LOT_SIZE', minQty: '0.00000001', maxQty: '100000', stepSize: '0.00000001' },
  ],
});

describe('amounts beyond 2^53 on the scaled grid', () => {
  it('settle exactly, fees included, and balances are conserved', () => {
    const fund = { alice: { BTC: '1000', PHP: '100000000' }, bob: { BTC: '1000', PHP: '100000000' } };
    const h = harness({ instrument: fine, fund, fee: { maker: '0.00075', taker: '0.001' } });
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '60000.12345678', quantity: '500.12345678' });
    expect(h.balances.get('alice', 'BTC')).toEqual({ free: '499.87654322', locked: '500.12345678' });
    // A BUY at a higher limit locks limit * qty and gets the improvement back when it fills at the maker's price.
    const r = h.place('bob', { side: 'BUY', type: 'LIMIT', price: '60001.5', quantity: '500.12345678' });
    expect(r.order.status).toBe('FILLED');
    const qty = new D('500.12345678');
    const notional = new D('60000.12345678').times(qty);
    const buyerFee = qty.times('0.001');
    // Commissions are floored to the 1e-18 grid of an amount (21 decimals here).
    const sellerFee = notional.times('0.00075').toDecimalPlaces(18, D.ROUND_DOWN);
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: new D(100000000).minus(notional).toFixed(), locked: '0' });
    expect(h.balances.get('bob', 'BTC')).toEqual({ free: new D(1000).plus(qty).minus(buyerFee).toFixed(), locked: '0' });
    expect(h.balances.get('alice', 'PHP')).toEqual({ free: new D(100000000).plus(notional).minus(sellerFee).toFixed(), locked: '0' });
    expect(h.balances.get('alice', 'BTC')).toEqual({ free: '499.87654322', locked: '0' });
    expect(h.balances.total('BTC')).toBe('2000');
    expect(h.balances.total('PHP')).toBe('200000000');
    expect(r.fills[0]).toMatchObject({ price: '60000.12345678', qty: '500.12345678', commission: buyerFee.toFixed() });
  });

  it('quote-sized orders whose budget does not fit the notional scale as a number', () => {
    const fund = { alice: { BTC: '1000', PHP: '100000000' }, bob: { BTC: '1000', PHP: '100000000' } };
    const h = harness({ instrument: fine, fund });
    h.place('alice', { side: 'SELL', type: 'LIMIT', price: '60000', quantity: '1000' });
    // 30,000,000.5 has 1 decimal but 3e23 on the 16-decimal notional scale: bigint units.
    const r = h.place('bob', { side: 'BUY', type: 'MARKET', quoteOrderQty: '30000000.5' });
    expect(r.order.status).toBe('FILLED');
    // 30,000,000.5 / 60,000 = 500.0000083333..., whole steps: 500.00000833 for 30,000,000.4998.
    expect(r.order.executedQty).toBe('500.00000833');
    expect(r.order.cummulativeQuoteQty).toBe('30000000.4998');
    expect(h.balances.get('bob', 'PHP')).toEqual({ free: '69999999.5002', locked: '0' });
    expect(h.balances.total('PHP')).toBe('200000000');
  });
});
