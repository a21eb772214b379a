/**
 * Ids of the sandbox's money records (notes 5.1 ids above 2^53) over real HTTP: records of
 * different kinds never share an id. The money ledger (asset transaction history, spec 2.12, 4.9)
 * keys entries by that id, so a shared one let a withdrawal's FAILED mark a paid payment request's
 * credit failed too.
 */
import { describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const START = Date.UTC(2025, 0, 15, 12, 0, 0);
const ADDRESS = 'bc1qsxaukky280rwp04ge78f30507y48wrr5xq6pha';

const defer = closeAfterEach();

async function signed(s: SandboxHandle, method: string, path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const q = new URLSearchParams({ ...params, timestamp: String(s.clock.now()) }).toString();
  const r = await fetch(`${s.baseUrl}${path}?${q}&signature=${hmacSha256Hex(s.apiSecret, q)}`, { method, headers: { 'X-SERVICE-APIKEY': s.apiKey } });
  const body = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function admin(s: SandboxHandle, path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const json = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(json)).toBe(200);
  return json;
}

describe('sandbox money record ids', () => {
  it('a payment request and a withdrawal made at one sandbox time get different ids, and settling one leaves the other alone', async () => {
    // A clock that does not move: every area's id sequence is seeded at the same instant.
    const s = await startSandbox({ config: { admin: { enabled: true } }, clock: new VirtualClock(START) });
    defer(() => s.close());
    const accountId = s.accounts.getKey(s.apiKey)!.accountId;

    const request = (await signed(s, 'POST', '/openapi/v3/payment-request/payment-requests', { payer_contact_info: 'payer@example.com', receiving_account: 'BTC', amount: '0.01', message: 'lunch' }))['payment-request'] as { id: string };
    await admin(s, `/payment-requests/${request.id}/pay`, {});
    await admin(s, '/withdraw-whitelist', { accountId, coin: 'BTC', network: 'BTC', address: ADDRESS });
    const withdrawal = (await signed(s, 'POST', '/openapi/wallet/v1/withdraw/apply', { coin: 'BTC', network: 'BTC', address: ADDRESS, amount: '0.001' })) as { id: string };
    expect(withdrawal.id).not.toBe(request.id);

    await admin(s, `/withdrawals/${withdrawal.id}`, { status: 'FAILED' });
    const history = (await signed(s, 'GET', '/openapi/v1/asset/transaction/history', { tokenId: 'BTC', startTime: String(START - 60_000) })) as { transfers: { txId: string; bizSubject: string; status: string; changed: string }[] };
    expect(history.transfers.map((t) => [t.bizSubject, t.changed, t.status])).toEqual([
      ['P2P_TRANSFER', '0.01', 'success'],
      ['CHAIN_WITHDRAWAL', '-0.0012', 'failed'],
    ]);
  });
});
