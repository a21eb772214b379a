/**
 * Sandbox spot filters that need market references (spec 2.3 PERCENT_PRICE, PERCENT_PRICE_SA,
 * texts 7.5) over real HTTP on 127.0.0.1: the averages come from the symbol's own trades of the
 * filter's avgPriceMins window. Before the fix the engine got no reference prices, so both filters
 * were skipped and any price was accepted.
 */
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();

interface Key {
  apiKey: string;
  secret: string;
}

async function order(s: SandboxHandle, key: Key, side: 'BUY' | 'SELL', quantity: string, price: string): Promise<{ status: number; body: { code?: number; msg?: string; status?: string } }> {
  const q = new URLSearchParams({ symbol: 'BTCPHP', side, type: 'LIMIT', timeInForce: 'GTC', quantity, price, timestamp: String(Date.now()) }).toString();
  const r = await fetch(`${s.baseUrl}/openapi/v1/order?${q}&signature=${hmacSha256Hex(key.secret, q)}`, { method: 'POST', headers: { 'X-SERVICE-APIKEY': key.apiKey } });
  return { status: r.status, body: (await r.json()) as { code?: number; msg?: string; status?: string } };
}

describe('sandbox spot: PERCENT_PRICE and PERCENT_PRICE_SA', () => {
  it('bounds limit prices by the weighted and the simple average of the recent trades', async () => {
    const filters = [
      { filterType: 'PRICE_FILTER' as const, minPrice: '0.01', maxPrice: '100000000', tickSize: '0.01' },
      { filterType: 'LOT_SIZE' as const, minQty: '0.000001', maxQty: '100', stepSize: '0.000001' },
      { filterType: 'PERCENT_PRICE' as const, multiplierUp: '1.1', multiplierDown: '0.9', avgPriceMins: 5 },
      { filterType: 'PERCENT_PRICE_SA' as const, multiplierUp: '1.05', multiplierDown: '0.5', avgPriceMins: 5 },
    ];
    const symbol = { symbol: 'BTCPHP', baseAsset: 'BTC', baseAssetPrecision: 8, quoteAsset: 'PHP', quoteAssetPrecision: 2, filters, fees: { maker: '0.001', taker: '0.001' } };
    const s = await startSandbox({ config: { symbols: [symbol] } });
    defer(() => s.close());
    const demo = { apiKey: s.apiKey, secret: s.apiSecret };
    const account = s.accounts.createAccount({ email: 'taker@example.com', createdAt: s.clock.now() });
    const taker = s.accounts.createKey({ accountId: account.id, createdAt: s.clock.now() });
    s.services.balances?.credit(account.id, 'PHP', '1000000');

    // No trade yet: no reference, nothing to bound.
    expect((await order(s, demo, 'SELL', '0.001', '3000000')).body.status).toBe('NEW');
    expect((await order(s, demo, 'SELL', '0.003', '3300000')).body.status).toBe('NEW');
    expect((await order(s, taker, 'BUY', '0.004', '3300000')).body.status).toBe('FILLED');

    // Weighted average (3000 + 9900) / 0.004 = 3225000: PERCENT_PRICE allows 2902500 to 3547500.
    // Simple average (3000000 + 3300000) / 2 = 3150000: PERCENT_PRICE_SA allows up to 3307500.
    expect((await order(s, demo, 'SELL', '0.001', '3600000')).body).toEqual({ code: -2010, msg: 'Filter failure: PERCENT_PRICE' });
    expect((await order(s, demo, 'BUY', '0.001', '2900000')).body).toEqual({ code: -2010, msg: 'Filter failure: PERCENT_PRICE' });
    // Within the weighted band, above the simple one (the weighted average would allow 3386250).
    expect((await order(s, demo, 'SELL', '0.001', '3350000')).body).toEqual({ code: -2010, msg: 'Filter failure: PERCENT_PRICE_SA' });
    expect((await order(s, demo, 'SELL', '0.001', '3300000')).body.status).toBe('NEW');
    expect((await order(s, demo, 'BUY', '0.001', '2910000')).body.status).toBe('NEW');
  });
});
