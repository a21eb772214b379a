import { describe, expect, it } from 'vitest';
import { parseInstrument } from './instrument.ts';
import { checkOrderRules } from './order-rules.ts';
import { market, order } from './test-support.ts';
import type { OrderType } from './types.ts';

const base = { symbol: 'BTCPHP', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'PHP', baseAssetPrecision: 8, quoteAssetPrecision: 2, filters: [] };
const inst = (extra: Record<string, unknown> = {}) => parseInstrument({ ...base, orderTypes: ['LIMIT', 'LIMIT_MAKER', 'STOP_LOSS_LIMIT'], ...extra });

describe('checkOrderRules (spec 7.4)', () => {
  it('passes a plain order', () => {
    expect(checkOrderRules(inst(), order({ price: '1', quantity: '1' }))).toEqual([]);
  });
  it('refuses a symbol that is not TRADING', () => {
    expect(checkOrderRules(inst({ status: 'CANCEL_ONLY' }), order({ price: '1', quantity: '1' }))).toEqual([
      { rule: 'symbol-status', message: 'Market is closed.', detail: 'BTCPHP status is CANCEL_ONLY' },
    ]);
  });
  it('refuses order types the symbol does not list, with the 7.4 text per type', () => {
    const messages = (type: OrderType) => checkOrderRules(inst(), order({ type, quantity: '1' })).map((r) => r.message);
    expect(messages('MARKET')).toEqual(['Market orders are not supported for this symbol.']);
    expect(messages('STOP_LOSS')).toEqual(['Stop loss orders are not supported for this symbol.']);
    expect(messages('TAKE_PROFIT')).toEqual(['Take profit orders are not supported for this symbol.']);
    expect(messages('TAKE_PROFIT_LIMIT')).toEqual(['Take profit limit orders are not supported for this symbol.']);
    expect(checkOrderRules(inst({ orderTypes: undefined }), order({ type: 'MARKET', quantity: '1' }))).toEqual([]);
  });
  it('refuses price * quantity of zero or less', () => {
    expect(checkOrderRules(inst(), order({ price: '0', quantity: '1' })).map((r) => r.message)).toEqual(['Price* QTY is zero or less.']);
  });
  it('refuses a LIMIT_MAKER that would take, when the opposite best is known', () => {
    const buy = order({ type: 'LIMIT_MAKER', price: '100', quantity: '1' });
    expect(checkOrderRules(inst(), buy, market({ bestAsk: '100.01' }))).toEqual([]);
    expect(checkOrderRules(inst(), buy, market({ bestAsk: '100' })).map((r) => r.message)).toEqual(['Order would immediately match and take.']);
    const sell = order({ type: 'LIMIT_MAKER', side: 'SELL', price: '100', quantity: '1' });
    expect(checkOrderRules(inst(), sell, market({ bestBid: '100' }))).toHaveLength(1);
    expect(checkOrderRules(inst(), sell, {})).toEqual([]);
  });
  it('reports every failing rule at once', () => {
    const out = checkOrderRules(inst({ status: 'BREAK' }), order({ type: 'MARKET', price: '0', quantity: '1' }));
    expect(out.map((r) => r.rule)).toEqual(['symbol-status', 'order-type']);
  });
});
