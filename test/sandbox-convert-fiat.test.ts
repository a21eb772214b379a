/**
 * The sandbox's convert, fiat cash-out and legacy v4 areas end to end (issue "Sandbox exchange",
 * deliverable 8; spec 4.6, 4.8, 4.11, 7.6): a real server on 127.0.0.1 driven by the project's
 * client over HTTP, on a VirtualClock shared by both sides so quotes expire and cash-outs settle in
 * sandbox time without waiting.
 */
import { describe, expect, it, vi } from 'vitest';
import { createClient, type ClientHandle } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { EnvelopeError, ParameterError, VenueRejectedError } from '../src/exchange/errors/errors.ts';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';
import { DEMO_UID } from '../src/sandbox/config/defaults.ts';
import { accountLimitsOf } from '../src/sandbox/money/account/limits.ts';
import { convertPlugin } from '../src/sandbox/money/convert/plugin.ts';
import { fiatPlugin } from '../src/sandbox/money/fiat/plugin.ts';
import { legacyV4Plugin } from '../src/sandbox/money/legacy-v4/plugin.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { closeAfterEach } from './support/sandbox-fixture.ts';

const START = Date.UTC(2025, 0, 15, 12, 0, 0);
const defer = closeAfterEach();

interface Env {
  s: SandboxHandle;
  c: ClientHandle['client'];
  clock: VirtualClock;
}

async function setup(): Promise<Env> {
  const clock = new VirtualClock(START);
  const s = await startSandbox({ config: { admin: { enabled: true } }, clock, plugins: [convertPlugin(), fiatPlugin(), legacyV4Plugin()] });
  defer(() => s.close());
  const handle = createClient({ baseUrl: s.baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey: s.apiKey, apiSecret: s.apiSecret }, clock });
  defer(() => handle.close());
  return { s, c: handle.client, clock };
}

const free = (s: SandboxHandle, asset: string) => s.services.balances!.get(DEMO_UID, asset).free;

async function admin(s: SandboxHandle, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/** A signed request built by hand, to reach the server with what the client refuses to send. */
async function signed(env: Env, path: string, body: string, json = false): Promise<Record<string, unknown>> {
  const ts = `timestamp=${env.clock.now()}`;
  const headers: Record<string, string> = { 'X-SERVICE-APIKEY': env.s.apiKey };
  let url = `${env.s.baseUrl}${path}`;
  let sent = body;
  if (json) {
    headers['content-type'] = 'application/json';
    headers['signature'] = hmacSha256Hex(env.s.apiSecret, ts + body);
    url += `?${ts}`;
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    sent = `${body}&${ts}`;
    sent += `&signature=${hmacSha256Hex(env.s.apiSecret, sent)}`;
  }
  const r = await fetch(url, { method: 'POST', headers, body: sent });
  return (await r.json()) as Record<string, unknown>;
}

async function failure(call: Promise<unknown>): Promise<{ status?: number | undefined; code?: number | undefined; message?: string | undefined; error: unknown }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  if (error instanceof EnvelopeError) return { status: error.envelopeStatus, message: error.venueMessage, error };
  if (error instanceof VenueRejectedError) return { code: error.venueCode, message: error.venueMessage, error };
  return { error };
}

describe('sandbox convert (spec 4.6)', () => {
  it('lists pairs from the symbols, quotes from the engine price, accepts and records the order', async () => {
    const env = await setup();
    const { s, c } = env;
    const pairs = (await c.convert.getSupportedTradingPairs()).data;
    expect(pairs).toContainEqual({ sourceCurrency: 'BTC', targetCurrency: 'PHP', minSourceAmount: '0.000001', maxSourceAmount: '100', precision: 8 });
    expect(pairs).toContainEqual({ sourceCurrency: 'PHP', targetCurrency: 'BTC', minSourceAmount: '50', maxSourceAmount: '20000000', precision: 2 });

    s.services.engine!.applyPrint('BTCPHP', { price: '3000000', time: env.clock.now(), mode: 'touch' });
    const events = vi.spyOn(s.services.events!, 'balanceUpdate');
    const quote = (await c.convert.getQuote({ sourceCurrency: 'BTC', targetCurrency: 'PHP', sourceAmount: '0.01' })).data;
    // 3,000,000 less the 0.2 % spread.
    expect(quote).toMatchObject({ sourceCurrency: 'BTC', targetCurrency: 'PHP', sourceAmount: '0.01', price: '2994000', targetAmount: '29940', expiry: 10 });

    const accepted = await c.convert.acceptQuote({ quoteId: quote.quoteId });
    expect(accepted.data.status).toBe('SUCCESS');
    expect(free(s, 'BTC')).toBe('0.02');
    expect(free(s, 'PHP')).toBe('129940');
    expect(events.mock.calls.map(([acct, u]) => [acct, u.asset, u.delta, u.business])).toEqual([
      [DEMO_UID, 'BTC', '-0.01', 'CONVERT'],
      [DEMO_UID, 'PHP', '29940', 'CONVERT'],
    ]);

    // targetAmount instead: the source is rounded up to its precision.
    const ledger = s.services.moneyLedger!.entries(DEMO_UID);
    expect(ledger.map((e) => [e.asset, e.delta, e.bizSubject, e.txId, e.status])).toEqual([
      ['BTC', '-0.01', 'CONVERT', accepted.data.orderId, 'success'],
      ['PHP', '29940', 'CONVERT', accepted.data.orderId, 'success'],
    ]);

    const byTarget = (await c.convert.getQuote({ sourceCurrency: 'PHP', targetCurrency: 'BTC', targetAmount: '0.001' })).data;
    expect(byTarget.targetAmount).toBe('0.001');
    expect(Number(byTarget.sourceAmount) * Number(byTarget.price)).toBeGreaterThanOrEqual(0.001);
    expect(byTarget.sourceAmount).toMatch(/^\d+(\.\d{1,2})?$/);
    await c.convert.acceptQuote({ quoteId: byTarget.quoteId });

    const history = await c.convert.queryOrderHistory();
    expect(history.total).toBe(2);
    expect(history.data[0]).toMatchObject({ orderId: accepted.data.orderId, quoteId: quote.quoteId, sourceAmount: '0.01', targetAmount: '29940', status: 'SUCCESS', createdAt: START, userId: DEMO_UID });
    expect(Number(history.data[0]!.inversePrice)).toBeCloseTo(1 / 2994000, 12);
    const page = await c.convert.queryOrderHistory({ startTime: START, endTime: START + 1000, status: 'SUCCESS', page: 2, size: 1 });
    expect(page.total).toBe(2);
    expect(page.data.map((o) => o.quoteId)).toEqual([byTarget.quoteId]);
    expect((await c.convert.queryOrderHistory({ startTime: START + 1 })).total).toBe(0);
  });

  it('refuses expired and used quotes, short balances, both amounts, and amounts outside the pair', async () => {
    const env = await setup();
    const { c, clock } = env;
    const q1 = (await c.convert.getQuote({ sourceCurrency: 'ETH', targetCurrency: 'PHP', sourceAmount: '0.1' })).data;
    await clock.advance(11_000);
    expect(await failure(c.convert.acceptQuote({ quoteId: q1.quoteId }))).toMatchObject({ status: 10000003, message: 'Quote expired' });

    const q2 = (await c.convert.getQuote({ sourceCurrency: 'ETH', targetCurrency: 'PHP', sourceAmount: '0.1' })).data;
    await clock.advance(9_000);
    await c.convert.acceptQuote({ quoteId: q2.quoteId });
    expect(await failure(c.convert.acceptQuote({ quoteId: q2.quoteId }))).toMatchObject({ status: 10000003, message: 'Quote expired' });

    const big = (await c.convert.getQuote({ sourceCurrency: 'PHP', targetCurrency: 'BTC', sourceAmount: '500000' })).data;
    expect(await failure(c.convert.acceptQuote({ quoteId: big.quoteId }))).toMatchObject({ status: 10000003, message: 'Insufficient balance' });

    // Both amounts: the client refuses locally, the server answers the params layer's error.
    expect((await failure(c.convert.getQuote({ sourceCurrency: 'BTC', targetCurrency: 'PHP', sourceAmount: '1', targetAmount: '1' } as never))).error).toBeInstanceOf(ParameterError);
    const both = await signed(env, '/openapi/convert/v1/get-quote', 'sourceCurrency=BTC&targetCurrency=PHP&sourceAmount=0.01&targetAmount=100');
    expect(both['code']).toBe(-1107);

    expect(await failure(c.convert.getQuote({ sourceCurrency: 'BTC', targetCurrency: 'PHP', sourceAmount: '101' }))).toMatchObject({ code: -1025 });
    expect(await failure(c.convert.getQuote({ sourceCurrency: 'BTC', targetCurrency: 'DOGE', sourceAmount: '1' }))).toMatchObject({ code: -1025 });
    expect(await failure(c.convert.acceptQuote({ quoteId: 'nope' }))).toMatchObject({ code: -1025 });

    await admin(env.s, '/system-status', { CONVERT: 'off' });
    expect(await failure(c.convert.getQuote({ sourceCurrency: 'BTC', targetCurrency: 'PHP', sourceAmount: '0.01' }))).toMatchObject({ status: 10000003, message: 'Failed to fetch liquidity, try again later' });
  });
});

const gcash = (internalOrderId: string, amount: string) => ({ internalOrderId, currency: 'PHP', amount, channelName: 'INSTAPAY' as const, channelSubject: 'gcash', extendInfo: { recipientName: 'Juan Cruz', recipientAccountNumber: '09171234567' } });

describe('sandbox fiat cash-out (spec 4.8)', () => {
  it('lists channels with fees, limits and balance; cash-out settles over sandbox time', async () => {
    const env = await setup();
    const { s, c, clock } = env;
    const channels = (await c.fiat.supportChannel({ transactionType: '-1', currency: 'PHP' })).data;
    expect(channels.map((x) => x.transactionChannel)).toContain('SWIFTPAY_PESONET');
    const g = channels.find((x) => x.transactionChannel === 'INSTAPAY' && x.transactionSubject === 'gcash')!;
    expect(g).toMatchObject({ minimum: '50', maximum: '50000', fee: '10', feeType: 'FIXED', dailyLimit: '100000', remainingDailyLimit: '100000', maxWithdrawBalance: '100000', transactionType: -1 });
    const pesonet = (await c.fiat.supportChannel({ transactionType: '-1', currency: 'PHP', transactionChannel: 'SWIFTPAY_PESONET', transactionSubject: 'bpi', amount: '20000' })).data;
    expect(pesonet).toHaveLength(1);
    expect(pesonet[0]).toMatchObject({ fee: '0.2', feeType: 'PERCENTAGE' });

    const events = vi.spyOn(s.services.events!, 'balanceUpdate');
    const out = await c.fiat.cashOut(gcash('1234567890', '1000'));
    expect(out.data.internalOrderId).toBe('1234567890');
    expect(free(s, 'PHP')).toBe('98990');
    expect(events.mock.calls[0]?.[1]).toMatchObject({ asset: 'PHP', delta: '-1010', business: 'FIAT_WITHDRAWAL' });
    const pending = (await c.fiat.details({ internalOrderId: '1234567890' })).data;
    expect(pending).toMatchObject({ status: 'PENDING', fiatAmount: '1000', platformFee: '10', transactionChannel: 'INSTAPAY', transactionSubject: 'gcash', completedTime: null });
    expect(pending.orderExtendedMap).toMatchObject({ tfrName: 'Juan Cruz', tfrAcctNo: '09171234567' });

    expect(await failure(c.fiat.cashOut(gcash('1234567891', '100')))).toMatchObject({ status: 88010012 });
    await clock.advance(61_000);
    const done = (await c.fiat.details({ internalOrderId: '1234567890' })).data;
    expect(done.status).toBe('SUCCEEDED');
    expect(done.completedTime).toBe(new Date(START + 60_000).toISOString().replace('Z', '+00:00'));
    expect(free(s, 'PHP')).toBe('98990');
    expect(s.services.moneyLedger!.entries(DEMO_UID).map((e) => [e.delta, e.bizSubject, e.txId, e.status])).toEqual([['-1010', 'FIAT_WITHDRAWAL', done.externalOrderId, 'success']]);
    const after = (await c.fiat.supportChannel({ transactionType: '-1', currency: 'PHP', transactionChannel: 'INSTAPAY', transactionSubject: 'gcash' })).data[0]!;
    expect(after).toMatchObject({ remainingDailyLimit: '99000', maxWithdrawBalance: '98990' });

    // A failed order is refunded, amount and fee.
    await c.fiat.cashOut({ internalOrderId: '22222222222', currency: 'PHP', amount: '500', channelName: 'SWIFTPAY_PESONET', channelSubject: 'bpi' });
    expect(free(s, 'PHP')).toBe('98470');
    expect((await admin(s, '/fiat/orders/22222222222', { status: 'FAILED' })).body['status']).toBe('FAILED');
    expect(free(s, 'PHP')).toBe('98990');
    expect(s.services.moneyLedger!.entries(DEMO_UID).map((e) => e.status)).toEqual(['success', 'failed']);
    expect((await admin(s, '/fiat/orders/22222222222', { status: 'CANCEL' })).status).toBe(409);

    const v2 = await c.fiat.historyV2({ startDate: '1d' });
    expect(v2.total).toBe(2);
    expect(v2.data.map((o) => o.internalOrderId)).toEqual(['1234567890', '22222222222']);
    expect((await c.fiat.historyV2({ status: 'FAILED' })).data.map((o) => o.internalOrderId)).toEqual(['22222222222']);
    expect((await c.fiat.historyV2({ pageNum: '2', pageSize: '1' })).data.map((o) => o.internalOrderId)).toEqual(['22222222222']);
    // startTime/endTime only count when both dates are empty.
    expect((await c.fiat.historyV2({ startTime: START + 1 })).total).toBe(1);
    expect((await c.fiat.historyV2({ startTime: START + 1, startDate: '1w' })).total).toBe(2);
    expect((await c.fiat.historyV1({ transactionChannel: 'INSTAPAY' })).total).toBe(1);
  });

  it('refuses amounts outside the channel, exceeded limits, bad and duplicate ids, short balances', async () => {
    const env = await setup();
    const { s, c } = env;
    expect(await failure(c.fiat.cashOut(gcash('1000000001', '10')))).toMatchObject({ status: 88010003 });
    expect(await failure(c.fiat.cashOut(gcash('1000000001', '60000')))).toMatchObject({ status: 88010004 });
    expect(await failure(c.fiat.cashOut({ ...gcash('1000000001', '100'), channelSubject: 'nobank' }))).toMatchObject({ status: 88010008 });

    // The params layer refuses a leading 0 (the client first, then the server itself).
    expect((await failure(c.fiat.cashOut(gcash('0123456789', '100')))).error).toBeInstanceOf(ParameterError);
    const raw = await signed(env, '/openapi/fiat/v1/cash-out', JSON.stringify(gcash('0123456789', '100')), true);
    expect(raw['code']).toBe(-1025);

    await admin(s, '/balances/credit', { accountId: DEMO_UID, asset: 'PHP', amount: '100000' });
    await c.fiat.cashOut(gcash('1000000001', '50000'));
    expect(await failure(c.fiat.cashOut(gcash('1000000001', '100')))).toMatchObject({ code: -1025 });
    await admin(s, '/fiat/orders/1000000001', { status: 'SUCCEEDED' });
    await c.fiat.cashOut(gcash('1000000002', '50000'));
    await admin(s, '/fiat/orders/1000000002', { status: 'SUCCEEDED' });
    expect(await failure(c.fiat.cashOut(gcash('1000000003', '50')))).toMatchObject({ status: 88010005 });

    // The account's own cash-out limits (services.accountLimits) apply too.
    const limits = accountLimitsOf(s.state);
    limits.setLimit({ accountId: DEMO_UID, book: 'account', period: 'daily', kind: 'cashOut', limit: '100050' });
    expect(await failure(c.fiat.cashOut({ ...gcash('1000000005', '100'), channelName: 'SWIFTPAY_PESONET', channelSubject: 'bpi' }))).toMatchObject({ status: 88010005 });
    limits.setLimit({ accountId: DEMO_UID, book: 'account', period: 'daily', kind: 'cashOut', limit: '1000000' });
    limits.setLimit({ accountId: DEMO_UID, book: 'account', period: 'monthly', kind: 'cashOut', limit: '150000' });
    expect(await failure(c.fiat.cashOut({ ...gcash('1000000005', '50001'), channelName: 'SWIFTPAY_PESONET', channelSubject: 'bpi' }))).toMatchObject({ status: 88010006 });

    await admin(s, '/balances/debit', { accountId: DEMO_UID, asset: 'PHP', amount: free(s, 'PHP') });
    await admin(s, '/balances/credit', { accountId: DEMO_UID, asset: 'PHP', amount: '100' });
    const r = await failure(c.fiat.cashOut({ internalOrderId: '1000000004', currency: 'PHP', amount: '95', channelName: 'SWIFTPAY_PESONET', channelSubject: 'bdo' }));
    expect(r).toMatchObject({ status: 88010013 });
    expect(free(s, 'PHP')).toBe('100');
  });
});

describe('sandbox legacy v4 (spec 4.11)', () => {
  it('serves the outlet catalogue, validates fields, and creates sell orders paid from the wallet', async () => {
    const env = await setup();
    const { s, c, clock } = env;
    const categories = (await c.legacyV4.payoutOutletCategories()) as Record<string, { id: string }[]>;
    expect(categories['payout-outlet-categories']?.map((x) => x.id)).toEqual(['bank', 'e-wallet', 'remittance']);
    expect(await c.legacyV4.payoutOutletCategories({ id: 'bank' })).toEqual({ 'payout-outlet-category': { id: 'bank', name: 'Bank' } });
    const banks = (await c.legacyV4.payoutOutlets({ outlet_category: 'bank' })) as Record<string, { id: string }[]>;
    expect(banks['payout-outlets']?.map((o) => o.id)).toContain('citi_SWIFTPAY_PESONET');
    const all = (await c.legacyV4.payoutOutlets({ is_enabled: true })) as Record<string, unknown[]>;
    expect(all['payout-outlets']).toHaveLength(7);
    expect(await c.legacyV4.payoutOutlets({ id: 'gcash_INSTAPAY' })).toMatchObject({ 'payout-outlet': { id: 'gcash_INSTAPAY', outlet_category: 'e-wallet' } });
    expect(await c.legacyV4.payoutOutletFees({ payment_outlet: 'citi_SWIFTPAY_PESONET', currency: 'PHP' })).toEqual({
      'payout-outlet-fees': [{ payment_outlet: 'citi_SWIFTPAY_PESONET', currency: 'PHP', amount: '20', fee_type: 'fixed' }],
    });
    expect(await c.legacyV4.validateField({ field_type: 'mobile_number', mobile_number: '+639171234567', region: 'PH' })).toMatchObject({ is_valid: true });
    expect(await c.legacyV4.validateField({ field_type: 'account_number', account_number: '123', account_type: 'bdo_INSTAPAY' })).toMatchObject({ is_valid: false });

    const created = (await c.legacyV4.createSellOrder({
      payment_outlet: 'citi_SWIFTPAY_PESONET',
      base_amount: '1000',
      currency: 'PHP',
      bank_account_number: '9163011937',
      bank_account_name: 'Mike Santos',
      recipient_phone_number: '9163011937',
      external_transaction_id: '12121212212121212',
    })) as { 'sell-order': { id: string; status: string } };
    expect(created['sell-order'].status).toBe('pending');
    expect(free(s, 'PHP')).toBe('98980');
    await clock.advance(5 * 60_000);
    expect(await c.legacyV4.getSellOrder({ sell_order_id: created['sell-order'].id })).toMatchObject({ 'sell-order': { status: 'completed', fee: '20' } });
    expect(await failure(c.legacyV4.getSellOrder({ sell_order_id: 'missing' }))).toMatchObject({ code: -2013 });
    expect(await failure(c.legacyV4.createSellOrder({ payment_outlet: 'cebuana_CASHPICKUP', base_amount: '100', currency: 'PHP', bank_account_number: '1', bank_account_name: 'x', recipient_phone_number: '1' }))).toMatchObject({ code: -1025 });
    const sell = (base_amount: string) => c.legacyV4.createSellOrder({ payment_outlet: 'bdo_INSTAPAY', base_amount, currency: 'PHP', bank_account_number: '1', bank_account_name: 'x', recipient_phone_number: '1' });
    expect(await failure(sell('600000'))).toMatchObject({ code: -1025 });
    expect(await failure(sell('200000'))).toMatchObject({ code: -1131 });
    expect(free(s, 'PHP')).toBe('98980');
  });
});
