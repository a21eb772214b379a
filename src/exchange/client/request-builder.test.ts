import { describe, expect, it } from 'vitest';
import { account } from '../endpoints/areas/account.ts';
import { assetTransactionHistory } from '../endpoints/areas/sub-account.ts';
import { buildRequest, recvWindowFor } from './request-builder.ts';

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
