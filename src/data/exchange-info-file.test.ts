import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeInfoFileError, readExchangeInfoFile } from './exchange-info-file.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'halyard-rules-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const link = {
  symbol: 'LINKUSDT',
  status: 'TRADING',
  baseAsset: 'LINK',
  baseAssetPrecision: 8,
  quoteAsset: 'USDT',
  quoteAssetPrecision: 8,
  orderTypes: ['LIMIT', 'MARKET'],
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.001', maxPrice: '1000', tickSize: '0.001' },
    { filterType: 'LOT_SIZE', minQty: '0.01', maxQty: '90000', stepSize: '0.01' },
  ],
};

function file(name: string, content: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
}

describe('readExchangeInfoFile', () => {
  it('reads a symbol from an exchangeInfo response and keeps the body as it is', () => {
    const body = { timezone: 'UTC', serverTime: 1, symbols: [{ ...link, symbol: 'ETHUSDT', baseAsset: 'ETH' }, link] };
    const r = readExchangeInfoFile(file('info.json', body), 'LINKUSDT');
    expect(r.instrument.symbol).toBe('LINKUSDT');
    expect(r.instrument.filter('LOT_SIZE')?.stepSize.toFixed()).toBe('0.01');
    expect(r.raw).toEqual(link);
    expect(r.body).toEqual(body);
  });

  it('reads one symbol object and wraps it as a body', () => {
    const r = readExchangeInfoFile(file('one.json', link), 'LINKUSDT');
    expect(r.instrument.baseAsset).toBe('LINK');
    expect(r.body).toEqual({ symbols: [link] });
  });

  it('names the symbols a file lists when the one asked for is not there', () => {
    expect(() => readExchangeInfoFile(file('other.json', { symbols: [link] }), 'BTCUSDT')).toThrow(/other\.json has no rules for BTCUSDT; it lists LINKUSDT/);
    expect(() => readExchangeInfoFile(file('none.json', { symbols: [] }), 'BTCUSDT')).toThrow(/it lists no symbol/);
  });

  it('refuses, naming the file and the field: missing, not JSON, not an object, a bad symbol object', () => {
    expect(() => readExchangeInfoFile(join(dir, 'absent.json'), 'LINKUSDT')).toThrow(/cannot read the exchange rules file .*absent\.json: no such file$/);
    expect(() => readExchangeInfoFile(file('text.json', 'symbols: LINKUSDT'), 'LINKUSDT')).toThrow(/text\.json is not JSON/);
    expect(() => readExchangeInfoFile(file('array.json', [link]), 'LINKUSDT')).toThrow(/array\.json: expected an exchangeInfo object .* found an array/);
    expect(() => readExchangeInfoFile(file('shape.json', { serverTime: 1 }), 'LINKUSDT')).toThrow(/shape\.json: expected an exchangeInfo object \(with "symbols"\) or one symbol object/);
    expect(() => readExchangeInfoFile(file('notarray.json', { symbols: {} }), 'LINKUSDT')).toThrow(/"symbols" must be an array/);
    const bad = { symbols: [{ ...link, filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.001', maxPrice: '1000', tickSize: 'tiny' }] }] };
    expect(() => readExchangeInfoFile(file('bad.json', bad), 'LINKUSDT')).toThrow(/bad\.json: symbols\[0\]\.filters\[0\]\.tickSize/);
    expect(() => readExchangeInfoFile(file('bad2.json', bad), 'LINKUSDT')).toThrow(ExchangeInfoFileError);
    expect(() => readExchangeInfoFile(dir, 'LINKUSDT')).toThrow(/: it is a directory, not a file$/);
  });

  it('names every missing field of a symbol object at once, and the fields of a lone symbol object as the file has them', () => {
    const handWritten = { symbol: 'LINKUSDT', baseAsset: 'LINK', quoteAsset: 'USDT', filters: link.filters };
    expect(() => readExchangeInfoFile(file('hand.json', handWritten), 'LINKUSDT')).toThrow(
      /hand\.json: the symbol object lacks status, baseAssetPrecision, quoteAssetPrecision \(a symbol object holds symbol, status, baseAsset, baseAssetPrecision, quoteAsset, quoteAssetPrecision, filters, and optionally orderTypes; spec 2\.2\)$/,
    );
    expect(() => readExchangeInfoFile(file('list.json', { symbols: [link, { ...handWritten, symbol: 'ETHUSDT' }] }), 'LINKUSDT')).toThrow(/list\.json: symbols\[1\] lacks status, baseAssetPrecision/);
    const tick = { ...link, filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.001', maxPrice: '1000', tickSize: 'tiny' }] };
    expect(() => readExchangeInfoFile(file('tick.json', tick), 'LINKUSDT')).toThrow(/tick\.json: filters\[0\]\.tickSize: "tiny" is not a decimal$/);
  });
});
