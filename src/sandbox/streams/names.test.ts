import { describe, expect, it } from 'vitest';
import { parseStreamName } from './names.ts';

describe('stream names (notes 4)', () => {
  it('parses every stream kind, making the symbol lower case in the canonical name', () => {
    const cases: [string, string, unknown][] = [
      ['btcphp@trade', 'btcphp@trade', { kind: 'trade', symbol: 'BTCPHP' }],
      ['BTCPHP@aggTrade', 'btcphp@aggTrade', { kind: 'aggTrade', symbol: 'BTCPHP' }],
      ['btcphp@kline_1M', 'btcphp@kline_1M', { kind: 'kline', symbol: 'BTCPHP', interval: '1M' }],
      ['btcphp@miniTicker', 'btcphp@miniTicker', { kind: 'miniTicker', symbol: 'BTCPHP' }],
      ['btcphp@ticker', 'btcphp@ticker', { kind: 'ticker', symbol: 'BTCPHP' }],
      ['btcphp@bookTicker', 'btcphp@bookTicker', { kind: 'bookTicker', symbol: 'BTCPHP' }],
      ['btcphp@depth20@100ms', 'btcphp@depth20@100ms', { kind: 'depth', symbol: 'BTCPHP', levels: 20 }],
      ['btcphp@depth200', 'btcphp@depth200', { kind: 'depth', symbol: 'BTCPHP', levels: 200 }],
      ['btcphp@depth', 'btcphp@depth', { kind: 'depthDiff', symbol: 'BTCPHP', fast: false }],
      ['btcphp@depth@100ms', 'btcphp@depth@100ms', { kind: 'depthDiff', symbol: 'BTCPHP', fast: true }],
      ['!miniTicker@arr', '!miniTicker@arr', { kind: 'allMiniTickers' }],
      ['!ticker@arr', '!ticker@arr', { kind: 'allTickers' }],
      ['!bookTicker', '!bookTicker', { kind: 'allBookTickers' }],
    ];
    for (const [raw, name, stream] of cases) expect(parseStreamName(raw)).toEqual({ ok: true, name, stream });
  });

  it('rejects what the venue does not serve', () => {
    for (const raw of ['btcphp@depth15', 'btcphp@depth@500ms', 'btcphp@kline_2m', 'btcphp@markPrice', 'btcphp', '@trade', 'btc-php@trade', '!ticker']) {
      expect(parseStreamName(raw)).toEqual({ ok: false });
    }
  });
});
