import { describe, expect, it } from 'vitest';
import { csvField, fillsCsv, tradesCsv } from './csv-export.ts';

describe('CSV export', () => {
  it('quotes a field only when it must (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(false)).toBe('false');
  });

  it('writes trades and fills with a header, exact amounts and ISO times beside the ms', () => {
    const t0 = Date.UTC(2024, 0, 1);
    expect(tradesCsv([{ symbol: 'BTCPHP', direction: 'LONG', entryTime: t0, exitTime: t0 + 60_000, entryPrice: '100.10', exitPrice: '101', qty: '0.5', pnl: '0.345', returnRatio: 0.0069, fees: '0.1', barsHeld: 1 }])).toBe(
      'entry_time,entry_ms,exit_time,exit_ms,symbol,direction,entry_price,exit_price,qty,pnl,return_ratio,fees,bars_held,entry_tag,exit_tag\r\n' +
        `2024-01-01T00:00:00.000Z,${t0},2024-01-01T00:01:00.000Z,${t0 + 60_000},BTCPHP,LONG,100.10,101,0.5,0.345,0.0069,0.1,1,,\r\n`,
    );
    const fills = fillsCsv([{ time: t0, symbol: 'BTCPHP', side: 'BUY', price: '100.10', qty: '0.5', quoteQty: '50.05', commission: '0.0005', commissionAsset: 'BTC', orderId: '1000000000000000001', clientOrderId: 'a,b', tradeId: '2000000000000000001', isMaker: false }]);
    expect(fills.split('\r\n')[1]).toBe(`2024-01-01T00:00:00.000Z,${t0},BTCPHP,BUY,100.10,0.5,50.05,0.0005,BTC,false,1000000000000000001,"a,b",2000000000000000001,`);
    expect(tradesCsv([])).toBe('entry_time,entry_ms,exit_time,exit_ms,symbol,direction,entry_price,exit_price,qty,pnl,return_ratio,fees,bars_held,entry_tag,exit_tag\r\n');
  });

  it('writes the order tags: the trades\' entry and exit tags, the fills\' own', () => {
    const t0 = Date.UTC(2024, 0, 1);
    const trade = { symbol: 'BTCPHP', direction: 'LONG' as const, entryTime: t0, exitTime: t0 + 60_000, entryPrice: '100', exitPrice: '101', qty: '1', pnl: '1', returnRatio: 0.01, fees: '0', barsHeld: 1, entryTag: 'breakout', exitTag: 'take-profit' };
    expect(tradesCsv([trade]).split('\r\n')[1]?.endsWith(',1,breakout,take-profit')).toBe(true);
    const fill = { time: t0, symbol: 'BTCPHP', side: 'SELL' as const, price: '101', qty: '1', quoteQty: '101', commission: '0.101', commissionAsset: 'PHP', orderId: '1', clientOrderId: 'c', tradeId: '2', isMaker: true, tag: 'take-profit' };
    expect(fillsCsv([fill]).split('\r\n')[1]?.endsWith(',true,1,c,2,take-profit')).toBe(true);
  });
});
