import { describe, expect, it } from 'vitest';
import { combinedStreamUrl, marketUrl, rawStreamUrl, userDataUrl } from './stream-paths.ts';

describe('stream paths (notes 1)', () => {
  it('builds the raw, combined and user-data URLs under wsUrl', () => {
    expect(rawStreamUrl('wss://ws.example.com/', 'btcusdt@trade')).toBe('wss://ws.example.com/openapi/quote/ws/v3/btcusdt@trade');
    expect(combinedStreamUrl('ws://127.0.0.1:9', ['btcphp@trade', '!ticker@arr', 'btcphp@kline_1m'])).toBe('ws://127.0.0.1:9/openapi/quote/stream?streams=btcphp@trade/!ticker@arr/btcphp@kline_1m');
    expect(combinedStreamUrl('ws://h', [])).toBe('ws://h/openapi/quote/stream');
    expect(userDataUrl('wss://h/base', 'a b/c')).toBe('wss://h/base/openapi/ws/a%20b%2Fc');
  });

  it('refuses a wsUrl that is not ws: or wss:', () => {
    expect(() => userDataUrl('https://h', 'k')).toThrow("wsUrl: 'https://h' uses https:; only ws: and wss: are supported");
    expect(() => userDataUrl('not a url', 'k')).toThrow(/is not a URL/);
  });

  it('puts one stream in a raw URL and as many as fit in a combined one; the rest go as SUBSCRIBE', () => {
    expect(marketUrl('ws://h', 'raw', ['a@trade', 'b@trade'])).toEqual({ url: 'ws://h/openapi/quote/ws/v3/a@trade', carried: ['a@trade'] });
    expect(marketUrl('ws://h', 'raw', [])).toEqual({ url: 'ws://h/openapi/quote/ws/v3', carried: [] });
    const many = Array.from({ length: 300 }, (_, i) => `sym${i}php@depth@100ms`);
    const { url, carried } = marketUrl('ws://h', 'combined', many);
    expect(carried.length).toBeGreaterThan(50);
    expect(carried.length).toBeLessThan(300);
    expect(carried).toEqual(many.slice(0, carried.length));
    expect(url.length).toBeLessThan(2100);
  });
});
