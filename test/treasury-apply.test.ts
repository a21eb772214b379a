/**
 * The treasury executor against the sandbox over HTTP on 127.0.0.1 (issue 23 deliverable 3 and
 * its acceptance): one VirtualClock drives the sandbox and the client, so quotes expire,
 * collection tasks settle and withdrawals / cash-outs complete in sandbox time without waiting.
 */
import { describe, expect, it } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { openJournal } from '../src/journal/index.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { applyPlan } from '../src/treasury/apply/apply-plan.ts';
import type { ApplyEvent, ApplyOptions, ApplyResult, ExecutorPolicy } from '../src/treasury/apply/types.ts';
import { openMoveStore } from '../src/treasury/journal/move-store.ts';
import type { Move, Plan } from '../src/treasury/moves.ts';
import { drive, TrackedClock } from './support/tracked-clock.ts';
import { adminCall, ALICE, BOB, closeAfterEach, KEYS } from './support/sandbox-fixture.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const DESK_A = 'desk-a@example.com';
const DESK_B = 'desk-b@example.com';
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const defer = closeAfterEach();

interface Env {
  s: SandboxHandle;
  c: ClientHandle['client'];
  clock: VirtualClock;
  tracked: TrackedClock;
  journal: ReturnType<typeof openJournal>;
}

async function setup(balances: Record<string, string> = { PHP: '1000000', BTC: '1', ETH: '2' }): Promise<Env> {
  const clock = new VirtualClock(T0);
  const s = await startSandbox({
    clock,
    config: {
      admin: { enabled: true },
      accounts: [
        { email: ALICE, uid: '100000001', balances, keys: [KEYS.alice] },
        { email: BOB, uid: '100000002', balances: { PHP: '1000000', BTC: '1' }, keys: [KEYS.bob] },
      ],
    },
  });
  defer(() => s.close());
  const tracked = new TrackedClock(clock);
  const handle = createClient({
    baseUrl: s.baseUrl,
    exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 }, timeoutMs: 5000 } }).exchange,
    secrets: { apiKey: KEYS.alice.apiKey, apiSecret: KEYS.alice.secret },
    clock: tracked,
  });
  defer(() => handle.close());
  const journal = openJournal(':memory:');
  defer(() => journal.close());
  return { s, c: handle.client, clock, tracked, journal };
}

/** Runs `p`, moving virtual time on whenever the client or executor sleeps on it. */
function driven<T>(env: Env, p: Promise<T>): Promise<T> {
  return drive(env.tracked, p);
}

const POLICY: ExecutorPolicy = {
  convert: { slippageBps: 50, quoteRefreshes: 3 },
  destinations: {
    cold: { kind: 'withdraw', coin: 'ETH', network: 'ETH', address: EVM },
    bank: { kind: 'cash-out', currency: 'PHP', channelName: 'INSTAPAY', channelSubject: 'gcash', recipientName: 'Juan Cruz', recipientAccountNumber: '09171234567' },
  },
};

function apply(env: Env, plan: Plan, extra: Partial<ApplyOptions> = {}): Promise<ApplyResult> {
  return driven(env, applyPlan(plan, { client: env.c, journal: env.journal, policy: POLICY, approve: false, follow: { pollMs: 2000, maxWaitMs: 300_000 }, ...extra }));
}

const plan = (id: string, moves: Move[]): Plan => ({ id, asOf: T0, moves, unresolved: [] });

/** A two-sided BTCPHP book around 3,000,000 (Bob's resting orders; no trade, so the desk prices off the mid). */
async function seedBook(env: Env): Promise<void> {
  const bob = createClient({
    baseUrl: env.s.baseUrl,
    exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange,
    secrets: { apiKey: KEYS.bob.apiKey, apiSecret: KEYS.bob.secret },
    clock: env.clock,
  });
  defer(() => bob.close());
  await bob.client.spot.newOrder({ symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '2990000' });
  await bob.client.spot.newOrder({ symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '3010000' });
}

const free = (env: Env, email: string, asset: string): string => {
  const acct = env.s.accounts.findByEmail(email)!;
  return env.s.services.balances!.get(acct.id, asset).free;
};

describe('treasury apply: conversions', () => {
  it('a quote that expires before it is accepted is replaced, never accepted stale', async () => {
    const env = await setup();
    await seedBook(env);
    const events: ApplyEvent[] = [];
    let first = true;
    const onEvent = async (e: ApplyEvent): Promise<void> => {
      events.push(e);
      // The first quote: 11 s pass on the venue's clock before the executor can accept it (expiry 10 s).
      if (e.kind === 'quote' && first) {
        first = false;
        await env.clock.advance(11_000);
      }
    };
    const move: Move = { kind: 'convert', clientId: 'trcv000001', reason: 'BTC above its band', account: 'master', from: 'BTC', to: 'PHP', sourceAmount: '0.01' };
    const r = await apply(env, plan('p-convert', [move]), { onEvent });
    expect(r.stopped).toBeUndefined();
    expect(r.outcomes[0]).toMatchObject({ state: 'succeeded' });
    const quotes = events.filter((e) => e.kind === 'quote');
    expect(quotes).toHaveLength(2);
    const history = await env.c.convert.queryOrderHistory();
    // One order, of the second quote: the stale one was never accepted.
    expect(history.data.map((o) => o.quoteId)).toEqual([quotes[1]!.quoteId]);
    expect(r.outcomes[0]!.venueId).toBe(history.data[0]!.orderId);
    const row = openMoveStore(env.journal).get('trcv000001')!;
    expect(row).toMatchObject({ state: 'succeeded', attempts: 1, received: history.data[0]!.targetAmount, venueId: history.data[0]!.orderId });
    expect((row.detail!['quotes'] as { outcome: string }[]).map((q) => q.outcome)).toEqual(['stale', 'accepted SUCCESS']);
    expect(free(env, ALICE, 'BTC')).toBe('0.99');
  });

  it('a quote worse than the slippage guard is refused with the numbers that refused it; nothing is converted', async () => {
    const env = await setup();
    await seedBook(env);
    const move: Move = { kind: 'convert', clientId: 'trcv000002', reason: 'BTC above its band', account: 'master', from: 'BTC', to: 'PHP', sourceAmount: '0.01' };
    // The desk keeps a 0.2 % spread (20 bps): a 5 bps guard refuses it.
    const r = await apply(env, plan('p-guard', [move]), { policy: { ...POLICY, convert: { slippageBps: 5, quoteRefreshes: 3 } } });
    expect(r.outcomes[0]!.state).toBe('refused');
    expect(r.outcomes[0]!.detail).toMatch(/quote price 2994000 PHP per BTC is 20 bps worse than the book mid 3000000 \(BTCPHP bid [\d.]+, ask [\d.]+\); the slippage guard allows 5 bps/);
    expect(r.stopped).toMatch(/ended refused/);
    expect((await env.c.convert.queryOrderHistory()).total).toBe(0);
    expect(free(env, ALICE, 'BTC')).toBe('1');
    expect(openMoveStore(env.journal).get('trcv000002')).toMatchObject({ state: 'refused', attempts: 0, detail: { guard: { worseBps: '20', slippageBps: 5 } } });
  });
});

describe('treasury apply: an accept-quote answered 500', () => {
  it('is found in the convert history by its quote id and not accepted again', async () => {
    const env = await setup();
    await seedBook(env);
    await adminCall(env.s, 'POST', '/faults', { kind: 'error-after', endpoint: 'convert.acceptQuote', count: 1 });
    const move: Move = { kind: 'convert', clientId: 'trcv000003', reason: 'r', account: 'master', from: 'BTC', to: 'PHP', sourceAmount: '0.01' };
    const r = await apply(env, plan('p-accept-500', [move]));
    const history = await env.c.convert.queryOrderHistory();
    expect(history.total).toBe(1);
    expect(r.outcomes[0]).toMatchObject({ state: 'succeeded', venueId: history.data[0]!.orderId, resolution: { by: 'convert.queryOrderHistory', key: history.data[0]!.quoteId, found: true } });
    expect(openMoveStore(env.journal).get('trcv000003')).toMatchObject({ attempts: 1, received: history.data[0]!.targetAmount });
    expect(free(env, ALICE, 'BTC')).toBe('0.99');
  });
});

async function subAccounts(env: Env): Promise<void> {
  await env.c.subAccount.create({ accountName: DESK_A });
  await env.c.subAccount.create({ accountName: DESK_B });
}

describe('treasury apply: sub-account moves', () => {
  it('a transfer committed then answered 500 is found by its client id, not sent again', async () => {
    const env = await setup();
    await subAccounts(env);
    await adminCall(env.s, 'POST', '/faults', { kind: 'error-after', endpoint: 'subAccount.universalTransfer', count: 1 });
    const move: Move = { kind: 'transfer', clientId: 'trtf000001', reason: 'desk-a below its PHP min', from: 'master', to: DESK_A, asset: 'PHP', amount: '25000' };
    const r = await apply(env, plan('p-transfer', [move]));
    expect(r.stopped).toBeUndefined();
    expect(r.outcomes[0]).toMatchObject({ state: 'succeeded', venueId: 'trtf000001', resolution: { by: 'subAccount.universalTransferHistory', key: 'trtf000001', found: true } });
    // The venue made one transfer: the money arrived once.
    const listed = await env.c.subAccount.universalTransferHistory({ toEmail: DESK_A });
    expect(listed.result.map((t) => [t.clientTranId, t.amount, t.status])).toEqual([['trtf000001', '25000', 'success']]);
    expect(free(env, DESK_A, 'PHP')).toBe('25000');
    const row = openMoveStore(env.journal).get('trtf000001')!;
    expect(row).toMatchObject({ state: 'succeeded', attempts: 1, resolution: { found: true }, error: null });

    // Applied again: the journal says it succeeded, nothing is sent.
    const again = await apply(env, plan('p-transfer', [move]));
    expect(again.outcomes[0]).toMatchObject({ state: 'succeeded', detail: 'succeeded in an earlier apply' });
    expect((await env.c.subAccount.universalTransferHistory({ toEmail: DESK_A })).total).toBe(1);
  });

  it('a transfer refused by the venue before it ran (error-before) is looked up, found nowhere, and not sent again', async () => {
    const env = await setup();
    await subAccounts(env);
    await adminCall(env.s, 'POST', '/faults', { kind: 'error-before', endpoint: 'subAccount.universalTransfer', count: 1 });
    const move: Move = { kind: 'transfer', clientId: 'trtf000002', reason: 'r', from: 'master', to: DESK_A, asset: 'PHP', amount: '100' };
    const r = await apply(env, plan('p-transfer-2', [move]));
    expect(r.outcomes[0]).toMatchObject({ state: 'failed', resolution: { found: false, key: 'trtf000002' } });
    expect(r.outcomes[0]!.detail).toMatch(/no move with client id trtf000002 after it could no longer land: it was not made, and is not sent again/);
    expect((await env.c.subAccount.universalTransferHistory({ toEmail: DESK_A })).total).toBe(0);
    expect(free(env, DESK_A, 'PHP')).toBe('0');
  });

  it('fund collection committed then answered 500 is found by its clientRequestId and followed from INIT to its final status', async () => {
    const env = await setup();
    await subAccounts(env);
    await env.c.subAccount.universalTransfer({ toEmail: DESK_A, asset: 'PHP', amount: '5000' });
    await env.c.subAccount.universalTransfer({ toEmail: DESK_B, asset: 'BTC', amount: '0.2' });
    const move: Move = { kind: 'collect', clientId: 'trcl000001', reason: 'sweep profits to the master' };
    await adminCall(env.s, 'POST', '/faults', { kind: 'error-after', endpoint: 'subAccount.collectFromSubAccount', count: 1 });
    const r = await apply(env, plan('p-collect', [move]));
    expect(r.outcomes[0]).toMatchObject({ state: 'succeeded', venueId: 'trcl000001', resolution: { by: 'subAccount.getFundRecord', found: true } });
    expect(free(env, DESK_A, 'PHP')).toBe('0');
    expect(free(env, DESK_B, 'BTC')).toBe('0');
    expect(free(env, ALICE, 'BTC')).toBe('1');
    expect(openMoveStore(env.journal).get('trcl000001')).toMatchObject({ state: 'succeeded', attempts: 1, detail: { record: { status: 'SUCCESS' } } });
  });

  it('collection while another task is INIT (-10324) is refused without creating a task; applied again later it goes through', async () => {
    const env = await setup();
    await subAccounts(env);
    await env.c.subAccount.universalTransfer({ toEmail: DESK_A, asset: 'PHP', amount: '5000' });
    await env.c.subAccount.collectFromSubAccount({ clientRequestId: 'someone-else' });
    const move: Move = { kind: 'collect', clientId: 'trcl000002', reason: 'sweep' };
    const r = await apply(env, plan('p-collect-2', [move]));
    expect(r.outcomes[0]!.state).toBe('refused');
    expect(r.outcomes[0]!.detail).toMatch(/another collection task is still INIT \(-10324 Request repeated/);
    expect((await env.c.subAccount.getFundRecord()).map((t) => t.clientRequestId)).toEqual(['someone-else']);
    await env.clock.advance(2000);
    const again = await apply(env, plan('p-collect-2', [move]));
    expect(again.outcomes[0]).toMatchObject({ state: 'succeeded' });
    expect(openMoveStore(env.journal).get('trcl000002')).toMatchObject({ state: 'succeeded', attempts: 2 });
  });
});

describe('treasury apply: resuming after the process stopped', () => {
  /** A row journaled as sent with its request, as the executor leaves it when the process dies before the answer. */
  function journaledAsSent(env: Env, move: Extract<Move, { kind: 'transfer' }>, planId: string): void {
    const store = openMoveStore(env.journal);
    store.record(move, { planId, seq: 0, now: env.clock.now() });
    const params = { toEmail: move.to, clientTranId: move.clientId, asset: move.asset, amount: move.amount };
    const request = { endpoint: 'subAccount.universalTransfer', method: 'POST', path: '/openapi/v1/sub-account/transfer/universal-transfer', params, serverTime: env.clock.now(), recvWindow: 5000 };
    store.markSent(move.clientId, env.clock.now(), { request });
  }

  it('a transfer journaled as sent that landed is found by its client id on the next apply, not sent again', async () => {
    const env = await setup();
    await subAccounts(env);
    const move = { kind: 'transfer', clientId: 'trtf000010', reason: 'r', from: 'master', to: DESK_A, asset: 'PHP', amount: '300' } as const;
    journaledAsSent(env, move, 'p-resume');
    await env.c.subAccount.universalTransfer({ toEmail: DESK_A, clientTranId: move.clientId, asset: 'PHP', amount: '300' });
    const r = await apply(env, plan('p-resume', [move]));
    expect(r.outcomes[0]).toMatchObject({ state: 'succeeded', resolution: { found: true, key: 'trtf000010' } });
    expect((await env.c.subAccount.universalTransferHistory({ toEmail: DESK_A })).total).toBe(1);
    expect(openMoveStore(env.journal).get('trtf000010')).toMatchObject({ attempts: 1, state: 'succeeded' });
  });

  it('a transfer journaled as sent that never landed is found nowhere once it could no longer land, and is not sent', async () => {
    const env = await setup();
    await subAccounts(env);
    const move = { kind: 'transfer', clientId: 'trtf000011', reason: 'r', from: 'master', to: DESK_A, asset: 'PHP', amount: '300' } as const;
    journaledAsSent(env, move, 'p-resume-2');
    const r = await apply(env, plan('p-resume-2', [move]));
    expect(r.outcomes[0]).toMatchObject({ state: 'failed', resolution: { found: false } });
    expect((await env.c.subAccount.universalTransferHistory({ toEmail: DESK_A })).total).toBe(0);
    expect(free(env, DESK_A, 'PHP')).toBe('0');
  });
});

const aliceId = (env: Env): string => env.s.accounts.getKey(KEYS.alice.apiKey)!.accountId;
const withdrawal = (clientId: string, extra: Partial<Extract<Move, { kind: 'withdraw' }>> = {}): Move => ({
  kind: 'withdraw',
  clientId,
  reason: 'ETH above its payout threshold',
  coin: 'ETH',
  network: 'ETH',
  address: EVM,
  amount: '0.5',
  destination: 'cold',
  ...extra,
});
const cashOut = (clientId: string, extra: Partial<Extract<Move, { kind: 'cash-out' }>> = {}): Move => ({
  kind: 'cash-out',
  clientId,
  reason: 'PHP above its payout threshold',
  currency: 'PHP',
  amount: '1000',
  channelName: 'INSTAPAY',
  channelSubject: 'gcash',
  extendInfo: { recipientName: 'Juan Cruz', recipientAccountNumber: '09171234567' },
  destination: 'bank',
  ...extra,
});

describe('treasury apply: money that leaves the venue', () => {
  it('a withdrawal without approval, or to a destination not in the config, is refused and nothing is sent; approved, it goes through and is followed to SUCCESS', async () => {
    const env = await setup();
    await adminCall(env.s, 'POST', '/withdraw-whitelist', { accountId: aliceId(env), coin: 'ETH', network: 'ETH', address: EVM });

    const unapproved = await apply(env, plan('p-w', [withdrawal('trwd000001')]));
    expect(unapproved.outcomes[0]!.state).toBe('refused');
    expect(unapproved.outcomes[0]!.detail).toMatch(/withdrawal of 0.5 ETH to 'cold' needs approval: .*--approve.*nothing was sent/);

    const elsewhere = await apply(env, plan('p-w2', [withdrawal('trwd000002', { destination: 'friend', address: '0x1111111111111111111111111111111111111111' })]), { approve: true });
    expect(elsewhere.outcomes[0]!.detail).toMatch(/'friend': not a destination in the config \(destinations: cold, bank\); nothing was sent/);
    const altered = await apply(env, plan('p-w3', [withdrawal('trwd000003', { address: '0x1111111111111111111111111111111111111111' })]), { approve: true });
    expect(altered.outcomes[0]!.detail).toMatch(/does not match the configured destination \(address "0x1111111111111111111111111111111111111111" where the config has "0x5290/);
    expect(await env.c.wallet.withdrawHistory()).toEqual([]);
    expect(free(env, ALICE, 'ETH')).toBe('2');

    const approved = await apply(env, plan('p-w', [withdrawal('trwd000001')]), { approve: true });
    expect(approved.stopped).toBeUndefined();
    const [record] = await env.c.wallet.withdrawHistory();
    expect(record).toMatchObject({ withdrawOrderId: 'trwd000001', status: 1, amount: '0.5' });
    expect(approved.outcomes[0]).toMatchObject({ state: 'succeeded', venueId: record!.id });
    expect(openMoveStore(env.journal).get('trwd000001')).toMatchObject({ state: 'succeeded', attempts: 1, venueId: record!.id, error: null });
  });

  it('a withdrawal to a configured address missing from the venue whitelist is refused before sending', async () => {
    const env = await setup();
    const r = await apply(env, plan('p-w4', [withdrawal('trwd000004')]), { approve: true });
    expect(r.outcomes[0]!.detail).toMatch(/is not on the venue's withdrawal whitelist .*nothing was sent/);
    expect(await env.c.wallet.withdrawHistory()).toEqual([]);
  });

  it('a cash-out without approval is refused with nothing sent; approved, it is followed from PENDING to SUCCEEDED', async () => {
    const env = await setup();
    const unapproved = await apply(env, plan('p-c', [cashOut('1234567890123401')]));
    expect(unapproved.outcomes[0]).toMatchObject({ state: 'refused' });
    expect(unapproved.outcomes[0]!.detail).toMatch(/cash-out of 1000 PHP to 'bank' needs approval/);
    expect((await env.c.fiat.historyV2({})).total).toBe(0);
    const wrongChannel = await apply(env, plan('p-c2', [cashOut('1234567890123402', { channelSubject: 'bpi' })]), { approve: true });
    expect(wrongChannel.outcomes[0]!.detail).toMatch(/channelSubject "bpi" where the config has "gcash"/);
    expect((await env.c.fiat.historyV2({})).total).toBe(0);

    const approved = await apply(env, plan('p-c', [cashOut('1234567890123401')]), { approve: true });
    expect(approved.outcomes[0]).toMatchObject({ state: 'succeeded', venueId: '1234567890123401' });
    expect((await env.c.fiat.details({ internalOrderId: '1234567890123401' })).data.status).toBe('SUCCEEDED');
    expect(free(env, ALICE, 'PHP')).toBe('998990');
  });

  it('a cash-out committed then answered 500 (fate unknown) is found in the fiat history by its internalOrderId, not sent again', async () => {
    const env = await setup();
    await adminCall(env.s, 'POST', '/faults', { kind: 'error-after', endpoint: 'fiat.cashOut', count: 1 });
    const r = await apply(env, plan('p-c3', [cashOut('1234567890123403')]), { approve: true });
    expect(r.outcomes[0]).toMatchObject({ state: 'succeeded', resolution: { by: 'fiat.historyV2', key: '1234567890123403', found: true } });
    expect((await env.c.fiat.historyV2({})).total).toBe(1);
  });
});
