/**
 * Legacy v4 signatures are single-use within their nonce second (protocol notes 2.4; the sandbox
 * refuses a repeat with -10324). The client never presents one twice: the same v4 read asked twice
 * in one second waits for the next second, so its nonce and signature differ, and both succeed.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { V4SignatureGuard } from '../src/exchange/signing/v4-signature-guard.ts';
import { legacyV4Plugin } from '../src/sandbox/money/legacy-v4/plugin.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const START = Date.UTC(2025, 0, 15, 12, 0, 0, 250);
const defer = closeAfterEach();

describe('legacy v4 signature reuse', () => {
  it('waits for the next nonce second before sending the same v4 request again', async () => {
    const clock = new VirtualClock(START);
    const s = await startSandbox({ clock, plugins: [legacyV4Plugin()] });
    defer(() => s.close());
    const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret }, clock });
    defer(() => handle.close());
    const c = handle.client;

    const first = await c.legacyV4.payoutOutletCategories({ id: 'bank' });
    let done = false;
    const second = c.legacyV4.payoutOutletCategories({ id: 'bank' }).finally(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false); // waiting for the next second, not refused with -10324
    await clock.advance(750);
    expect(await second).toEqual(first);
    expect(clock.now()).toBe(START + 750);
  });

  it('guard: a signature may be issued once per nonce second', () => {
    const g = new V4SignatureGuard();
    expect(g.waitBefore('a', 1000)).toBe(0);
    expect(g.waitBefore('b', 1500)).toBe(0);
    expect(g.waitBefore('a', 1999)).toBe(1);
    expect(g.waitBefore('a', 2000)).toBe(0);
    expect(g.waitBefore('a', 2400)).toBe(600);
  });
});
