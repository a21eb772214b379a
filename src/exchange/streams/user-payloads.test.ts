/**
 * The user-stream decoders (protocol notes 4.1) on the notes' own samples, read from raw text
 * through the lossless parse as the socket hands them over; then wrong types, missing fields,
 * ids beyond 2^53, numbers as strings (notes 5.2) and the `BS`/`bs` key of balanceUpdate.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../transport/lossless-json.ts';
import { DecodeError } from './decode-error.ts';
import { decodeAccountPosition, decodeBalanceUpdate, decodeExecutionReport, decodeUserEvent } from './user-payloads.ts';

const REPORT =
  '{"e":"executionReport","E":1499405658658,"s":"ETHBTC","c":"1000087761","S":"BUY","o":"LIMIT","f":"GTC","q":"1.00000000","p":"0.10264410","P":"0.00000000","x":"NEW","X":"NEW","r":"NONE","i":1241518645726809840,"l":"0.00000000","z":"0.00000000","L":"0.00000000","n":"0","N":null,"T":-1,"t":-1,"w":true,"m":false,"O":1499405658657,"Z":"0.00000000","Y":"0.00000000","Q":"0.00000000"}';
const POSITION = '{"e":"outboundAccountPosition","E":1564034571105,"u":1564034571073,"B":[{"a":"ETH","f":"10000.000000","l":"0.000000"}],"em":"test@example.com"}';
const BALANCE = '{"e":"balanceUpdate","E":1573200697110,"a":"ETH","d":"100.00000000","T":1573200697068,"BS":"CHAIN_DEPOSIT","em":"test@example.com","BI":"123456789"}';

const report = () => parseJsonLossless(REPORT) as Record<string, unknown>;
const with_ = (base: Record<string, unknown>, patch: Record<string, unknown>) => ({ ...base, ...patch });
const without = (base: Record<string, unknown>, key: string) => {
  const copy = { ...base };
  delete copy[key];
  return copy;
};

function decodeFailure(f: () => unknown): DecodeError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(DecodeError);
    return err as DecodeError;
  }
  throw new Error('decoded without an error');
}

describe('executionReport (notes 4.1)', () => {
  it('decodes the notes sample with readable names, amounts as sent and the 19-digit id exact', () => {
    expect(decodeExecutionReport(parseJsonLossless(REPORT))).toEqual({
      eventType: 'executionReport',
      eventTime: 1499405658658,
      symbol: 'ETHBTC',
      clientOrderId: '1000087761',
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
    });
  });

  it('a fill: trade id beyond 2^53 kept exact from the raw text, commission asset read', () => {
    const raw = REPORT.replace('"x":"NEW","X":"NEW"', '"x":"TRADE","X":"PARTIALLY_FILLED"')
      .replace('"t":-1', '"t":1375445991893797391')
      .replace('"T":-1', '"T":1499405658700')
      .replace('"N":null', '"N":"BNB"')
      .replace('"l":"0.00000000"', '"l":"0.50000000"');
    const r = decodeExecutionReport(parseJsonLossless(raw));
    expect(r).toMatchObject({ executionType: 'TRADE', orderStatus: 'PARTIALLY_FILLED', tradeId: '1375445991893797391', transactionTime: 1499405658700, commissionAsset: 'BNB', lastQty: '0.50000000' });
    expect(r.orderId).toBe('1241518645726809840');
  });

  it('accepts numbers as strings (notes 5.2) and amounts as JSON numbers, turned into their exact decimal text', () => {
    const r = decodeExecutionReport(with_(report(), { E: '1499405658658', O: '1499405658657', T: '-1', t: '-1', i: '42', q: 1.5, p: 1e-8, n: 0, w: 'true', m: 'false' }));
    expect(r).toMatchObject({ eventTime: 1499405658658, createdTime: 1499405658657, transactionTime: -1, tradeId: undefined, orderId: '42', quantity: '1.5', price: '0.00000001', commission: '0', working: true, maker: false });
    expect(decodeExecutionReport(with_(report(), { i: 7 })).orderId).toBe('7');
  });

  it.each([
    ['i', 'abc', 'executionReport.i: expected an integer id, got "abc"'],
    ['i', 1.5, 'executionReport.i: expected an integer id, got 1.5'],
    ['i', true, 'executionReport.i: expected an integer id, got true'],
    ['q', 'NaN', 'executionReport.q: expected a plain decimal string, got "NaN"'],
    ['q', '1e-8', 'executionReport.q: expected a plain decimal string, got "1e-8"'],
    ['q', '', 'executionReport.q: expected a plain decimal string, got ""'],
    ['q', ' 1', 'executionReport.q: expected a plain decimal string, got " 1"'],
    ['q', Number.NaN, 'executionReport.q: expected a plain decimal string, got NaN'],
    ['p', null, 'executionReport.p: expected a plain decimal string, got null'],
    ['E', '12:00', 'executionReport.E: expected an integer (time in ms or count), got "12:00"'],
    ['E', 1.25, 'executionReport.E: expected an integer (time in ms or count), got 1.25'],
    ['x', 'FILL', 'executionReport.x: expected one of NEW, CANCELED, REJECTED, TRADE, EXPIRED, got "FILL"'],
    ['X', 'OPEN', 'executionReport.X: expected one of NEW, PARTIALLY_FILLED, FILLED, CANCELED, PARTIALLY_CANCELED, REJECTED, EXPIRED, got "OPEN"'],
    ['S', 'buy', 'executionReport.S: expected one of BUY, SELL, got "buy"'],
    ['w', 'yes', 'executionReport.w: expected a boolean, got "yes"'],
    ['N', 5, 'executionReport.N: expected a string, got 5'],
    ['s', ['ETHBTC'], 'executionReport.s: expected a string, got an array of 1'],
    ['c', { id: 1 }, 'executionReport.c: expected a string, got an object'],
  ])('wrong type of %s (%j) names the field and the reason', (key, value, message) => {
    const e = decodeFailure(() => decodeExecutionReport(with_(report(), { [key]: value })));
    expect(e.message).toBe(message);
    expect(e).toMatchObject({ eventType: 'executionReport', field: key, code: 'STREAM_DECODE' });
  });

  it.each(['E', 's', 'c', 'S', 'q', 'p', 'x', 'X', 'i', 'l', 'z', 'n', 'T', 't', 'w', 'm', 'O', 'Z', 'Y', 'Q'])('a missing %s is refused, naming it', (key) => {
    const e = decodeFailure(() => decodeExecutionReport(without(report(), key)));
    expect(e.field).toBe(key);
    expect(e.reason).toMatch(/got nothing \(missing\)$/);
  });

  it('an id already rounded by JSON.parse (an unsafe JS number) is refused, not guessed', () => {
    const e = decodeFailure(() => decodeExecutionReport(JSON.parse(REPORT)));
    expect(e.message).toBe('executionReport.i: expected an integer id, got 1241518645726809900 (beyond 2^53, already rounded: parse the frame losslessly)');
  });

  it('a payload that is not an object', () => {
    expect(decodeFailure(() => decodeExecutionReport('x')).message).toBe('executionReport.(payload): expected an object, got "x"');
  });
});

describe('outboundAccountPosition (notes 4.1)', () => {
  it('decodes the notes sample', () => {
    expect(decodeAccountPosition(parseJsonLossless(POSITION))).toEqual({
      eventType: 'outboundAccountPosition',
      eventTime: 1564034571105,
      lastUpdateTime: 1564034571073,
      balances: [{ asset: 'ETH', free: '10000.000000', locked: '0.000000' }],
      email: 'test@example.com',
    });
  });

  it('em is optional; a bad balance row is named by its index', () => {
    const o = parseJsonLossless(POSITION.replace(',"em":"test@example.com"', '').replace(']', ',{"a":"BTC","f":"x","l":"0"}]'));
    const e = decodeFailure(() => decodeAccountPosition(o));
    expect(e.message).toBe('outboundAccountPosition.B[1].f: expected a plain decimal string, got "x"');
    const ok = decodeAccountPosition(parseJsonLossless(POSITION.replace(',"em":"test@example.com"', '')));
    expect(ok.email).toBeUndefined();
    expect(decodeFailure(() => decodeAccountPosition({ ...ok, e: 'outboundAccountPosition', E: 1, u: 1, B: {} })).message).toBe('outboundAccountPosition.B: expected an array, got an object');
    expect(decodeFailure(() => decodeAccountPosition({ e: 'outboundAccountPosition', E: 1, u: 1, B: [7] })).message).toBe('outboundAccountPosition.B[0]: expected an object, got 7');
  });
});

describe('balanceUpdate (notes 4.1)', () => {
  it('decodes the notes sample (BS)', () => {
    expect(decodeBalanceUpdate(parseJsonLossless(BALANCE))).toEqual({
      eventType: 'balanceUpdate',
      eventTime: 1573200697110,
      asset: 'ETH',
      delta: '100.00000000',
      clearTime: 1573200697068,
      businessType: 'CHAIN_DEPOSIT',
      email: 'test@example.com',
      businessId: '123456789',
    });
  });

  it('reads bs (2024-07-29 to 2024-10-16) like BS; BS wins when both come; neither is no type', () => {
    const lower = decodeBalanceUpdate(parseJsonLossless(BALANCE.replace('"BS"', '"bs"')));
    expect(lower.businessType).toBe('CHAIN_DEPOSIT');
    expect(decodeBalanceUpdate(parseJsonLossless(BALANCE.replace('"BS":"CHAIN_DEPOSIT"', '"bs":"FEE","BS":"TRADE"'))).businessType).toBe('TRADE');
    expect(decodeBalanceUpdate(parseJsonLossless(BALANCE.replace('"BS":"CHAIN_DEPOSIT",', ''))).businessType).toBeUndefined();
    expect(decodeFailure(() => decodeBalanceUpdate(parseJsonLossless(BALANCE.replace('"BS":"CHAIN_DEPOSIT"', '"bs":3')))).message).toBe('balanceUpdate.bs: expected a string, got 3');
  });

  it('a signed delta, a numeric BI beyond 2^53 kept exact, a missing d refused', () => {
    const r = decodeBalanceUpdate(parseJsonLossless(BALANCE.replace('"100.00000000"', '"-0.5"').replace('"BI":"123456789"', '"BI":9007199254740993')));
    expect(r).toMatchObject({ delta: '-0.5', businessId: '9007199254740993' });
    expect(decodeFailure(() => decodeBalanceUpdate(parseJsonLossless(BALANCE.replace('"d":"100.00000000",', '')))).message).toBe('balanceUpdate.d: expected a plain decimal string, got nothing (missing)');
  });
});

describe('decodeUserEvent', () => {
  it('dispatches on e', () => {
    expect(decodeUserEvent(parseJsonLossless(REPORT)).eventType).toBe('executionReport');
    expect(decodeUserEvent(parseJsonLossless(POSITION)).eventType).toBe('outboundAccountPosition');
    expect(decodeUserEvent(parseJsonLossless(BALANCE)).eventType).toBe('balanceUpdate');
  });

  it('an unknown type, a missing e and a non-object are DecodeErrors saying so', () => {
    expect(decodeFailure(() => decodeUserEvent({ e: 'listStatus', E: 1 })).message).toBe(
      'event.e: unknown user-stream event type "listStatus" (known: executionReport, outboundAccountPosition, balanceUpdate)',
    );
    expect(decodeFailure(() => decodeUserEvent({ E: 1 })).message).toBe('event.e: missing: a user-stream event names its type in `e`');
    expect(decodeFailure(() => decodeUserEvent([1])).message).toBe('event.(payload): expected a user-stream event object, got an array');
    expect(decodeFailure(() => decodeUserEvent(null)).message).toBe('event.(payload): expected a user-stream event object, got null');
  });
});
