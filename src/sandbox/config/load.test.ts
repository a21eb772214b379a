import { describe, expect, it } from 'vitest';
import { parseInstrument } from '../../core/market/instrument.ts';
import { zExchangeInfo } from '../../exchange/endpoints/areas/general.ts';
import { exchangeInfoFromConfig } from './exchange-info.ts';
import { ConfigError, parseSandboxConfig } from './load.ts';
import { DEMO_API_KEY } from './defaults.ts';

describe('sandbox config', () => {
  it('has working defaults: five symbols, four assets, the demo account, spec variants', () => {
    const c = parseSandboxConfig({});
    expect(c.listen).toEqual({ host: '127.0.0.1', port: 0 });
    expect(c.symbols.map((s) => s.symbol)).toEqual(['BTCPHP', 'ETHPHP', 'BTCUSDT', 'ETHUSDT', 'USDTPHP']);
    expect(c.assets.map((a) => a.coin)).toEqual(['BTC', 'ETH', 'USDT', 'PHP']);
    expect(c.accounts[0]?.keys[0]).toMatchObject({ apiKey: DEMO_API_KEY, roles: [], enabled: true });
    expect(c.variants).toMatchObject({ apiKeyHeader: 'X-SERVICE-APIKEY', numbersAsStrings: false, priceChangePercentAsFraction: true, fiatTimestampOptional: false });
    expect(c.admin).toEqual({ enabled: false, prefix: '/sandbox-admin/v1' });
    expect(c.rateLimits.banScheduleMs[0]).toBe(120_000);
    expect(c.rateLimits.banScheduleMs.at(-1)).toBe(3 * 24 * 3_600_000);
  });

  it('rejects unknown keys and bad values, reporting every path at once', () => {
    try {
      parseSandboxConfig({ listen: { port: -1 }, bogus: 1, symbols: [{ symbol: 'btc', filters: [{ filterType: 'LOT_SIZE', minQty: 1 }] }] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const text = (e as ConfigError).issues.join('\n');
      expect(text).toContain('listen.port');
      expect(text).toContain("unknown key(s) 'bogus'");
      expect(text).toContain('symbols.0.symbol');
      expect(text).toContain('symbols.0.filters.0');
    }
    // A starting balance a balance cannot hold exactly is a config error naming the field.
    expect(() => parseSandboxConfig({ accounts: [{ email: 'a@example.com', balances: { PHP: '1e20' } }] })).toThrow(/accounts\.0\.balances\.PHP: must be a non-negative amount of at most/);
  });

  it('takes only http(s) URLs for publicUrl and merchant.callbackUrl, naming the field and the scheme', () => {
    expect(() => parseSandboxConfig({ publicUrl: 'ftp://sandbox.example.com' })).toThrow(/publicUrl: 'ftp:\/\/sandbox\.example\.com' uses ftp:; only http: and https: are supported/);
    expect(() => parseSandboxConfig({ merchant: { callbackUrl: 'mailto:ops@example.com' } })).toThrow(/merchant\.callbackUrl: 'mailto:ops@example\.com' uses mailto:/);
    expect(parseSandboxConfig({ publicUrl: 'https://sandbox.example.com', merchant: { callbackUrl: 'http://127.0.0.1:9000/cb' } }).merchant.callbackUrl).toBe('http://127.0.0.1:9000/cb');
  });

  it('cross-checks assets, masters and duplicates', () => {
    expect(() =>
      parseSandboxConfig({
        accounts: [
          { email: 'a@x.io', balances: { DOGE: '1' } },
          { email: 'b@x.io', masterEmail: 'zz@x.io' },
        ],
      }),
    ).toThrow(/accounts.0.balances.DOGE[\s\S]*accounts.1.masterEmail/);
  });
});

describe('exchangeInfoFromConfig (spec 2.2)', () => {
  it('decodes with the client codec and parses into instruments', () => {
    const body = exchangeInfoFromConfig(parseSandboxConfig({}), 1_700_000_000_000);
    const decoded = zExchangeInfo.parse(body);
    expect(decoded.exchangeFilters).toEqual([]);
    const btc = parseInstrument(decoded.symbols[0]);
    expect(btc.filter('MAX_NUM_ORDERS')?.maxNumOrders).toBe(200);
    expect(btc.filter('MAX_NUM_ALGO_ORDERS')?.maxNumAlgoOrders).toBe(5);
    expect(btc.roundPrice('100.005').toFixed()).toBe('100.01');
    expect(body.symbols[0]).not.toHaveProperty('fees');
  });

  it('writes numbers as strings under the numbersAsStrings variant (notes 5.2)', () => {
    const body = exchangeInfoFromConfig(parseSandboxConfig({ variants: { numbersAsStrings: true } }), 5);
    expect(body.serverTime).toBe('5');
    expect(body.symbols[0]).toMatchObject({ baseAssetPrecision: '8' });
    expect((body.symbols[0]?.['filters'] as Record<string, unknown>[]).find((f) => f['filterType'] === 'MAX_NUM_ORDERS')).toEqual({ filterType: 'MAX_NUM_ORDERS', maxNumOrders: '200' });
  });
});
