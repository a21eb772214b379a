/**
 * Issue 23 acceptance, end to end through the command line on the sandbox over HTTP: "A plan on an
 * unbalanced set of accounts (master plus two sub-accounts) lists the moves that bring each inside
 * its bands; applied, the accounts are inside their bands and the journal holds every move with
 * its final state." `halyard treasury apply` plans from the policy and applies (transfers between
 * master and sub-accounts, conversions checked against the BTCPHP book); a second plan finds
 * nothing to do; `treasury history` lists every move as journaled.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { runCli } from '../src/cli/index.ts';
import { parseConfig } from '../src/config/load.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.UTC(2025, 2, 3, 9);
const DESK_A = 'desk-a@example.com';
const DESK_B = 'desk-b@example.com';

async function admin(s: SandboxHandle, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${s.baseUrl}${s.config.admin.prefix}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`admin ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const POLICY = {
  valuation: 'PHP',
  accounts: {
    master: { assets: { BTC: { target: 30, band: 5 }, PHP: { min: '50000' } } },
    [DESK_A]: { assets: { PHP: { min: '20000' } } },
    [DESK_B]: { assets: { PHP: { max: '100000' } } },
  },
};

async function cli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { env, out: (t) => out.push(t), err: (t) => err.push(t), tty: { out: false, err: false } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('halyard treasury apply (acceptance, sandbox over HTTP)', () => {
  it('master + two sub-accounts out of their bands: applied, every account is inside its bands and the journal holds every move with its final state', async () => {
    const s = await startSandbox({ clock: new VirtualClock(T0), config: { admin: { enabled: true } } });
    defer(() => s.close());
    const master = await admin(s, 'POST', '/accounts', { email: 'treasurer@example.com', balances: { BTC: '1', PHP: '100000' } });
    const key = await admin(s, 'POST', '/keys', { accountId: master['id'] });
    await admin(s, 'POST', '/accounts', { email: DESK_A, masterId: master['id'], balances: { PHP: '2000', BTC: '0.01' } });
    await admin(s, 'POST', '/accounts', { email: DESK_B, masterId: master['id'], balances: { PHP: '400000' } });
    const maker = await admin(s, 'POST', '/accounts', { email: 'maker@example.com', balances: { BTC: '10', PHP: '100000000' } });
    const makerKey = await admin(s, 'POST', '/keys', { accountId: maker['id'] });
    const m = createClient({ baseUrl: s.baseUrl, clock: s.clock, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: String(makerKey['apiKey']), apiSecret: String(makerKey['secret']) } });
    defer(() => m.close());
    await m.client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '3490000' });
    await m.client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '3510000' });
    const dir = mkdtempSync(join(tmpdir(), 'halyard-treasury-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const env = { HALYARD_API_KEY: String(key['apiKey']), HALYARD_API_SECRET: String(key['secret']) };
    const file = join(dir, 'treasury.json');
    const journal = join(dir, 'journal.db');
    writeFileSync(file, JSON.stringify(POLICY));

    const applied = await cli(['treasury', 'apply', '--config', file, '--base-url', s.baseUrl, '--journal', journal, '--json'], env);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    const result = JSON.parse(applied.out) as { planId: string; stopped: string | null; moves: { kind: string; state: string; clientId: string; venueId: string | null; attempts: number }[] };
    expect(result.stopped).toBeNull();
    expect(result.moves.length).toBeGreaterThanOrEqual(3);
    expect(result.moves.every((mv) => mv.state === 'succeeded' && mv.venueId !== null && mv.attempts === 1)).toBe(true);
    expect(new Set(result.moves.map((mv) => mv.kind))).toEqual(new Set(['transfer', 'convert']));

    // Planned again on the balances now at the venue: nothing is outside a band.
    const again = await cli(['treasury', 'plan', '--config', file, '--base-url', s.baseUrl, '--json'], env);
    expect(again.code).toBe(0);
    const replanned = JSON.parse(again.out) as { plan: { moves: unknown[] }; before: unknown[] };
    expect(replanned.before).toEqual([]);
    expect(replanned.plan.moves).toEqual([]);

    const history = await cli(['treasury', 'history', '--journal', journal], env);
    expect(history.code).toBe(0);
    for (const mv of result.moves) expect(history.out).toMatch(new RegExp(`SUCCEEDED +client id ${mv.clientId}, venue id ${mv.venueId}, 1 sent`));
  });
});
