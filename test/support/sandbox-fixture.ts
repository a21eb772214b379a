/**
 * What the end-to-end sandbox tests share: two fixed accounts' keys, resources closed after each
 * test (a sandbox, a client) in reverse order, a project client with the test's exchange settings,
 * a call to the sandbox's admin API that asserts its status, and the typed rejection a call ended
 * with. Each test file keeps its own sandbox configuration (accounts, plugins, variants).
 */
import { afterEach, expect } from 'vitest';
import { createClient, type ClientHandle } from '../../src/app/create-client.ts';
import { parseConfig } from '../../src/config/load.ts';
import { VenueRejectedError } from '../../src/exchange/errors/errors.ts';
import type { SandboxHandle } from '../../src/sandbox/server.ts';

export const ALICE = 'alice@example.com';
export const BOB = 'bob@example.com';

/** API keys of the two accounts the tests configure (the sandbox takes any 32-character key). */
export const KEYS = {
  alice: { apiKey: 'aliceKey000000000000000000000000', secret: 'aliceSecret00000000000000000000' },
  bob: { apiKey: 'bobKey00000000000000000000000000', secret: 'bobSecret0000000000000000000000' },
} as const;

export interface ApiKey {
  readonly apiKey: string;
  readonly secret: string;
}

/**
 * Registers an afterEach that runs what was deferred during the test, last first (a client closes
 * before the sandbox it talks to). Call once at the top of a test file.
 */
export function closeAfterEach(): (close: () => Promise<void> | void) => void {
  const pending: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const close of pending.splice(0).reverse()) await close();
  });
  return (close) => {
    pending.push(close);
  };
}

/** The project's client for `key` (default: the sandbox's own demo key), closed by `defer`. */
export function sandboxClient(
  s: SandboxHandle,
  defer: (close: () => Promise<void>) => void,
  options: { key?: ApiKey; exchange?: Record<string, unknown> } = {},
): ClientHandle['client'] {
  const exchange = parseConfig({ exchange: options.exchange ?? { retry: { maxAttempts: 1 } } }).exchange;
  const secrets = options.key ? { apiKey: options.key.apiKey, apiSecret: options.key.secret } : { apiKey: s.apiKey, apiSecret: s.apiSecret };
  const handle = createClient({ baseUrl: s.baseUrl, exchange, secrets });
  defer(() => handle.close());
  return handle.client;
}

/** A call to the sandbox's admin API (JSON body when given); asserts the status (200 unless said). */
export async function adminCall(s: SandboxHandle, method: string, path: string, body?: unknown, status = 200): Promise<Record<string, unknown>> {
  const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const json = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(json)).toBe(status);
  return json;
}

/** The venue's code and message of a call that must be rejected (VenueRejectedError). */
export async function rejection(call: Promise<unknown>): Promise<{ code: number | undefined; msg: string }> {
  const e = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(VenueRejectedError);
  return { code: (e as VenueRejectedError).venueCode, msg: (e as Error).message };
}
