/**
 * The sandbox implements every endpoint of the table: each one, called over real HTTP by the
 * project's client with its documented example parameters, gets an answer from a handler (never
 * 501 "not implemented") and never an internal error (never 500). Venue refusals of the example
 * (an unknown order id, say) are fine: they prove the handler ran and answered in the spec's terms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { allEndpoints } from '../src/exchange/endpoints/index.ts';
import { ExchangeError, ParameterError } from '../src/exchange/errors/errors.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';

let s: SandboxHandle;
let handle: ClientHandle;

beforeAll(async () => {
  s = await startSandbox();
  const accountId = s.accounts.getKey(s.apiKey)!.accountId;
  const merchant = s.accounts.createKey({ accountId, createdAt: s.clock.now(), merchant: true, name: 'coverage merchant' });
  handle = createClient({
    baseUrl: s.baseUrl,
    exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange,
    secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret, merchantKey: merchant.apiKey, merchantSecret: merchant.secret },
  });
});
afterAll(async () => {
  await handle.close();
  await s.close();
});

describe('sandbox endpoint coverage', () => {
  it.each(allEndpoints.map((e) => [e.id, e] as const))('%s has a handler', async (_id, def) => {
    try {
      await handle.client.rest.call(def, def.example.params);
    } catch (e) {
      if (e instanceof ParameterError) throw e;
      expect(e, `${def.id}: ${(e as Error).message}`).toBeInstanceOf(ExchangeError);
      const status = (e as ExchangeError).httpStatus;
      expect(status, `${def.id}: ${(e as Error).message}`).not.toBe(501);
      expect(status, `${def.id}: ${(e as Error).message}`).not.toBe(500);
      expect(status, `${def.id}: ${(e as Error).message}`).not.toBe(404);
      // Authentication must pass: every example is signed with a valid key of the right kind.
      expect([-1002, -1022, -1021, -2015, -1150], `${def.id}: ${(e as Error).message}`).not.toContain((e as ExchangeError).venueCode);
    }
  });
});
