import { describe, expect, it } from 'vitest';
import { merchantMessage, merchantTimestamp } from './merchant.ts';

describe('merchant message', () => {
  it('offers both timestamp units', () => {
    expect(merchantTimestamp(1671158910999, 'seconds')).toBe('1671158910');
    expect(merchantTimestamp(1671158910999, 'ms')).toBe('1671158910999');
    expect(merchantTimestamp(1671158910999)).toBe('1671158910999');
  });
  it('adds ? only for a non-empty query', () => {
    expect(merchantMessage({ timestamp: '1', url: 'http://h/p' })).toBe('1http://h/p');
    expect(merchantMessage({ timestamp: '1', url: 'http://h/p', query: '' })).toBe('1http://h/p');
    expect(merchantMessage({ timestamp: '1', url: 'http://h/p', query: 'a=b@c' })).toBe('1http://h/p?a=b@c');
  });
});
