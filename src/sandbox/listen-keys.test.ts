import { describe, expect, it } from 'vitest';
import { ListenKeys } from './listen-keys.ts';

const HOUR = 3_600_000;

function make(keys: ListenKeys, accountId: string, now: number): string {
  const key = keys.create(accountId, now);
  if (key === null) throw new Error('creation limited');
  return key;
}

describe('ListenKeys', () => {
  it('lives 60 minutes, keepalive extends, close invalidates', () => {
    const keys = new ListenKeys();
    const ended: string[] = [];
    keys.onInvalidated((_k, account, reason) => ended.push(`${account}:${reason}`));
    const key = make(keys, 'u1', 0);
    expect(key).toMatch(/^[A-Za-z0-9]{60}$/);
    expect(keys.accountOf(key, HOUR - 1)).toBe('u1');
    expect(keys.keepalive(key, HOUR - 1)).toBe(true);
    expect(keys.accountOf(key, 2 * HOUR - 2)).toBe('u1');
    expect(keys.close(key)).toBe(true);
    expect(keys.keepalive(key, 2 * HOUR - 2)).toBe(false);
    expect(keys.close(key)).toBe(false);
    expect(ended).toEqual(['u1:closed']);
  });

  it('expires after 60 minutes without keepalive', () => {
    const keys = new ListenKeys();
    const key = make(keys, 'u1', 0);
    expect(keys.accountOf(key, HOUR)).toBeUndefined();
    expect(keys.keepalive(key, HOUR)).toBe(false);
  });

  it('returns the active key, extended, on a second create', () => {
    const keys = new ListenKeys();
    const a = make(keys, 'u1', 0);
    const b = make(keys, 'u1', HOUR - 10);
    expect(b).toBe(a);
    expect(keys.accountOf(a, 2 * HOUR - 11)).toBe('u1');
    expect(make(keys, 'u2', 0)).not.toBe(a);
    expect(make(keys, 'u1', 3 * HOUR)).not.toBe(a);
  });

  it('expire() ends a key at once (fault injection)', () => {
    const keys = new ListenKeys();
    const key = make(keys, 'u1', 0);
    expect(keys.expire(key)).toBe(true);
    expect(keys.accountOf(key, 1)).toBeUndefined();
    expect(keys.active(1)).toEqual([]);
  });

  it('limits new keys per account per hour of sandbox time (-1026); the active key comes back freely', () => {
    const keys = new ListenKeys(HOUR, 3);
    for (let i = 0; i < 3; i++) expect(keys.close(make(keys, 'u1', i * 1000))).toBe(true);
    const active = make(keys, 'u2', 0);
    expect(keys.create('u2', 10)).toBe(active);
    expect(keys.create('u1', 5000)).toBeNull();
    expect(keys.create('u1', HOUR - 1)).toBeNull();
    expect(keys.create('u1', HOUR)).toMatch(/^[A-Za-z0-9]{60}$/);
  });
});
