import { describe, expect, it } from 'vitest';
import { CapitalLedgers } from './capital.ts';
import { replayCapital } from './capital-replay.ts';
import type { ReplayFill } from './capital-replay.ts';
import { instrument } from '../test-support.ts';

const fill = (clientOrderId: string | null, side: 'BUY' | 'SELL', qty: string, quoteQty: string, symbol = 'BTCPHP'): ReplayFill => ({ clientOrderId, symbol, side, qty, quoteQty, commission: '0.001', commissionAsset: side === 'BUY' ? 'BTC' : 'PHP' });

describe('replayCapital', () => {
  it("moves each strategy's ledger by its own journaled fills only; others' fills, fills without a client id and unknown symbols are not taken", () => {
    const ledgers = new CapitalLedgers({ a: { PHP: '1000' }, b: { PHP: '500' } });
    const owner = new Map([
      ['a-1', 'a'],
      ['a-2', 'a'],
      ['c-1', 'c'],
    ]);
    const inst = instrument();
    const r = replayCapital(
      ledgers,
      [fill('a-1', 'BUY', '1', '100'), fill('a-2', 'SELL', '0.5', '60'), fill('c-1', 'BUY', '1', '100'), fill(null, 'BUY', '1', '100'), fill('x-9', 'BUY', '1', '100'), fill('a-1', 'BUY', '1', '1', 'ETHPHP')],
      (cid) => owner.get(cid),
      (sym) => (sym === 'BTCPHP' ? inst : undefined),
    );
    expect(r).toEqual({ applied: { a: 2 }, unknownSymbols: ['ETHPHP'] });
    expect(ledgers.snapshot('a')).toEqual({ PHP: '959.999', BTC: '0.499' });
    expect(ledgers.snapshot('b')).toEqual({ PHP: '500' });
  });
});
