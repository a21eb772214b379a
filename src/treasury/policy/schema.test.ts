import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/errors.ts';
import { parseTreasuryPolicy } from './parse.ts';
import { checkDestinations, checkNames } from './venue-checks.ts';

const issuesOf = (value: unknown): string[] => {
  try {
    parseTreasuryPolicy(value, 'test');
  } catch (e) {
    if (e instanceof ConfigError) return e.issues;
    throw e;
  }
  return [];
};

describe('treasury policy schema', () => {
  it('takes a full policy and fills the defaults', () => {
    const p = parseTreasuryPolicy({
      accounts: { master: { assets: { BTC: { target: 30, band: 5 }, PHP: { min: '20000' } } }, 'desk-a@example.com': { assets: { PHP: { min: '5000', max: '50000' } } } },
      destinations: { cold: { kind: 'withdraw', coin: 'BTC', network: 'BTC', address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' } },
      payouts: [{ asset: 'BTC', above: '2', destination: 'cold' }],
    });
    expect(p.valuation).toBe('PHP');
    expect(p.convert).toEqual({ slippageBps: 50, quoteRefreshes: 3 });
    expect(p.schedule).toEqual({ enabled: true, everyMs: 300_000, firstAfterMs: 60_000 });
    expect(p.payouts[0]?.account).toBe('master');
  });

  it('names bands that cannot all hold, unknown keys and accounts, and bad amounts', () => {
    const issues = issuesOf({
      accounts: {
        master: { assets: { BTC: { target: 70, band: 5 }, ETH: { target: 40, band: 5 }, PHP: { min: '0' }, USDT: { min: '-5' }, XRP: { min: '10', max: '5' } } },
        'not-an-email': { assets: {} },
      },
      feeds: [{ from: 'master', to: 'ghost@example.com' }],
      limits: { maxPerMove: { PHP: '1e5' } },
      destinatons: {},
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        'accounts.master.assets.PHP.min: an amount must be greater than 0 (got 0)',
        'accounts.master.assets.USDT.min: an amount must be greater than 0 (got -5: negative)',
        'accounts.master.assets.XRP.min: min 10 is above max 5: both cannot hold',
        "accounts.not-an-email: 'not-an-email': 'master' or a sub-account's email",
        'limits.maxPerMove.PHP: expected a decimal amount as a string, e.g. "1000.5" (got "1e5")',
        "(root): unknown key(s) 'destinatons' (did you mean 'destinations'?)",
      ]),
    );
    // Targets over 100 % and a feed to an account not listed (checked once the rest is well formed).
    expect(issuesOf({ accounts: { master: { assets: { BTC: { target: 70, band: 5 }, ETH: { target: 40, band: 5 } } } }, feeds: [{ from: 'master', to: 'ghost@example.com' }] })).toEqual([
      'accounts.master.assets: target weights sum to 110 %, over 100 %: they cannot all hold at once',
      "feeds.0.to: unknown account 'ghost@example.com': not under accounts",
    ]);
    expect(issuesOf({ accounts: { master: { assets: { BTC: { target: 30 } } } } })).toEqual(['accounts.master.assets.BTC.band: a target needs its band (e.g. "band": 5 for 30 +/- 5 %)']);
    expect(issuesOf({ payouts: [{ asset: 'PHP', above: '10', destination: 'bank' }] })).toEqual(["payouts.0.destination: unknown destination 'bank' (destinations: none)"]);
  });

  it('checks a withdrawal address against its network and names against the venue', () => {
    const p = parseTreasuryPolicy({
      accounts: { master: { assets: { DOGE: { min: '1' } } }, 'desk-a@example.com': { assets: {} } },
      destinations: { cold: { kind: 'withdraw', coin: 'BTC', network: 'BTC', address: '0x52908400098527886E0F7030069857D2E4169EE7' }, eth: { kind: 'withdraw', coin: 'ETH', network: 'TRX', address: 'x' } },
    });
    const coins = [
      { coin: 'BTC', networkList: [{ network: 'BTC', addressRegex: '^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,62}$', withdrawEnable: true }] },
      { coin: 'ETH', networkList: [{ network: 'ETH', addressRegex: '^0x[0-9a-fA-F]{40}$' }] },
    ];
    expect(checkDestinations(p, coins)).toEqual([
      "destinations.cold.address: '0x52908400098527886E0F7030069857D2E4169EE7' is not a BTC address on BTC (does not match ^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,62}$)",
      'destinations.eth.network: ETH has no network TRX (networks: ETH)',
    ]);
    expect(checkNames(p, { assets: new Set(['PHP', 'BTC']), subAccounts: new Set(['desk-b@example.com']) })).toEqual([
      "accounts.master.assets.DOGE: unknown asset 'DOGE': the venue lists no such asset",
      'accounts.desk-a@example.com: unknown account: not a sub-account of this master (sub-accounts: desk-b@example.com)',
    ]);
  });
});
