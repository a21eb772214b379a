/**
 * Lossless JSON parse (protocol notes 5.1): every REST and stream body goes through
 * `parseJsonLossless`, and every executionReport and trade carries a 19-digit id. Why the
 * project's own parser: lossless-json's parser (used for such bodies before) cost about
 * 6 us an executionReport under load against 1.7 us for `JSON.parse` (3.5x), on the path from
 * the socket to the strategy. Ours quotes the unsafe number literals in one scan and hands the
 * text to the native `JSON.parse`. Each figure is next to `JSON.parse` of the same text (which
 * rounds the ids: the cost of no losslessness at all), and lossless-json's parser for reference.
 */
import { isSafeNumber, parse } from 'lossless-json';
import { parseJsonLossless } from '../src/exchange/transport/lossless-json.ts';
import { measureSync, row } from './harness.ts';

const ID = 1375445991893797391n;

const executionReport = (i: number) =>
  `{"e":"executionReport","E":1499405658658,"s":"BTCPHP","c":"hx-${i}-0001","S":"BUY","o":"LIMIT","f":"GTC","q":"1.00000000","p":"3150000.50",` +
  `"P":"0.00000000","x":"TRADE","X":"PARTIALLY_FILLED","r":"NONE","i":${ID + BigInt(i)},"l":"0.00100000","z":"0.00300000","L":"3150000.50",` +
  `"n":"0.00000100","N":"BTC","T":1499405658657,"t":${ID + 7n + BigInt(i)},"w":false,"m":false,"O":1499405658657,"Z":"9450.00150000","Y":"3150.00050000","Q":"0.00000000"}`;

const trade = (i: number) =>
  `{"e":"trade","E":1672515782136,"s":"BTCPHP","t":${ID + BigInt(i)},"p":"3150000.50","q":"0.00120000","b":${ID - 5n},"a":${ID - 9n},"T":1672515782136,"m":true,"M":true}`;

const depthUpdate = (i: number) => {
  const levels = (side: number) => Array.from({ length: 20 }, (_, k) => `["${(3150000 + side * (k + 1) * 0.5).toFixed(2)}","${(0.001 * (k + 1 + i % 7)).toFixed(8)}"]`).join(',');
  return `{"e":"depthUpdate","E":1672515782136,"s":"BTCPHP","U":${157 + i},"u":${160 + i},"b":[${levels(-1)}],"a":[${levels(1)}]}`;
};

const myTrades = (): string => {
  const rows = Array.from(
    { length: 500 },
    (_, k) =>
      `{"symbol":"BTCPHP","id":${ID + BigInt(k)},"orderId":${ID + 1000n + BigInt(k)},"price":"3150000.50","qty":"0.00100000","quoteQty":"3150.00050000",` +
      `"commission":"0.00000100","commissionAsset":"BTC","time":${1672515782136 + k},"isBuyer":${k % 2 === 0},"isMaker":false,"isBestMatch":true}`,
  );
  return `[${rows.join(',')}]`;
};

/** As the socket and undici hand them over: flat strings decoded from bytes, not concatenations. */
const flat = (text: string): string => Buffer.from(text).toString('utf8');

const losslessJson = (text: string): unknown => parse(text, null, (n) => (isSafeNumber(n) ? Number(n) : n));

export async function run(): Promise<string[]> {
  const lines = ['Lossless JSON parse (parseJsonLossless) next to JSON.parse of the same text'];
  const cases: [string, string[], number][] = [
    ['executionReport (2 ids > 2^53)', Array.from({ length: 64 }, (_, i) => flat(executionReport(i))), 200_000],
    ['trade event (3 ids > 2^53)', Array.from({ length: 64 }, (_, i) => flat(trade(i))), 200_000],
    ['depthUpdate, 20 levels a side', Array.from({ length: 64 }, (_, i) => flat(depthUpdate(i))), 50_000],
    ['myTrades answer, 500 rows (1,000 ids > 2^53)', [flat(myTrades())], 300],
  ];
  for (const [name, texts, n] of cases) {
    const m = texts.length;
    const base = measureSync(`JSON.parse, ${name}`, n, (i) => JSON.parse(texts[i % m]!));
    const ours = measureSync(`parseJsonLossless, ${name}`, n, (i) => parseJsonLossless(texts[i % m]!));
    const lib = measureSync(`lossless-json parse, ${name}`, n, (i) => losslessJson(texts[i % m]!));
    lines.push(row(base), row(ours, base), row(lib, base));
  }
  return lines;
}
