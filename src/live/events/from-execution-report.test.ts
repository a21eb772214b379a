import { describe, expect, it } from 'vitest';
import type { ExecutionReport } from '../../exchange/streams/user-payload-types.ts';
import { fromUserStreamEvent } from './from-account-position.ts';
import { STREAM_REJECT_CODE, fromExecutionReport } from './from-execution-report.ts';
import { VenueMappingError } from './mapping-error.ts';

/** Notes 4.1's sample, decoded; the order id above 2^53 stays exact. */
const NEW: ExecutionReport = {
  eventType: 'executionReport',
  eventTime: 1499405658658,
  symbol: 'ETHBTC',
  clientOrderId: 'hy0k3x9zqbid-1',
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  quantity: '1.00000000',
  price: '0.10264410',
  stopPrice: '0.00000000',
  executionType: 'NEW',
  orderStatus: 'NEW',
  rejectReason: 'NONE',
  orderId: '1241518645726809840',
  lastQty: '0.00000000',
  cumulativeQty: '0.00000000',
  lastPrice: '0.00000000',
  commission: '0',
  commissionAsset: null,
  transactionTime: -1,
  tradeId: undefined,
  working: true,
  maker: false,
  createdTime: 1499405658657,
  cumulativeQuoteQty: '0.00000000',
  lastQuoteQty: '0.00000000',
  quoteOrderQty: '0.00000000',
};

const TRADE: ExecutionReport = {
  ...NEW,
  eventTime: 1499405660000,
  executionType: 'TRADE',
  orderStatus: 'PARTIALLY_FILLED',
  lastQty: '0.40000000',
  cumulativeQty: '0.40000000',
  lastPrice: '0.10264410',
  commission: '0.0004',
  commissionAsset: 'ETH',
  transactionTime: 1499405659999,
  tradeId: '9007199254740993',
  maker: true,
  cumulativeQuoteQty: '0.04105764',
  lastQuoteQty: '0.04105764',
};

describe('fromExecutionReport', () => {
  it('NEW: an order event with the status, executed and quote, working from w, at the event time', () => {
    expect(fromExecutionReport(NEW)).toEqual([
      { kind: 'order', symbol: 'ETHBTC', clientOrderId: 'hy0k3x9zqbid-1', orderId: '1241518645726809840', status: 'NEW', executedQty: '0.00000000', cumulativeQuoteQty: '0.00000000', working: true, time: 1499405658658 },
    ]);
    // A stop waiting for its trigger is not working; its trigger reports NEW again, working.
    expect(fromExecutionReport({ ...NEW, orderType: 'STOP_LOSS_LIMIT', working: false })[0]).toMatchObject({ status: 'NEW', working: false });
  });

  it('TRADE: a fill with the trade (l at L, quote Y, fee n in N, maker m, trade id t exact) and the order after it (X, z, Z) at the trade time', () => {
    expect(fromExecutionReport(TRADE)).toEqual([
      {
        kind: 'fill',
        symbol: 'ETHBTC',
        clientOrderId: 'hy0k3x9zqbid-1',
        orderId: '1241518645726809840',
        tradeId: '9007199254740993',
        side: 'BUY',
        price: '0.10264410',
        qty: '0.40000000',
        quoteQty: '0.04105764',
        commission: '0.0004',
        commissionAsset: 'ETH',
        isMaker: true,
        orderStatus: 'PARTIALLY_FILLED',
        cumulativeQty: '0.40000000',
        cumulativeQuoteQty: '0.04105764',
        time: 1499405659999,
      },
    ]);
    expect(fromExecutionReport({ ...TRADE, orderStatus: 'FILLED' })[0]).toMatchObject({ kind: 'fill', orderStatus: 'FILLED' });
  });

  it('a TRADE that also ends the order (X EXPIRED): the fill as PARTIALLY_FILLED, then the end', () => {
    const out = fromExecutionReport({ ...TRADE, orderStatus: 'EXPIRED' });
    expect(out.map((e) => (e.kind === 'fill' ? `fill ${e.orderStatus}` : `${e.kind} ${'status' in e ? e.status : ''}`))).toEqual(['fill PARTIALLY_FILLED', 'order EXPIRED']);
  });

  it('CANCELED and EXPIRED: the status from X, PARTIALLY_CANCELED (self-trade prevention after fills) included', () => {
    expect(fromExecutionReport({ ...TRADE, executionType: 'CANCELED', orderStatus: 'CANCELED', tradeId: undefined })[0]).toMatchObject({ kind: 'order', status: 'CANCELED', executedQty: '0.40000000' });
    expect(fromExecutionReport({ ...TRADE, executionType: 'CANCELED', orderStatus: 'PARTIALLY_CANCELED', tradeId: undefined })[0]).toMatchObject({ kind: 'order', status: 'PARTIALLY_CANCELED', reason: 'self-trade prevention' });
    expect(fromExecutionReport({ ...NEW, executionType: 'EXPIRED', orderStatus: 'EXPIRED' })[0]).toMatchObject({ kind: 'order', status: 'EXPIRED' });
    expect(fromExecutionReport({ ...NEW, executionType: 'EXPIRED', orderStatus: 'EXPIRED', rejectReason: 'FOK not filled' })[0]).toMatchObject({ reason: 'FOK not filled' });
  });

  it('REJECTED: a rejection with the reason r (the stream carries no code: -2010)', () => {
    expect(fromExecutionReport({ ...NEW, executionType: 'REJECTED', orderStatus: 'REJECTED', rejectReason: 'INSUFFICIENT_BALANCE' })).toEqual([
      { kind: 'rejected', symbol: 'ETHBTC', clientOrderId: 'hy0k3x9zqbid-1', code: STREAM_REJECT_CODE, reason: 'INSUFFICIENT_BALANCE', time: 1499405658658 },
    ]);
  });

  it('refuses a report whose fields contradict each other, naming the field', () => {
    const err = (r: ExecutionReport) => {
      try {
        fromExecutionReport(r);
      } catch (e) {
        return e instanceof VenueMappingError ? e.message : String(e);
      }
      return 'no error';
    };
    expect(err({ ...TRADE, tradeId: undefined })).toBe('executionReport.t: a TRADE report without a trade id');
    expect(err({ ...TRADE, commissionAsset: null })).toBe('executionReport.N: a TRADE report without a commission asset');
    expect(err({ ...TRADE, orderStatus: 'NEW' })).toBe('executionReport.X: a TRADE report with order status NEW');
    expect(err({ ...NEW, executionType: 'CANCELED' })).toBe('executionReport.X: CANCELED report with order status NEW (expected CANCELED, PARTIALLY_CANCELED or EXPIRED)');
  });
});

describe('fromUserStreamEvent', () => {
  it('outboundAccountPosition: a balance per asset at the account update time; balanceUpdate: apart, no venue event', () => {
    expect(fromUserStreamEvent({ eventType: 'outboundAccountPosition', eventTime: 1564034571105, lastUpdateTime: 1564034571073, balances: [{ asset: 'ETH', free: '10000.000000', locked: '0.000000' }] })).toEqual({
      events: [{ kind: 'balance', asset: 'ETH', free: '10000.000000', locked: '0.000000', time: 1564034571073 }],
    });
    const deposit = { eventType: 'balanceUpdate', eventTime: 1573200697110, asset: 'ETH', delta: '100.00000000', clearTime: 1573200697068, businessType: 'CHAIN_DEPOSIT' } as const;
    expect(fromUserStreamEvent(deposit)).toEqual({ events: [], balanceUpdate: deposit });
    expect(fromUserStreamEvent(TRADE).events.map((e) => e.kind)).toEqual(['fill']);
  });
});
