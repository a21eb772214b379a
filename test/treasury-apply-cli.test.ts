/**
 * `halyard treasury apply` and `treasury history` over the sandbox (issue 23 deliverables 3 and 6,
 * acceptance "applied ... the journal holds every move with its final state"): a plan file of a
 * transfer (answered 500 after it committed), a conversion and a withdrawal, applied without then
 * with --approve; the journal and `history` show every move, its client id, venue id and final
 * state, and how the unknown outcome was resolved. The commands' functions run in-process with a
 * client on the sandbox's VirtualClock (the executor's polls advance it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { treasuryApply } from '../src/cli/commands/money/treasury-apply.ts';
import { runTreasuryHistory } from '../src/cli/commands/money/treasury-history.ts';
import type { CliIo } from '../src/cli/io.ts';
import { parseConfig } from '../src/config/load.ts';
import { openJournal } from '../src/journal/index.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { openMoveStore } from '../src/treasury/journal/move-store.ts';
import type { Plan } from '../src/treasury/moves.ts';
import { drive, TrackedClock } from './support/tracked-clock.ts';
import { adminCall, ALICE, BOB, closeAfterEach, KEYS } from './support/sandbox-fixture.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const DESK_A = 'desk-a@example.com';
const defer = closeAfterEach();

interface Env {
  s: SandboxHandle;
  clock: VirtualClock;
  tracked: TrackedClock;
  handle: ClientHandle;
  dir: string;
}

async function setup(): Promise<Env> {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({
    clock,
    config: {
      admin: { enabled: true },
      accounts: [
        { email: ALICE, uid: '100000001', balances: { PHP: '1000000', BTC: '1', ETH: '2' }, keys: [KEYS.alice] },
        { email: BOB, uid: '100000002', balances: { PHP: '1000000', BTC: '1' }, keys: [KEYS.bob] },
      ],
    },
  });
  defer(() => s.close());
  const tracked = new TrackedClock(clock);
  const exchange = parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange;
  const handle = createClient({ baseUrl: s.baseUrl, exchange, secrets: { apiKey: KEYS.alice.apiKey, apiSecret: KEYS.alice.secret }, clock: tracked });
  defer(() => handle.close());
  const bob = createClient({ baseUrl: s.baseUrl, exchange, secrets: { apiKey: KEYS.bob.apiKey, apiSecret: KEYS.bob.secret }, clock });
  defer(() => bob.close());
  await bob.client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '2990000' });
  await bob.client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '3010000' });
  await handle.client.subAccount.create({ accountName: DESK_A });
  await adminCall(s, 'POST', '/withdraw-whitelist', { accountId: s.accounts.getKey(KEYS.alice.apiKey)!.accountId, coin: 'ETH', network: 'ETH', address: EVM });
  const dir = mkdtempSync(join(tmpdir(), 'halyard-treasury-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return { s, clock, tracked, handle, dir };
}

function captureIo(): CliIo & { lines: string[]; errs: string[] } {
  const lines: string[] = [];
  const errs: string[] = [];
  return { env: {}, out: (t) => void lines.push(t), err: (t) => void errs.push(t), lines, errs, tty: { out: false, err: false } };
}

/** Runs `p`, moving virtual time on whenever the client or executor sleeps on it. */
function driven<T>(env: Env, p: Promise<T>): Promise<T> {
  return drive(env.tracked, p);
}

const POLICY = {
  convert: { slippageBps: 50, quoteRefreshes: 2 },
  destinations: { cold: { kind: 'withdraw', coin: 'ETH', network: 'ETH', address: EVM } },
};

const PLAN: Plan = {
  id: 'cli-plan-1',
  asOf: T0,
  unresolved: [],
  moves: [
    { kind: 'transfer', clientId: 'tpcli0000000000001t000', reason: 'desk-a below its PHP min', from: 'master', to: DESK_A, asset: 'PHP', amount: '20000' },
    { kind: 'convert', clientId: 'tpcli0000000000001x001', reason: 'BTC above its band', account: 'master', from: 'BTC', to: 'PHP', sourceAmount: '0.02' },
    { kind: 'withdraw', clientId: 'tpcli0000000000001w002', reason: 'ETH above 1.5', coin: 'ETH', network: 'ETH', address: EVM, amount: '0.3', destination: 'cold' },
  ],
};

describe('halyard treasury apply / history', () => {
  it('applies a plan file: the withdrawal waits for --approve; the journal and history show every move with its final state and how the 500 was resolved', async () => {
    const env = await setup();
    const policyFile = join(env.dir, 'treasury.json');
    const planFile = join(env.dir, 'plan.json');
    const journalFile = join(env.dir, 'journal.db');
    writeFileSync(policyFile, JSON.stringify(POLICY));
    writeFileSync(planFile, JSON.stringify(PLAN));
    await adminCall(env.s, 'POST', '/faults', { kind: 'error-after', endpoint: 'subAccount.universalTransfer', count: 1 });

    const io = captureIo();
    const args = { config: policyFile, plan: planFile, journal: journalFile };
    expect(await driven(env, treasuryApply(io, args, { client: env.handle }))).toBe(1);
    const first = io.lines.join('\n');
    expect(first).toMatch(/0\. transfer +SUCCEEDED +client id tpcli0000000000001t000, venue id tpcli0000000000001t000, 1 sent: 20000 PHP master -> desk-a@example.com/);
    expect(first).toMatch(/unknown outcome resolved: found by subAccount\.universalTransferHistory \(tpcli0000000000001t000\)/);
    expect(first).toMatch(/1\. convert +SUCCEEDED +client id tpcli0000000000001x001, venue id \w+, 1 sent: 0\.02 BTC -> PHP \(59880 PHP\) in master/);
    expect(first).toMatch(/2\. withdraw +REFUSED +client id tpcli0000000000001w002, no venue id, 0 sent[^\n]*\n +withdrawal of 0\.3 ETH to 'cold' needs approval/);
    expect(first).toMatch(/stopped: move 2 \(withdraw tpcli0000000000001w002\) ended refused/);
    expect(await env.handle.client.wallet.withdrawHistory()).toEqual([]);

    const approved = captureIo();
    expect(await driven(env, treasuryApply(approved, { ...args, approve: true }, { client: env.handle }))).toBe(0);
    expect(approved.lines.join('\n')).toMatch(/2\. withdraw +SUCCEEDED +client id tpcli0000000000001w002, venue id \d+, 1 sent/);
    expect(approved.lines.join('\n')).toMatch(/\nall 3 moves succeeded$/);
    // Nothing was sent twice: one transfer, one conversion, one withdrawal at the venue.
    expect((await env.handle.client.subAccount.universalTransferHistory({ toEmail: DESK_A })).total).toBe(1);
    expect((await env.handle.client.convert.queryOrderHistory()).total).toBe(1);
    expect(await env.handle.client.wallet.withdrawHistory()).toHaveLength(1);

    const journal = openJournal(journalFile, { readonly: true });
    try {
      expect(openMoveStore(journal).list().map((r) => [r.clientId, r.state, r.attempts, r.venueId !== null])).toEqual([
        ['tpcli0000000000001t000', 'succeeded', 1, true],
        ['tpcli0000000000001x001', 'succeeded', 1, true],
        ['tpcli0000000000001w002', 'succeeded', 1, true],
      ]);
    } finally {
      journal.close();
    }

    const history = captureIo();
    runTreasuryHistory(history, { journal: journalFile });
    expect(history.lines.join('\n')).toMatch(/^plan cli-plan-1, first journaled/);
    const json = captureIo();
    runTreasuryHistory(json, { journal: journalFile, json: true });
    const rows = JSON.parse(json.lines.join('')) as { clientId: string; state: string; venueId: string; resolutionText: string | null }[];
    expect(rows.map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(rows[0]!.resolutionText).toMatch(/^unknown outcome resolved: found by subAccount\.universalTransferHistory/);
    expect(rows[2]!.resolutionText).toBeNull();
  });

  it('a plan file with bad moves is refused naming each problem; nothing is journaled or sent', async () => {
    const env = await setup();
    const policyFile = join(env.dir, 'treasury.json');
    const planFile = join(env.dir, 'plan.json');
    const journalFile = join(env.dir, 'journal.db');
    writeFileSync(policyFile, JSON.stringify(POLICY));
    const bad = { ...PLAN, moves: [{ ...PLAN.moves[0], amount: 20000 }, { ...PLAN.moves[1], sourceAmount: '-1' }, { ...PLAN.moves[2], clientId: PLAN.moves[0]!.clientId }] };
    writeFileSync(planFile, JSON.stringify(bad));
    const io = captureIo();
    const error = await treasuryApply(io, { config: policyFile, plan: planFile, journal: journalFile }, { client: env.handle }).catch((e: unknown) => e);
    expect(String(error)).toMatch(/moves\.0\.amount: .*string/);
    expect(String(error)).toMatch(/moves\.1\.sourceAmount: an amount must be greater than 0 \(got -1\)/);
    expect(String(error)).toMatch(/moves\.2\.clientId: tpcli0000000000001t000 is also moves\.0's/);
    expect((await env.handle.client.subAccount.universalTransferHistory({ toEmail: DESK_A })).total).toBe(0);
  });
});
