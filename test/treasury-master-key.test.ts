/**
 * The treasury refuses a sub-account's API key before anything runs (spec 4.9: the sub-account
 * list, asset and transfers the treasury uses are master-only). Against the sandbox over HTTP on
 * 127.0.0.1: a master (the sandbox's first key's account) with a sub-account that has its own key.
 * With the sub-account's key, `halyard run` with a `treasury` section (startBot), `halyard treasury
 * plan` and `halyard treasury apply` each stop with a ConfigError naming `treasury` and the reason
 * (exit 2), before the journal is opened or anything is sent; the master's key passes the check.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { runCli } from '../src/cli/index.ts';
import { ConfigError } from '../src/config/errors.ts';
import { parseConfig } from '../src/config/load.ts';
import type { SandboxHandle } from '../src/sandbox/server.ts';
import { requireMasterKey } from '../src/treasury/policy/master-key.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';
import { tempDir, testBot, testSandbox } from './bot-harness.ts';

const defer = closeAfterEach();
const DESK = 'desk@example.com';

async function admin(s: SandboxHandle, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${s.baseUrl}/sandbox-admin/v1${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`admin ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The sandbox, its first key's account as the master, and a sub-account of it with its own key. */
async function rig() {
  const s = await testSandbox(defer);
  const masterId = s.accounts.getKey(s.apiKey)?.accountId ?? '';
  const sub = await admin(s, 'POST', '/accounts', { email: DESK, masterId, balances: { PHP: '500000', BTC: '1' } });
  const key = await admin(s, 'POST', '/keys', { accountId: sub['id'] });
  return { s, subId: String(sub['id']), subEnv: { HALYARD_API_KEY: String(key['apiKey']), HALYARD_API_SECRET: String(key['secret']) } };
}

const POLICY = { valuation: 'PHP', accounts: { master: { assets: { PHP: { min: '50000' } } }, [DESK]: { assets: { PHP: { max: '100000' } } } } };
const SUB_KEY = /treasury: the API key belongs to a sub-account \(GET \/openapi\/v1\/sub-account\/list \(master-only\) answered -1152: .*\): treasury moves .* need the master account's key/;

async function cli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { env, out: (t) => out.push(t), err: (t) => err.push(t), tty: { out: false, err: false } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const balancesOf = async (s: SandboxHandle, accountId: string) => {
  const rows = (await admin(s, 'GET', `/balances?accountId=${accountId}`)) as unknown as { asset: string; free: string; locked: string }[];
  return rows;
};

describe('treasury: a sub-account key is refused at start', () => {
  it('halyard run with a treasury section: ConfigError on `treasury` before the journal or any order', async () => {
    const { s, subId, subEnv } = await rig();
    const dir = tempDir(defer);
    const journal = join(dir, 'bot.db');
    const before = await balancesOf(s, subId);
    const started = testBot(defer, s, journal, {
      // It would buy at once if it started.
      strategies: [{ strategy: 'timed-orders', name: 'spender', params: { symbol: 'BTCPHP', price: '3510000', quantity: '0.02', everyMs: 100_000_000 } }],
      treasury: { ...POLICY, schedule: { everyMs: 60_000, firstAfterMs: 30_000 } },
    }, { env: subEnv, configSource: 'bot.json' });
    const e = (await started.then(() => undefined, (x: unknown) => x)) as ConfigError;
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.issues).toHaveLength(1);
    expect(e.issues[0]).toMatch(SUB_KEY);
    expect(e.message).toContain('invalid configuration in bot.json');
    // Nothing started: no journal, the sub-account's balances untouched (nothing locked, nothing spent).
    expect(existsSync(journal)).toBe(false);
    expect(await balancesOf(s, subId)).toEqual(before);
  });

  it('halyard treasury plan and apply: exit 2 naming `treasury`, nothing journaled or sent', async () => {
    const { s, subId, subEnv } = await rig();
    const dir = mkdtempSync(join(tmpdir(), 'halyard-treasury-key-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'treasury.json');
    writeFileSync(file, JSON.stringify(POLICY));
    const before = await balancesOf(s, subId);
    const plan = await cli(['treasury', 'plan', '--config', file, '--base-url', s.baseUrl], subEnv);
    expect(plan.code).toBe(2);
    expect(plan.out).toBe('');
    expect(plan.err).toMatch(SUB_KEY);
    const journal = join(dir, 'j.db');
    const apply = await cli(['treasury', 'apply', '--config', file, '--base-url', s.baseUrl, '--journal', journal], subEnv);
    expect(apply.code).toBe(2);
    expect(apply.err).toMatch(SUB_KEY);
    expect(apply.out).toBe('');
    expect(await balancesOf(s, subId)).toEqual(before);
  });

  it("the master's key passes; a sub-account's is told apart by the spec's master-only and sub-only endpoints; a key without the right to them is named as such", async () => {
    const { s, subEnv } = await rig();
    const exchange = parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange;
    const master = createClient({ baseUrl: s.baseUrl, clock: s.clock, exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret } });
    defer(() => master.close());
    await expect(requireMasterKey(master.client, 'policy.json')).resolves.toBeUndefined();
    const sub = createClient({ baseUrl: s.baseUrl, clock: s.clock, exchange, secrets: { apiKey: subEnv.HALYARD_API_KEY, apiSecret: subEnv.HALYARD_API_SECRET } });
    defer(() => sub.close());
    await expect(requireMasterKey(sub.client, 'policy.json')).rejects.toThrow(SUB_KEY);
    // A master's key limited to Spot (role 2, TRADE_ONLY; spec 5.1): both answer -1152, so it is not called a sub-account's.
    const spotKey = await admin(s, 'POST', '/keys', { accountId: s.accounts.getKey(s.apiKey)?.accountId, roles: [2] });
    const spot = createClient({ baseUrl: s.baseUrl, clock: s.clock, exchange, secrets: { apiKey: String(spotKey['apiKey']), apiSecret: String(spotKey['secret']) } });
    defer(() => spot.close());
    await expect(requireMasterKey(spot.client, 'policy.json')).rejects.toThrow(/treasury: the API key may not use the master's sub-account endpoints \(GET \/openapi\/v1\/sub-account\/list \(master-only\) answered -1152: .*\): treasury moves need the master account's key, with access to its sub-accounts/);
  });
});
