import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountStream } from '../../core/matching/index.ts';
import type { EngineEvent } from '../../core/matching/index.ts';
import { harness } from '../../core/matching/test-support.ts';
import { ACCOUNTS, cancelAllOp, placeFields, printOp, px, request } from '../../core/matching/test-random-ops.ts';
import type { VenueEvent } from '../../ports/venue.ts';
import { toVenueEvents } from './engine-events.ts';

const placeOp = fc.record({ ...placeFields, cid: fc.option(fc.constantFrom('x', 'y', 'z'), { nil: undefined }) });
const cancelOp = fc.record({ op: fc.constant('cancel' as const), acct: fc.integer({ min: 0, max: 2 }), pick: fc.nat() });
const ops = fc.array(fc.oneof({ arbitrary: placeOp, weight: 12 }, { arbitrary: cancelOp, weight: 2 }, cancelAllOp, printOp), { minLength: 20, maxLength: 60 });

describe('the account stream (core/matching/accounts/account-stream.ts)', () => {
  it('gives, operation by operation, the venue events toVenueEvents makes of the engine events, and the same open orders', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), ops, (who, sequence) => {
        const account = ACCOUNTS[who] as string;
        const fund = { a: { BTC: '20', PHP: '2000' }, b: { BTC: '20', PHP: '2000' }, c: { BTC: '1', PHP: '150' } };
        const fee = { maker: '0.001', taker: '0.002' };
        const ref = harness({ fund, fee });
        const refOpen = new Set<string>();
        const open = new Set<string>();
        const stream = new AccountStream(account, open);
        const streamed = harness({ fund, fee, accountStream: stream });
        let now = 1000;
        for (const step of sequence) {
          now++;
          let events: EngineEvent[] = [];
          if (step.op === 'place') {
            const req = request(step);
            const ext = step.ext === undefined ? undefined : { externalPrice: px(step.ext) };
            const r = ref.engine.placeOrder(ACCOUNTS[step.acct] as string, req, now, ext);
            const s = streamed.engine.placeOrder(ACCOUNTS[step.acct] as string, req, now, ext);
            expect(s.ok ? 'ok' : s.msg).toBe(r.ok ? 'ok' : r.msg);
            if (r.ok && s.ok) {
              events = r.events;
              expect(s.events).toEqual([]);
              expect(s.order).toEqual(r.order);
            }
          } else if (step.op === 'cancel') {
            const list = ref.engine.openOrders(ACCOUNTS[step.acct] as string);
            const target = list[step.pick % Math.max(1, list.length)];
            if (target) {
              const r = ref.engine.cancelOrder(target.accountId, 'BTCPHP', { orderId: target.orderId }, now);
              expect(streamed.engine.cancelOrder(target.accountId, 'BTCPHP', { orderId: target.orderId }, now).ok).toBe(r.ok);
              if (r.ok) events = r.events;
            }
          } else if (step.op === 'cancelAll') {
            events = ref.engine.cancelAll(ACCOUNTS[step.acct] as string, 'BTCPHP', now).events;
            streamed.engine.cancelAll(ACCOUNTS[step.acct] as string, 'BTCPHP', now);
          } else {
            const print = { price: px(step.price), time: now, maxQty: step.maxQty === undefined ? undefined : String(step.maxQty / 10), mode: step.touch ? ('touch' as const) : ('through' as const) };
            events = ref.engine.applyPrint('BTCPHP', print).events;
            streamed.engine.applyPrint('BTCPHP', print);
          }
          const want: VenueEvent[] = toVenueEvents(events, account, refOpen);
          expect(stream.take()).toEqual(want);
          expect([...open].sort()).toEqual([...refOpen].sort());
        }
        expect(streamed.events).toEqual([]);
        expect(streamed.balances.all(account)).toEqual(ref.balances.all(account));
      }),
      { numRuns: 150 },
    );
  });
});
