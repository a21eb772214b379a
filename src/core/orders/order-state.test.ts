import { describe, expect, it } from 'vitest';
import { D } from '../money/decimal.ts';
import { reduceOrder, visibleStatus } from './order-state.ts';
import type { OrderProgress, OrderState, OrderTrigger } from './order-state.ts';
import type { VenueOrderStatus } from './venue-messages.ts';

const at = (status: OrderState, executed = '0', resume?: OrderState): OrderProgress => ({ status, executedQty: new D(executed), resume });
const venue = (status: VenueOrderStatus, executed = '0'): OrderTrigger => ({ kind: 'venue', status, executedQty: new D(executed) });
const next = (p: OrderProgress, t: OrderTrigger) => {
  const r = reduceOrder(p, t);
  return r.kind === 'applied' ? `${r.next.status}${r.next.resume ? `<${r.next.resume}` : ''} ${r.next.executedQty.toFixed()}` : r.kind;
};

describe('order-state reducer (spec 3.1 plus local states)', () => {
  it('follows an order from PENDING_NEW through fills to FILLED', () => {
    expect(next(at('PENDING_NEW'), venue('NEW'))).toBe('NEW 0');
    expect(next(at('PENDING_NEW'), venue('FILLED', '1'))).toBe('FILLED 1'); // matched at once (spec 3.1 RESULT sample)
    expect(next(at('NEW'), venue('PARTIALLY_FILLED', '0.4'))).toBe('PARTIALLY_FILLED 0.4');
    expect(next(at('PARTIALLY_FILLED', '0.4'), venue('PARTIALLY_FILLED', '0.7'))).toBe('PARTIALLY_FILLED 0.7');
    expect(next(at('PARTIALLY_FILLED', '0.7'), venue('FILLED', '1'))).toBe('FILLED 1');
    expect(next(at('NEW'), venue('EXPIRED'))).toBe('EXPIRED 0');
    expect(next(at('PARTIALLY_FILLED', '1'), venue('PARTIALLY_CANCELED', '1'))).toBe('PARTIALLY_CANCELED 1');
  });

  it('treats a repeated event as unchanged', () => {
    expect(next(at('NEW'), venue('NEW'))).toBe('unchanged'); // a stop's trigger reports NEW again
    expect(next(at('FILLED', '1'), venue('FILLED', '1'))).toBe('unchanged');
    expect(next(at('REJECTED'), { kind: 'rejected' })).toBe('unchanged');
  });

  it('reports illegal transitions and never applies them', () => {
    const r = reduceOrder(at('FILLED', '1'), venue('NEW'));
    expect(r).toEqual({ kind: 'illegal', from: 'FILLED', to: 'NEW', reason: 'executed quantity went back from 1 to 0' });
    expect(reduceOrder(at('CANCELED'), venue('PARTIALLY_FILLED', '1'))).toMatchObject({ kind: 'illegal', reason: 'CANCELED is final' });
    expect(reduceOrder(at('PARTIALLY_FILLED', '1'), venue('NEW', '1'))).toMatchObject({ kind: 'illegal', reason: 'PARTIALLY_FILLED cannot become NEW' });
    expect(reduceOrder(at('NEW'), { kind: 'rejected' })).toMatchObject({ kind: 'illegal', to: 'REJECTED' });
    expect(reduceOrder(at('DENIED'), venue('NEW'))).toMatchObject({ kind: 'illegal', reason: 'DENIED is final' });
    expect(reduceOrder(at('NEW'), { kind: 'unknownOutcome' })).toMatchObject({ kind: 'illegal' });
  });

  it('handles a cancel: pending, fills meanwhile, done or rejected', () => {
    expect(next(at('NEW'), { kind: 'cancelRequested' })).toBe('PENDING_CANCEL<NEW 0');
    expect(next(at('PENDING_CANCEL', '0', 'NEW'), venue('PARTIALLY_FILLED', '0.3'))).toBe('PENDING_CANCEL<PARTIALLY_FILLED 0.3');
    expect(next(at('PENDING_CANCEL', '0.3', 'PARTIALLY_FILLED'), venue('CANCELED', '0.3'))).toBe('CANCELED 0.3');
    expect(next(at('PENDING_CANCEL', '0.3', 'PARTIALLY_FILLED'), { kind: 'cancelRejected' })).toBe('PARTIALLY_FILLED 0.3');
    expect(next(at('FILLED', '1'), { kind: 'cancelRejected' })).toBe('unchanged'); // it filled before the cancel arrived
    expect(reduceOrder(at('PENDING_CANCEL', '0', 'NEW'), { kind: 'cancelRequested' })).toMatchObject({ kind: 'illegal', reason: 'a cancel is already pending' });
    expect(next(at('PENDING_NEW'), { kind: 'cancelRequested' })).toBe('PENDING_CANCEL<PENDING_NEW 0');
    expect(next(at('PENDING_CANCEL', '0', 'PENDING_NEW'), { kind: 'rejected' })).toBe('REJECTED 0');
  });

  it('handles an unknown outcome until the venue tells', () => {
    expect(next(at('PENDING_NEW'), { kind: 'unknownOutcome' })).toBe('UNKNOWN 0');
    expect(next(at('UNKNOWN'), venue('NEW'))).toBe('NEW 0');
    expect(next(at('UNKNOWN'), { kind: 'rejected' })).toBe('REJECTED 0');
    // A cancel's lost answer: the order is taken as still working (it may be cancelled again).
    expect(next(at('PENDING_CANCEL', '0.3', 'PARTIALLY_FILLED'), { kind: 'unknownOutcome', command: 'cancel' })).toBe('PARTIALLY_FILLED 0.3');
    expect(next(at('PENDING_CANCEL', '0', 'PENDING_NEW'), { kind: 'unknownOutcome', command: 'cancel' })).toBe('PENDING_NEW 0');
    expect(next(at('CANCELED'), { kind: 'unknownOutcome', command: 'cancel' })).toBe('unchanged');
    expect(next(at('PENDING_CANCEL', '0', 'NEW'), { kind: 'unknownOutcome', command: 'place' })).toBe('unchanged');
  });

  it('shows strategies only their statuses', () => {
    expect(visibleStatus(at('PENDING_CANCEL', '0', 'PARTIALLY_FILLED'))).toBe('PARTIALLY_FILLED');
    expect(visibleStatus(at('UNKNOWN'))).toBe('UNKNOWN');
    expect(visibleStatus(at('PENDING_CANCEL', '0', 'UNKNOWN'))).toBe('UNKNOWN');
    expect(visibleStatus(at('DENIED'))).toBe('DENIED');
  });
});
