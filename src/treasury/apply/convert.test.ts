/**
 * The convert envelope's statuses the sandbox never gives (it settles conversions at once): an
 * accepted quote PROCESSING followed through the order history to SUCCESS or FAILED; "Quote
 * expired" answered to an accept (a new quote, checked again); "Insufficient balance" (the move
 * fails with the venue's words). A stand-in client answers; time is a VirtualClock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import { EnvelopeError } from '../../exchange/errors/errors.ts';
import { openJournal, type Journal } from '../../journal/index.ts';
import { VirtualClock } from '../../time/virtual-clock.ts';
import { openMoveStore } from '../journal/move-store.ts';
import type { Move } from '../moves.ts';
import { applyPlan } from './apply-plan.ts';
import type { ApplyResult } from './types.ts';

let journal: Journal | undefined;
afterEach(() => journal?.close());

const refusal = (message: string) =>
  new EnvelopeError('ENVELOPE', `convert.acceptQuote: 10000003 ${message}`, { endpoint: 'convert.acceptQuote', outcome: 'rejected', category: 'envelope', envelopeStatus: 10000003, venueMessage: message });

interface Script {
  accepts: (() => { orderId: string; status: 'SUCCESS' | 'PROCESSING' } | Error)[];
  history: string[];
}

function fakeClient(clock: VirtualClock, script: Script) {
  let quotes = 0;
  let accepts = 0;
  let reads = 0;
  const accepted: string[] = [];
  const client = {
    rest: { clock, recvWindow: 5000, serverClock: { now: () => clock.now(), ensureSynced: async () => ({}) } },
    general: { exchangeInfo: async () => ({ symbols: [{ symbol: 'BTCPHP', baseAsset: 'BTC', quoteAsset: 'PHP' }] }) },
    market: { bookTicker: async () => ({ symbol: 'BTCPHP', bidPrice: '2990000', bidQty: '1', askPrice: '3010000', askQty: '1' }) },
    convert: {
      getQuote: async () => {
        quotes++;
        return { status: 0, data: { quoteId: `q${quotes}`, sourceCurrency: 'BTC', targetCurrency: 'PHP', sourceAmount: '0.01', price: '2994000', targetAmount: '29940', expiry: 10 } };
      },
      acceptQuote: async ({ quoteId }: { quoteId: string }) => {
        const next = script.accepts[accepts++]!();
        if (next instanceof Error) throw next;
        accepted.push(quoteId);
        return { status: 0, data: next };
      },
      queryOrderHistory: async () => {
        const status = script.history[Math.min(reads++, script.history.length - 1)]!;
        const quoteId = accepted.at(-1) ?? 'none';
        return { status: 0, data: [{ orderId: 'o1', quoteId, status, targetAmount: '29940', errorMessage: status === 'FAILED' ? 'liquidity withdrawn' : '' }], total: 1 };
      },
    },
  };
  return { client: client as unknown as ExchangeClient, accepted, counts: () => ({ quotes, accepts }) };
}

const move: Move = { kind: 'convert', clientId: 'c1', reason: 'r', account: 'master', from: 'BTC', to: 'PHP', sourceAmount: '0.01' };

async function run(script: Script): Promise<{ r: ApplyResult; fake: ReturnType<typeof fakeClient> }> {
  const clock = new VirtualClock(1_700_000_000_000);
  const fake = fakeClient(clock, script);
  journal = openJournal(':memory:');
  const p = applyPlan({ id: 'p', asOf: 0, moves: [move], unresolved: [] }, {
    client: fake.client,
    journal,
    policy: { convert: { slippageBps: 50, quoteRefreshes: 2 }, destinations: {} },
    approve: false,
    follow: { pollMs: 1000, maxWaitMs: 10_000 },
  });
  let done = false;
  void p.finally(() => (done = true));
  while (!done) {
    await new Promise((r) => setTimeout(r, 1));
    if (clock.pending > 0) await clock.advance(1000);
  }
  return { r: await p, fake };
}

describe('convert statuses (spec 3.2, 7.6)', () => {
  it('PROCESSING is followed through the order history until SUCCESS', async () => {
    const { r } = await run({ accepts: [() => ({ orderId: 'o1', status: 'PROCESSING' })], history: ['PROCESSING', 'PROCESSING', 'SUCCESS'] });
    expect(r.outcomes[0]).toMatchObject({ state: 'succeeded', venueId: 'o1' });
    expect(openMoveStore(journal!).get('c1')).toMatchObject({ state: 'succeeded', received: '29940', attempts: 1 });
  });

  it('PROCESSING then FAILED fails the move with the venue\'s words', async () => {
    const { r } = await run({ accepts: [() => ({ orderId: 'o1', status: 'PROCESSING' })], history: ['TODO', 'FAILED'] });
    expect(r.outcomes[0]).toMatchObject({ state: 'failed', detail: 'the convert order failed: liquidity withdrawn' });
  });

  it('still PROCESSING when the follow-up window ends: pending in the journal, the plan stops', async () => {
    const { r } = await run({ accepts: [() => ({ orderId: 'o1', status: 'PROCESSING' })], history: ['PROCESSING'] });
    expect(r.outcomes[0]!.state).toBe('pending');
    expect(r.stopped).toMatch(/ended pending/);
    expect(openMoveStore(journal!).get('c1')).toMatchObject({ state: 'pending', venueId: 'o1' });
  });

  it('"Quote expired" answered to an accept: a new quote is asked for and accepted; nothing was converted twice', async () => {
    const { r, fake } = await run({ accepts: [() => refusal('Quote expired'), () => ({ orderId: 'o2', status: 'SUCCESS' })], history: ['SUCCESS'] });
    expect(r.outcomes[0]).toMatchObject({ state: 'succeeded', venueId: 'o2' });
    expect(fake.counts()).toEqual({ quotes: 2, accepts: 2 });
    expect(fake.accepted).toEqual(['q2']);
  });

  it('"Insufficient balance" fails the move with the venue\'s words; no new quote', async () => {
    const { r, fake } = await run({ accepts: [() => refusal('Insufficient balance')], history: [] });
    expect(r.outcomes[0]).toMatchObject({ state: 'failed' });
    expect(r.outcomes[0]!.detail).toMatch(/refused by the venue: convert\.acceptQuote: 10000003 Insufficient balance/);
    expect(fake.counts()).toEqual({ quotes: 1, accepts: 1 });
  });

  it('quotes that keep expiring: the move fails after 1 + quoteRefreshes tries, naming why', async () => {
    const { r, fake } = await run({ accepts: [() => refusal('Quote expired'), () => refusal('The price has changed and the updated rate must be confirmed'), () => refusal('Quote expired')], history: [] });
    expect(r.outcomes[0]!.state).toBe('failed');
    expect(r.outcomes[0]!.detail).toMatch(/no quote could be accepted in 3 tries \(quoteRefreshes 2\): convert\.acceptQuote: 10000003 Quote expired/);
    expect(fake.counts()).toEqual({ quotes: 3, accepts: 3 });
  });
});
