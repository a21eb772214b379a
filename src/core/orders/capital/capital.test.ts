import { describe, expect, it } from 'vitest';
import { D } from '../../money/decimal.ts';
import { CapitalLedgers } from './capital.ts';
import { manager } from '../test-support.ts';
import type { OrderFields, PlaceOrderIntent } from '../types.ts';
import type { VenueCommand, VenueEvent } from '../venue-messages.ts';

const limit = (side: 'BUY' | 'SELL', price: string, quantity: string, tag?: string): PlaceOrderIntent => ({ kind: 'place', symbol: 'BTCPHP', side, type: 'LIMIT', price, quantity, ...(tag ? { tag } : {}) });
const ack = (cid: string, status: 'NEW' | 'CANCELED' = 'NEW'): VenueEvent => ({ kind: 'order', symbol: 'BTCPHP', clientOrderId: cid, orderId: '7', status, executedQty: '0', cumulativeQuoteQty: '0', working: true, time: 2000 });
const fill = (cid: string, side: 'BUY' | 'SELL', qty: string, price: string, quoteQty: string, commission: string, commissionAsset: string, tradeId = '1'): VenueEvent => ({
  kind: 'fill',
  symbol: 'BTCPHP',
  clientOrderId: cid,
  orderId: '7',
  tradeId,
  side,
  price,
  qty,
  quoteQty,
  commission,
  commissionAsset,
  isMaker: true,
  orderStatus: 'FILLED',
  cumulativeQty: qty,
  cumulativeQuoteQty: quoteQty,
  time: 3000,
});
const cid = (c: VenueCommand | undefined) => (c?.kind === 'place' ? c.clientOrderId : '');

/** Account PHP 10000, BTC 1; strategy a owns 4000 PHP, b 5000 PHP and 0.5 BTC; c has no capital of its own. */
const capital = { a: { PHP: '4000' }, b: { PHP: '5000', BTC: '0.5' } };

describe('per-strategy capital', () => {
  it("denies an order that would spend more than the strategy's own capital, naming the strategy, the asset, what it needs and what it has", () => {
    const { om } = manager({ capital });
    const r = om.submit('a', [limit('BUY', '100', '50')], 1000);
    expect(r.commands).toEqual([]);
    expect(r.denials[0]?.reasons).toEqual(["Strategy capital is insufficient for requested action: strategy 'a' needs 5000 PHP, has 4000 PHP of its own capital free"]);
    expect(r.denials[0]?.violations[0]).toMatchObject({ check: 'capital', code: 'PHP' });
    expect(r.denials[0]?.update).toMatchObject({ status: 'DENIED', reason: r.denials[0]?.reasons[0] });
    // The account has the funds: b may spend its own 5000.
    expect(om.submit('b', [limit('BUY', '100', '50')], 1000).denials).toEqual([]);
  });

  it('counts what open orders hold (pending or acknowledged) and frees it when they end', () => {
    const { om } = manager({ capital });
    const first = om.submit('a', [limit('BUY', '100', '30', 'x')], 1000).commands[0];
    expect(om.submit('a', [limit('BUY', '100', '20')], 1000).denials[0]?.reasons[0]).toMatch(/strategy 'a' needs 2000 PHP, has 1000 PHP of its own capital free$/);
    om.onVenueEvents([ack(cid(first)), { kind: 'balance', asset: 'PHP', free: '7000', locked: '3000', time: 2000 }]);
    expect(om.view('a').balances()).toEqual([{ asset: 'PHP', free: expect.anything(), locked: expect.anything() }]);
    expect(om.view('a').balances().map((b) => [b.asset, b.free.toString(), b.locked.toString()])).toEqual([['PHP', '1000', '3000']]);
    expect(om.submit('a', [limit('BUY', '100', '10.001')], 1000).denials).toHaveLength(1);
    om.submit('a', [{ kind: 'cancel', symbol: 'BTCPHP', tag: 'x' }], 1100);
    om.onVenueEvents([ack(cid(first), 'CANCELED'), { kind: 'balance', asset: 'PHP', free: '10000', locked: '0', time: 2100 }]);
    expect(om.submit('a', [limit('BUY', '100', '40')], 1200).denials).toEqual([]);
  });

  it("moves the strategy's ledger with its own fills (quote out, base in, the commission off its asset), and only its own", () => {
    const { om } = manager({ capital });
    const c = cid(om.submit('a', [limit('BUY', '100', '10')], 1000).commands[0]);
    om.onVenueEvents([ack(c), fill(c, 'BUY', '10', '100', '1000', '0.01', 'BTC'), { kind: 'balance', asset: 'PHP', free: '9000', locked: '0', time: 3000 }, { kind: 'balance', asset: 'BTC', free: '10.99', locked: '0', time: 3000 }]);
    expect(om.capital?.snapshot('a')).toEqual({ PHP: '3000', BTC: '9.99' });
    expect(om.capital?.snapshot('b')).toEqual({ PHP: '5000', BTC: '0.5' });
    // a sells what it bought, not a satoshi more (the account holds 10.99 BTC, 0.5 of it b's).
    expect(om.submit('a', [limit('SELL', '100', '10')], 3100).denials[0]?.reasons[0]).toBe("Strategy capital is insufficient for requested action: strategy 'a' needs 10 BTC, has 9.99 BTC of its own capital free");
    const s = cid(om.submit('a', [limit('SELL', '110', '9.99')], 3100).commands[0]);
    om.onVenueEvents([ack(s), fill(s, 'SELL', '9.99', '110', '1098.9', '1.0989', 'PHP', '2')]);
    // 3000 + 1098.9 - 1.0989, exactly.
    expect(om.capital?.snapshot('a')).toEqual({ PHP: '4097.8011', BTC: '0' });
  });

  it('limits a strategy without capital of its own to what no ledger holds free', () => {
    const { om } = manager({ capital });
    // 10000 PHP - 4000 (a) - 5000 (b) = 1000; 1 BTC - 0.5 (b) = 0.5.
    expect(om.submit('c', [limit('BUY', '100', '10.01')], 1000).denials[0]?.reasons[0]).toBe(
      "Strategy capital is insufficient for requested action: strategy 'c' needs 1001 PHP, has 1000 PHP free that no strategy with capital of its own holds",
    );
    expect(om.submit('c', [limit('SELL', '100', '0.501')], 1000).denials[0]?.reasons[0]).toMatch(/strategy 'c' needs 0.501 BTC, has 0.5 BTC free that no/);
    expect(om.submit('c', [limit('BUY', '100', '10')], 1000).denials).toEqual([]);
    // Once c's 1000 is committed, even a's unused capital is out of its reach; a's is not.
    expect(om.submit('c', [limit('BUY', '100', '0.01')], 1000).denials).toHaveLength(1);
    expect(om.submit('a', [limit('BUY', '100', '40')], 1000).denials).toEqual([]);
    // c sees the account's balances as before; a sees its ledger.
    expect(om.view('c').balances().map((b) => b.asset)).toEqual(['PHP', 'BTC']);
  });

  it('a replacement may use what the order it replaces holds, and no more', () => {
    const { om } = manager({ capital });
    const c = cid(om.submit('a', [limit('BUY', '100', '30', 'x')], 1000).commands[0]);
    om.onVenueEvents([ack(c)]);
    const order = (quantity: string): OrderFields => ({ side: 'BUY', type: 'LIMIT', price: '100', quantity, tag: 'x' });
    expect(om.submit('a', [{ kind: 'cancelReplace', symbol: 'BTCPHP', tag: 'x', order: order('40.01') }], 1100).denials[0]?.reasons[0]).toMatch(/strategy 'a' needs 4001 PHP, has 4000 PHP/);
    expect(om.submit('a', [{ kind: 'cancelReplace', symbol: 'BTCPHP', tag: 'x', order: order('40') }], 1100).denials).toEqual([]);
  });

  it('refuses capital the account does not hold, and amounts that are not decimals of at least 0, naming the field', () => {
    expect(() => manager({ capital: { a: { PHP: '6000' }, b: { PHP: '5000' } } })).toThrow('capital: PHP allocated 11000, the account holds 10000');
    expect(() => manager({ capital: { a: { PHP: 'lots' } } })).toThrow('capital.a.PHP: "lots" is not a decimal number');
    expect(() => manager({ capital: { a: { PHP: '-1' } } })).toThrow('capital.a.PHP: -1 is below zero');
    // Without starting balances (live: the venue's balance events set them) the host asks.
    const l = new CapitalLedgers({ a: { PHP: '6000' } });
    expect(l.overAllocated(() => new D('5000'))).toEqual([{ asset: 'PHP', allocated: '6000', account: '5000' }]);
  });

  it('changes nothing without the option: every strategy trades the shared account', () => {
    const { om } = manager();
    expect(om.capital).toBeUndefined();
    expect(om.submit('a', [limit('BUY', '100', '100')], 1000).denials).toEqual([]);
  });
});
