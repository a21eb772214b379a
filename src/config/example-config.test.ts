import { describe, expect, it } from 'vitest';
import { loadConfig } from './load.ts';

describe('config/example.json', () => {
  it('is a valid configuration', () => {
    const config = loadConfig(new URL('../../config/example.json', import.meta.url).pathname);
    expect(config.exchange.pools.IP).toEqual({ limit: 1200, windowMs: 60000 });
  });
});
