import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig, secretsFromEnv } from './load.ts';

describe('config', () => {
  it('fills every default from the schema', () => {
    const config = parseConfig({});
    expect(config.exchange.recvWindow).toBe(5000);
    expect(config.exchange.apiKeyHeader).toBe('X-SERVICE-APIKEY');
    expect(config.exchange.weightProfile).toBe('spec');
  });

  it('reports every problem at once, each with its path, unknown keys included', () => {
    try {
      parseConfig({ exchange: { recvWindow: 70_000, weightProfile: 'fast', bogus: 1 }, extra: true });
      expect.fail('should have thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const issues = (e as ConfigError).issues.join('\n');
      expect(issues).toMatch(/exchange\.recvWindow/);
      expect(issues).toMatch(/exchange\.weightProfile/);
      expect(issues).toMatch(/exchange: unknown key\(s\) 'bogus'/);
      expect(issues).toMatch(/\(root\): unknown key\(s\) 'extra'/);
    }
  });

  it('names the known key a misspelt one was most likely meant to be, at any depth (arrays of objects too)', () => {
    try {
      parseConfig({ journl: { path: 'x.db' }, exchange: { retrys: 2 }, sandbox: { symbols: [{ symbl: 'X' }] }, zzzzzz: 1 });
      expect.fail('should have thrown');
    } catch (e) {
      const issues = (e as ConfigError).issues;
      expect(issues).toContain("(root): unknown key(s) 'journl' (did you mean 'journal'?), 'zzzzzz'");
      expect(issues).toContain("exchange: unknown key(s) 'retrys' (did you mean 'retry'?)");
      expect(issues).toContain("sandbox.symbols.0: unknown key(s) 'symbl' (did you mean 'symbol'?)");
    }
  });

  it('exchange.baseUrl must be http: or https:, exchange.wsUrl ws: or wss:', () => {
    expect(parseConfig({ exchange: { baseUrl: 'https://api.example.com', wsUrl: 'wss://ws.example.com' } }).exchange.baseUrl).toBe('https://api.example.com');
    expect(parseConfig({ exchange: { baseUrl: 'http://127.0.0.1:8080' } }).exchange.baseUrl).toBe('http://127.0.0.1:8080');
    try {
      parseConfig({ exchange: { baseUrl: 'ftp://x', wsUrl: 'http://x' } });
      expect.fail('should have thrown');
    } catch (e) {
      expect((e as ConfigError).issues).toEqual([
        "exchange.baseUrl: 'ftp://x' uses ftp:; only http: and https: are supported (e.g. http://127.0.0.1:8080)",
        "exchange.wsUrl: 'http://x' uses http:; only ws: and wss: are supported (e.g. ws://127.0.0.1:8080)",
      ]);
    }
    expect(() => parseConfig({ exchange: { baseUrl: 'notaurl' } })).toThrow(/exchange\.baseUrl: 'notaurl' is not a URL/);
  });

  it('names the file and the reason for unreadable or non-JSON files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'halyard-config-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{ not json');
    expect(() => loadConfig(file)).toThrow(/bad\.json[\s\S]*not valid JSON/);
    expect(() => loadConfig(join(dir, 'missing.json'))).toThrow(/cannot read the file/);
  });

  it('reads secrets only from the environment', () => {
    expect(secretsFromEnv({ HALYARD_API_KEY: 'k', HALYARD_API_SECRET: 's' })).toMatchObject({ apiKey: 'k', apiSecret: 's' });
    expect(secretsFromEnv({})).toMatchObject({ apiKey: undefined });
  });
});
