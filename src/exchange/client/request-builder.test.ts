import { describe, expect, it } from 'vitest';
import { account } from '../endpoints/areas/account.ts';
import { getInvoices } from '../endpoints/areas/merchant.ts';
import { assetTransactionHistory } from '../endpoints/areas/sub-account.ts';
import { startUserDataStream } from '../endpoints/areas/user-stream.ts';
import { buildRequest, MissingCredentialsError, recvWindowFor } from './request-builder.ts';

const ctx = (recvWindow: number) => ({ baseUrl: 'http://127.0.0.1:1', apiKeyHeader: 'X-SERVICE-APIKEY', credentials: { apiKey: 'k', apiSecret: 's' }, recvWindow, timestamp: 1538323200000 });

describe('recvWindow on signed requests', () => {
  it('sends the configured window, capped where the endpoint accepts less (spec 4.9 asset history: under 60000)', () => {
    expect(recvWindowFor(account, 60_000)).toBe(60_000);
    expect(recvWindowFor(assetTransactionHistory, 60_000)).toBe(59_999);
    expect(recvWindowFor(assetTransactionHistory, 5000)).toBe(5000);
    expect(buildRequest(assetTransactionHistory, [['tokenId', 'PHP']], { tokenId: 'PHP' }, ctx(60_000)).url).toContain('?tokenId=PHP&recvWindow=59999&timestamp=1538323200000&signature=');
    expect(buildRequest(account, [], {}, ctx(60_000)).url).toContain('?recvWindow=60000&timestamp=');
  });
});

describe('missing credentials', () => {
  it('name the environment variables that hold them (secrets come only from the environment)', () => {
    const none = { baseUrl: 'http://127.0.0.1:1', apiKeyHeader: 'X-SERVICE-APIKEY', recvWindow: 5000, timestamp: 1538323200000 };
    const cases: [() => unknown, string][] = [
      [() => buildRequest(account, [], {}, none), 'account.account needs an API key and secret; set HALYARD_API_KEY and HALYARD_API_SECRET in the environment (in code: createClient\'s secrets)'],
      [() => buildRequest(startUserDataStream, [], {}, none), 'userStream.startUserDataStream needs an API key; set HALYARD_API_KEY in the environment (in code: createClient\'s secrets)'],
      [() => buildRequest(getInvoices, [], {}, none), 'merchant.getInvoices needs a merchant key and secret; set HALYARD_MERCHANT_KEY and HALYARD_MERCHANT_SECRET in the environment (in code: createClient\'s secrets)'],
    ];
    for (const [build, message] of cases) {
      expect(build).toThrow(MissingCredentialsError);
      expect(build).toThrow(message);
    }
  });
});
