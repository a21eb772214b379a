import { describe, expect, it } from 'vitest';
import { D, dec } from '../../money/decimal.ts';
import { preTradeCheck, violationText } from './pre-trade.ts';
import { instrument } from '../test-support.ts';
import type { OrderFields } from '../types.ts';

const funds = (php: string, btc = '1') => (asset: string) => dec(asset === 'PHP' ? php : asset === 'BTC' ? btc : '0');
const limit = (over: Partial<OrderFields> = {}): OrderFields => ({ side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', ...over });

describe('preTradeCheck', () => {
  it('approves an order every filter and the balance allow, with what it reserves', () => {
    const r = preTradeCheck('BTCPHP', limit(), { instrument: instrument(), market: { openOrders: 0, openAlgoOrders: 0 }, available: funds('100') });
    expect(r).toEqual({ ok: true, reserve: { asset: 'PHP', amount: new D(100), estimated: false } });
  });

  it('denies with every violation, each with the venue text and the numbers', () => {
    const r = preTradeCheck('BTCPHP', limit({ price: '100.005', quantity: '0.0005' }), { instrument: instrument(), market: { openOrders: 3 }, available: funds('0') });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.violations.map((v) => `${v.check}:${v.code}`)).toEqual(['filter:PRICE_FILTER', 'filter:LOT_SIZE', 'filter:LOT_SIZE', 'filter:NOTIONAL', 'filter:MAX_NUM_ORDERS', 'funds:PHP']);
    expect(violationText(r.violations[4]!)).toBe('Filter failure: MAX_NUM_ORDERS: 3 open orders on BTCPHP + this one = 4 is above maxNumOrders 3');
    expect(r.violations[5]!.detail).toBe('needs 0.0500025 PHP, 0 available');
  });

  it('checks the symbol trading state, the order type and untriggered stops', () => {
    const closed = preTradeCheck('BTCPHP', limit(), { instrument: instrument({ status: 'BREAK' }), market: {}, available: funds('1000') });
    expect(closed).toMatchObject({ ok: false, violations: [{ check: 'rule', code: 'symbol-status', message: 'Market is closed.' }] });
    const stop = preTradeCheck('BTCPHP', { side: 'SELL', type: 'STOP_LOSS', quantity: '0.5', stopPrice: '90' }, { instrument: instrument(), market: { openOrders: 1, openAlgoOrders: 1, lastPrice: new D(100) }, available: funds('0') });
    expect(stop).toMatchObject({ ok: false, violations: [{ code: 'MAX_NUM_ALGO_ORDERS' }] });
    const unknown = preTradeCheck('ETHPHP', limit(), { instrument: undefined, market: {}, available: funds('1000') });
    expect(unknown).toMatchObject({ ok: false, violations: [{ check: 'symbol', detail: 'no exchange rules known for ETHPHP' }] });
  });

  it('estimates market orders by quantity at the last price; skipped checks pass unless complete checks are required', () => {
    const mkt: OrderFields = { side: 'BUY', type: 'MARKET', quantity: '2' };
    const r = preTradeCheck('BTCPHP', mkt, { instrument: instrument(), market: { lastPrice: new D(50), openOrders: 0, openAlgoOrders: 0 }, available: funds('99') });
    expect(r).toMatchObject({ ok: false, violations: [{ check: 'funds', detail: 'needs 100 PHP (estimated at the last price), 99 available' }] });
    const blind = preTradeCheck('BTCPHP', mkt, { instrument: instrument(), market: {}, available: funds('99') });
    expect(blind.ok).toBe(true); // no last price: NOTIONAL and the counts are skipped, as at the engine
    const strict = preTradeCheck('BTCPHP', mkt, { instrument: instrument(), market: {}, available: funds('99'), requireComplete: true });
    expect(strict).toMatchObject({ ok: false });
    if (!strict.ok) expect(strict.violations.map((v) => `${v.check}:${v.code}`)).toEqual(['incomplete:NOTIONAL', 'incomplete:MAX_NUM_ORDERS']);
  });
});
