/**
 * core/orders restates the strategy layer's shapes (core imports nothing outside core); these
 * compile-time checks keep the two the same, both ways where data flows both ways. `tsc` fails
 * on a drift; the runtime part only keeps vitest happy.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { FillOut, OpenOrderOut, OrderFields, OrderIntent, OrderUpdateOut, PositionOut, StateView, StrategyOrderStatus } from '../core/orders/types.ts';
import type { Intent, OrderFieldsOf } from '../strategy/intents/intents.ts';
import type { StrategyStateView } from '../strategy/state-view.ts';
import type { FillInput, OpenOrderInput, OrderStatus, OrderUpdateInput, PositionInput } from '../strategy/types.ts';

describe('core/orders shapes match the strategy layer', () => {
  it('compiles', () => {
    expectTypeOf<Intent>().toExtend<OrderIntent>();
    expectTypeOf<OrderFieldsOf<string>>().toExtend<OrderFields>();
    expectTypeOf<StateView>().toExtend<StrategyStateView>();
    expectTypeOf<OrderUpdateOut>().toExtend<OrderUpdateInput>();
    expectTypeOf<FillOut>().toExtend<FillInput>();
    expectTypeOf<OpenOrderOut>().toExtend<OpenOrderInput>();
    expectTypeOf<PositionOut>().toExtend<PositionInput>();
    expectTypeOf<StrategyOrderStatus>().toEqualTypeOf<OrderStatus>();
  });
});
