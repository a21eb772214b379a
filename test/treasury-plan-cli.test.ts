/**
 * `halyard treasury plan` end to end (issue 23 acceptance: "a plan on an unbalanced set of accounts
 * (master plus two sub-accounts) lists the moves that bring each inside its bands"): the sandbox on
 * 127.0.0.1 (VirtualClock), accounts and balances made through its admin API over HTTP, a book on
 * BTCPHP from a maker's resting orders (the prices: book-ticker mids), the CLI run in process.
 * The moves printed are applied to the balances in the planner's model and every band holds.
 * Bad input: an unknown sub-account, an unknown asset and a withdrawal address that is not one
 * of its network are each named (exit 2).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/app/create-client.ts';
import { runCli } from '../src/cli/index.ts';
import { parseConfig } from '../src/config/load.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import type { Plan } from '../src/treasury/moves.ts';
import { parseTreasuryPolicy } from '../src/treasury/policy/parse.ts';
import { violations } from '../src/treasury/plan/bands.ts';
import { applyMoves } from '../src/treasury/plan/model.ts';
import type { Balances } from '../src/treasury/plan/types.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const defer = closeAfterEach();
const T0 = Date.UTC(2025, 2, 3, 9);
const DESK_A = 'desk-a@example.com';
const DESK_B = 'desk-b@example.com';

async function admin(s: SandboxHandle, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${s.baseUrl}/sandbox-admin/v1${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`admin ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A fresh master with two sub-accounts, out of their bands; a maker quoting BTCPHP around 3,500,000. */
async function rig() {
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
  return { s, env: { HALYARD_API_KEY: String(key['apiKey']), HALYARD_API_SECRET: String(key['secret']) }, dir };
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

describe('halyard treasury plan (sandbox over HTTP)', () => {
  it('master + two sub-accounts out of their bands: the moves listed bring each inside, nothing is sent', async () => {
    const { s, env, dir } = await rig();
    const file = join(dir, 'treasury.json');
    writeFileSync(file, JSON.stringify(POLICY));
    const out = join(dir, 'plan.json');
    const r = await cli(['treasury', 'plan', '--config', file, '--base-url', s.baseUrl, '--json', '--out', out], env);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.out) as { plan: Plan; before: unknown[]; prices: Record<string, string> };
    expect(printed.prices['BTC']).toBe('3500000');
    expect(printed.before).toEqual([
      { account: DESK_A, asset: 'PHP', reason: '2000 free, below the min 20000' },
      { account: DESK_B, asset: 'PHP', reason: '400000 held, above the max 100000' },
      { account: 'master', asset: 'BTC', reason: expect.stringContaining('outside 30 % +/- 5') },
    ]);
    const plan = printed.plan;
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(plan);
    expect(plan.unresolved).toEqual([]);
    const kinds = plan.moves.map((m) => `${m.kind}${m.kind === 'transfer' ? ` ${m.from}->${m.to}` : m.kind === 'convert' ? ` ${m.from}->${m.to}` : ''}`);
    expect(kinds[0]).toBe(`transfer ${DESK_B}->master`);
    expect(kinds.at(-1)).toBe(`transfer master->${DESK_A}`);
    expect(kinds.slice(1, -1).every((k) => k === 'convert BTC->PHP')).toBe(true);
    // Applied in the model, every account lands inside its bands.
    const balances: Balances = {
      master: { BTC: { free: '1', locked: '0' }, PHP: { free: '100000', locked: '0' } },
      [DESK_A]: { PHP: { free: '2000', locked: '0' }, BTC: { free: '0.01', locked: '0' } },
      [DESK_B]: { PHP: { free: '400000', locked: '0' } },
    };
    const after = applyMoves(balances, plan.moves, printed.prices, 20);
    expect(violations(parseTreasuryPolicy(POLICY), after, printed.prices)).toEqual([]);
    // Nothing was sent: the balances are as funded.
    const bal = (await admin(s, 'GET', `/balances?accountId=${s.accounts.findByEmail(DESK_B)?.id}`)) as unknown as { asset: string; free: string }[];
    expect(bal.find((b) => b.asset === 'PHP')?.free).toBe('400000');

    const text = await cli(['treasury', 'plan', '--config', file, '--base-url', s.baseUrl], env);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`transfer  300000 PHP: ${DESK_B} -> master`);
    expect(text.out).toContain(`transfer  18000 PHP: master -> ${DESK_A}`);
    expect(text.out).toContain('After these moves every account is inside its bands');
    expect(text.out).toContain('Nothing was sent.');
  });

  it('bad input named before anything is planned: unknown sub-account and asset, an address not of its network, bands impossible at these balances', async () => {
    const { s, env, dir } = await rig();
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        accounts: { master: { assets: { DOGE: { min: '5' } } }, 'ghost@example.com': { assets: { PHP: { min: '1' } } } },
        destinations: { cold: { kind: 'withdraw', coin: 'BTC', network: 'BTC', address: 'not-an-address' } },
      }),
    );
    const r = await cli(['treasury', 'plan', '--config', file, '--base-url', s.baseUrl], env);
    expect(r.code).toBe(2);
    expect(r.err).toContain("accounts.master.assets.DOGE: unknown asset 'DOGE'");
    expect(r.err).toContain('accounts.ghost@example.com: unknown account: not a sub-account of this master (sub-accounts: desk-a@example.com, desk-b@example.com)');
    expect(r.err).toMatch(/destinations\.cold\.address: 'not-an-address' is not a BTC address on BTC/);

    writeFileSync(file, JSON.stringify({ accounts: { master: { assets: { PHP: { target: 2, band: 1, min: '200000' } } } } }));
    const conflict = await cli(['treasury', 'plan', '--config', file, '--base-url', s.baseUrl], env);
    expect(conflict.code).toBe(2);
    expect(conflict.err).toMatch(/accounts\.master\.assets\.PHP: 2 % \+\/- 1, at least 200000 free cannot hold at this equity/);

    writeFileSync(file, JSON.stringify({ accounts: { master: { assets: { BTC: { target: 80, band: 5 }, PHP: { target: 30, band: 5 } } } } }));
    const sum = await cli(['treasury', 'plan', '--config', file, '--base-url', s.baseUrl], env);
    expect(sum.code).toBe(2);
    expect(sum.err).toContain('accounts.master.assets: target weights sum to 110 %, over 100 %: they cannot all hold at once');
  });
});
