/** Strategy authors import the contract and the testing kit from the package. */
import { expect, it } from 'vitest';
import { defineStrategy, place, z } from 'halyard/strategy';
import { runOnRegime } from 'halyard/strategy/testing';

it('exports defineStrategy and the testing kit as halyard/strategy and halyard/strategy/testing', () => {
  const buyOnce = defineStrategy({
    name: 'buy-once',
    params: z.object({ symbol: z.string().default('BTCPHP') }),
    symbols: (p) => [p.symbol],
    state: () => ({ done: false }),
    onBar(ctx) {
      if (ctx.state.done) return;
      ctx.state.done = true;
      return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: '1000', tag: 'buy' })];
    },
  });
  const { fills, run } = runOnRegime(buyOnce, 'slowUp', {}, { bars: 50 });
  expect(fills).toHaveLength(1);
  expect(run.strategyFailures).toEqual([]);
});
