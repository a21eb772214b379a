/**
 * Each strategy's context reads its own position (account.ts, holdings.ts): a live bot runs
 * several strategies on one symbol in one account (bench bot-live: SMA, RSI exits and DCA on each
 * symbol), and SMA's death-cross exit sold "the position", the account's, DCA's base included,
 * which left SMA's own book short (BTCPHP -0.000082 in the bot's summary).
 */
import { describe, expect, it } from 'vitest';
import { manager } from './test-support.ts';
import type { OrderSide, PlaceOrderIntent } from './types.ts';
import type { VenueEvent } from './venue-messages.ts';

const market = (side: OrderSide, quantity: string, tag: string): PlaceOrderIntent => ({ kind: 'place', symbol: 'BTCPHP', side, type: 'MARKET', quantity, tag });
/** A whole fill at 100, the commission in the asset received (base on a BUY, quote on a SELL), as the sandbox charges it. */
const filled = (cid: string, tradeId: string, side: OrderSide, qty: string, commission: string): VenueEvent => ({
  kind: 'fill',
  symbol: 'BTCPHP',
  clientOrderId: cid,
  orderId: tradeId,
  tradeId,
  side,
  price: '100',
  qty,
  quoteQty: String(Number(qty) * 100),
  commission,
  commissionAsset: side === 'BUY' ? 'BTC' : 'PHP',
  isMaker: false,
  orderStatus: 'FILLED',
  cumulativeQty: qty,
  cumulativeQuoteQty: String(Number(qty) * 100),
  time: 3000,
});
/** A strategy's base as its context reads it (Money: a Decimal here), printed. */
const held = (om: ReturnType<typeof manager>['om'], strategy: string): string => String(om.view(strategy).position('BTCPHP')?.base);
const cidOf = (r: { commands: readonly { kind: string; clientOrderId?: string }[] }): string => r.commands[0]?.clientOrderId as string;

describe('positions per strategy', () => {
  it('a strategy sees the base its own fills moved, the account every fill', () => {
    const { om } = manager({ balances: { PHP: '10000' } });
    const a = cidOf(om.submit('sma', [market('BUY', '1', 'entry')], 1000));
    const b = cidOf(om.submit('dca', [market('BUY', '2', 'buy')], 1000));
    om.onVenueEvents([filled(a, '1', 'BUY', '1', '0.001'), filled(b, '2', 'BUY', '2', '0.002')]);
    expect(held(om, 'sma')).toBe('0.999');
    expect(String(om.view('sma').position('BTCPHP')?.avgEntryPrice)).toBe('100');
    expect(held(om, 'dca')).toBe('1.998');
    expect(om.view('rsi').position('BTCPHP')).toBeUndefined(); // no fills: flat
    expect(om.account.baseOf('BTCPHP').toFixed()).toBe('2.997');
    // SMA's exit sells what it holds; the account keeps DCA's base, and SMA is flat, not short.
    const exit = cidOf(om.submit('sma', [market('SELL', '0.999', 'exit')], 2000));
    om.onVenueEvents([filled(exit, '3', 'SELL', '0.999', '0.0999')]);
    expect(held(om, 'sma')).toBe('0');
    expect(held(om, 'dca')).toBe('1.998');
    expect(om.account.baseOf('BTCPHP').toFixed()).toBe('1.998');
  });

  it('holdings set with setPosition (a backtest or a test starting with base) are each strategy starting position', () => {
    const { om } = manager();
    expect(om.view('early').position('BTCPHP')).toBeUndefined();
    om.account.setPosition('BTCPHP', om.account.totalOf('BTC'));
    expect(held(om, 'early')).toBe('1'); // read before: set all the same
    expect(held(om, 'late')).toBe('1');
    expect(om.account.baseOf('BTCPHP').toFixed()).toBe('1');
  });
});
