import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../exchange/client/exchange-client.ts';
import { openJournal, type Journal } from '../../journal/index.ts';
import { VirtualClock } from '../../time/virtual-clock.ts';
import { openMoveStore } from '../journal/move-store.ts';
import type { Move } from '../moves.ts';
import { applyPlan } from './apply-plan.ts';
import { refuseOverLimit } from './limits.ts';

const transfer = (clientId: string, amount: string): Move => ({ kind: 'transfer', clientId, reason: 'r', from: 'master', to: 'desk-a@example.com', asset: 'PHP', amount });
const limits = { maxPerMove: { PHP: '50000' }, maxPerDay: { PHP: '80000' } };

describe('caps re-checked before a move is sent', () => {
  it('per move and per UTC day, exactly, naming the numbers', () => {
    expect(refuseOverLimit(transfer('a', '50000'), limits, {})).toBeUndefined();
    expect(refuseOverLimit(transfer('a', '50000.01'), limits, {})).toBe('transfer of 50000.01 PHP is above limits.maxPerMove 50000 PHP; nothing was sent');
    expect(refuseOverLimit(transfer('a', '30000'), limits, { PHP: '50000' })).toBeUndefined();
    expect(refuseOverLimit(transfer('a', '30000.1'), limits, { PHP: '50000' })).toBe('transfer of 30000.1 PHP would make 80000.1 PHP today (50000 moved already), above limits.maxPerDay 80000; nothing was sent');
    expect(refuseOverLimit({ kind: 'convert', clientId: 'c', reason: '', account: 'master', from: 'BTC', to: 'PHP', sourceAmount: '9' }, limits, {})).toBeUndefined();
    expect(refuseOverLimit({ kind: 'collect', clientId: 'c', reason: '' }, limits, {})).toBeUndefined();
  });

  let journal: Journal | undefined;
  afterEach(() => journal?.close());

  it('a plan (an edited file) whose move breaks a cap is refused before anything is sent', async () => {
    journal = openJournal(':memory:');
    const touched: string[] = [];
    // Any use of the client is recorded: nothing may be read or sent.
    const client = new Proxy({}, { get: (_t, key) => (touched.push(String(key)), undefined) }) as unknown as ExchangeClient;
    const r = await applyPlan({ id: 'p', asOf: 0, moves: [transfer('t1', '60000')], unresolved: [] }, {
      client,
      journal,
      policy: { convert: { slippageBps: 50, quoteRefreshes: 3 }, destinations: {}, limits },
      approve: false,
      clock: new VirtualClock(1_700_000_000_000),
    });
    expect(r.outcomes[0]).toMatchObject({ state: 'refused', detail: 'transfer of 60000 PHP is above limits.maxPerMove 50000 PHP; nothing was sent' });
    expect(touched).toEqual([]);
    expect(openMoveStore(journal).get('t1')).toMatchObject({ state: 'refused', attempts: 0 });
  });
});
