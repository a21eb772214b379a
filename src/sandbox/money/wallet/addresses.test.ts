import { describe, expect, it } from 'vitest';
import { DEFAULT_ASSETS } from '../../config/defaults.ts';
import { parseSandboxConfig } from '../../config/load.ts';
import { chainTxId, depositAddressFor } from './addresses.ts';

describe('deposit addresses', () => {
  const config = parseSandboxConfig({});

  it("match every default network's addressRegex, stable per account and distinct between accounts", () => {
    expect(config.assets.map((a) => a.coin)).toEqual(DEFAULT_ASSETS.map((a) => a.coin));
    for (const asset of config.assets) {
      for (const net of asset.networks) {
        const a = depositAddressFor('100000001', asset.coin, net);
        expect(a.address).toMatch(new RegExp(net.addressRegex));
        expect(a.addressTag).toBe('');
        expect(depositAddressFor('100000001', asset.coin, net)).toEqual(a);
        expect(depositAddressFor('100000002', asset.coin, net).address).not.toBe(a.address);
      }
    }
  });

  it('give memo networks a 10-digit tag and make 64-hex transaction ids', () => {
    const net = { ...config.assets[0]!.networks[0]!, network: 'XRP', addressRegex: '', memoRegex: '^\\d+$' };
    expect(depositAddressFor('1', 'XRP', net)).toMatchObject({ address: expect.stringMatching(/^r/), addressTag: expect.stringMatching(/^[1-9]\d{9}$/) });
    expect(chainTxId('d_1')).toMatch(/^[0-9a-f]{64}$/);
    expect(chainTxId('d_1')).not.toBe(chainTxId('d_2'));
  });
});
