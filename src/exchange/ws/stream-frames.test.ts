import { describe, expect, it } from 'vitest';
import { StreamRequestError } from './stream-errors.ts';
import { classifyFrame, excerpt } from './stream-frames.ts';

describe('classifyFrame (notes 1, 4, 5.1)', () => {
  it('reads pongs, pings, replies and events', () => {
    expect(classifyFrame('{"pong":1660900682429}')).toEqual({ kind: 'pong', value: 1660900682429 });
    expect(classifyFrame('{"ping":5}')).toEqual({ kind: 'ping', value: 5 });
    expect(classifyFrame('{"result":null,"id":1}')).toEqual({ kind: 'reply', id: 1, result: null });
    expect(classifyFrame('{"result":["btcusdt@aggTrade"],"id":3}')).toEqual({ kind: 'reply', id: 3, result: ['btcusdt@aggTrade'] });
    expect(classifyFrame('{"stream":"btcphp@trade","data":{"e":"trade","t":1}}')).toEqual({ kind: 'event', stream: 'btcphp@trade', data: { e: 'trade', t: 1 } });
    expect(classifyFrame('{"u":400900217,"s":"BNBUSDT","b":"25.35","B":"31.21","a":"25.36","A":"40.66"}')).toMatchObject({ kind: 'event', stream: undefined });
    expect(classifyFrame('[{"e":"24hrMiniTicker"}]')).toEqual({ kind: 'event', stream: undefined, data: [{ e: '24hrMiniTicker' }] });
  });

  it('keeps integers above 2^53 exact, as decimal strings', () => {
    const f = classifyFrame('{"e":"executionReport","i":1241518645726809840,"t":-1,"E":1499405658658}');
    expect(f).toEqual({ kind: 'event', stream: undefined, data: { e: 'executionReport', i: '1241518645726809840', t: -1, E: 1499405658658 } });
  });

  it('turns the three error shapes into typed errors', () => {
    const cases: [string, string, number | string][] = [
      ['{"code": 2, "msg": "Invalid request: missing field method"}', 'STREAM_INVALID_REQUEST', 2],
      ['{"code":3,"msg":"Invalid JSON"}', 'STREAM_INVALID_JSON', 3],
      ['{"code":"-100010","desc":"Invalid Symbols!"}', 'STREAM_INVALID_SYMBOLS', '-100010'],
      ['{"code":77,"msg":"something else"}', 'STREAM_ERROR', 77],
    ];
    for (const [text, code, venueCode] of cases) {
      const f = classifyFrame(text);
      expect(f.kind).toBe('error');
      const err = (f as { error: StreamRequestError }).error;
      expect(err).toBeInstanceOf(StreamRequestError);
      expect(err).toMatchObject({ code, venueCode });
    }
    const forReq = new StreamRequestError(2, 'Invalid request: too many parameters').forRequest({ method: 'SUBSCRIBE', params: ['a@trade'], id: 9 });
    expect(forReq.message).toBe('SUBSCRIBE a@trade (id 9) refused: Invalid request: too many parameters (code 2)');
  });

  it('says why a frame is not understood', () => {
    expect(classifyFrame('nope')).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^not JSON \(/) });
    expect(classifyFrame('"text"')).toEqual({ kind: 'invalid', reason: 'not a JSON object or array but string' });
    expect(classifyFrame('null')).toEqual({ kind: 'invalid', reason: 'not a JSON object or array but null' });
    expect(classifyFrame('{"a":1}')).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^not a stream frame/) });
    expect(classifyFrame('{"result":null,"id":{"x":1}}')).toMatchObject({ kind: 'invalid', reason: 'a reply whose id is {"x":1}, not an unsigned integer' });
    expect(classifyFrame('{"stream":"x@trade","data":null}')).toEqual({ kind: 'invalid', reason: 'stream x@trade: data is null, not an event' });
    expect(excerpt('x'.repeat(300))).toBe(`${'x'.repeat(200)}… (300 chars)`);
  });
});
