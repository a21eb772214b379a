/**
 * Generated requests for the sandbox property test (issue 24 acceptance): for every endpoint of
 * the table (src/exchange/endpoints) a fast-check generator derived from its declaration (method,
 * path, security, parameters with their kinds and bounds), so an endpoint added to the table is
 * covered without touching the test; for every admin route (GET <prefix>/routes) a generator of
 * JSON bodies from what the route itself says it expects (its answer to `{}`).
 *
 * Values: valid ones (the endpoint's example, the sandbox's symbols and assets, ids the sandbox
 * handed out earlier in the run) and invalid ones (huge, 1e400, negative, many decimals, empty,
 * unicode, very long, wrong JSON types), duplicated parameters, unknown parameters, JSON nested
 * thousands deep and bodies over the size limit. Signed with the project's signing code (spec
 * 5.2-5.4, protocol notes 2) most of the time, and sometimes wrongly.
 *
 * Ids the sandbox hands out are not known when a case is generated: a case names them as
 * references (`@ref:<pool>:<n>`), resolved when it is sent from what earlier answers carried.
 */
import fc from 'fast-check';
import { allEndpoints, type AnyEndpoint } from '../../src/exchange/endpoints/index.ts';
import type { AnyParam } from '../../src/exchange/params/dsl.ts';
import { encodeParams, hmacSha256Hex, signLegacyV4, signMerchant, unencodedForm } from '../../src/exchange/signing/index.ts';
import { parseJsonLossless } from '../../src/exchange/transport/lossless-json.ts';

// ---- what the generators draw from ------------------------------------------------------------

export interface Vocabulary {
  readonly symbols: readonly string[];
  readonly assets: readonly string[];
  readonly networks: readonly string[];
  /** Coin, network and a whitelisted address of that network, as the sandbox configures them. */
  readonly coinNetworks: readonly (readonly [string, string, string])[];
}

/** Values the sandbox handed out, by pool; cases refer to them by position. */
export class Known {
  private readonly pools = new Map<string, string[]>();
  constructor(private readonly excluded: ReadonlySet<string>) {}

  add(pool: string, value: string): void {
    if (value === '' || value.length > 200 || this.excluded.has(value)) return;
    const list = this.pools.get(pool) ?? [];
    if (list.includes(value)) return;
    list.push(value);
    // Keep a bounded, recent pool: later answers are the likelier to name live records.
    if (list.length > 64) list.shift();
    this.pools.set(pool, list);
  }

  pick(pool: string, n: number): string | undefined {
    const list = this.pools.get(pool);
    return list === undefined || list.length === 0 ? undefined : list[n % list.length];
  }
}

/** Answer fields worth remembering, and the pool each feeds. */
const LEARNED: Readonly<Record<string, string>> = {
  orderId: 'orderId',
  clientOrderId: 'clientOrderId',
  origClientOrderId: 'clientOrderId',
  listenKey: 'listenKey',
  quoteId: 'quoteId',
  internalOrderId: 'internalOrderId',
  externalOrderId: 'externalOrderId',
  id: 'id',
  invoice_id: 'id',
  sell_order_id: 'id',
  clientTranId: 'clientTranId',
  clientTransferId: 'clientTranId',
  client_transfer_id: 'clientTranId',
  clientRequestId: 'clientRequestId',
  withdrawOrderId: 'withdrawOrderId',
  email: 'email',
  accountId: 'accountId',
  uid: 'accountId',
  apiKey: 'apiKey',
  txId: 'txId',
};

/** Which pool a parameter (or admin field) named so draws its references from. */
const REF_POOL: Readonly<Record<string, string>> = {
  orderId: 'orderId',
  cancelOrderId: 'orderId',
  origClientOrderId: 'clientOrderId',
  cancelOrigClientOrderId: 'clientOrderId',
  newClientOrderId: 'clientOrderId',
  fromId: 'id',
  id: 'id',
  invoice_id: 'id',
  sell_order_id: 'id',
  listenKey: 'listenKey',
  quoteId: 'quoteId',
  internalOrderId: 'internalOrderId',
  externalOrderId: 'externalOrderId',
  clientTranId: 'clientTranId',
  client_transfer_id: 'clientTranId',
  clientRequestId: 'clientRequestId',
  withdrawOrderId: 'withdrawOrderId',
  email: 'email',
  fromEmail: 'email',
  toEmail: 'email',
  accountName: 'email',
  apikey: 'apiKey',
  apiKey: 'apiKey',
  accountId: 'accountId',
  subUserId: 'accountId',
  txId: 'txId',
};

/**
 * Remembers every learned field of an answer, at any depth, in its pool and in the pool of the
 * area it came from (an `id` from a payment request answer serves payment request calls first).
 */
export function learn(known: Known, value: unknown, area: string, depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 50)) learn(known, v, area, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const pool = LEARNED[k];
    if (pool !== undefined && (typeof v === 'string' || typeof v === 'number')) {
      known.add(pool, String(v));
      known.add(`${area}.${pool}`, String(v));
    } else learn(known, v, area, depth + 1);
  }
}

const REF = '@ref:';
const ref = (pool: string) => fc.nat({ max: 1000 }).map((n) => `${REF}${pool}:${n}`);

function resolve(text: string, known: Known, fallback: string, area = ''): string {
  if (!text.startsWith(REF)) return text;
  const [pool = '', n = '0'] = text.slice(REF.length).split(':');
  return known.pick(`${area}.${pool}`, Number(n)) ?? known.pick(pool, Number(n)) ?? fallback;
}

// ---- values -----------------------------------------------------------------------------------

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));

/** Wrong or hostile text for any parameter. */
const badText = fc.oneof(
  fc.constantFrom('', ' ', '-1', '0', '-0', '+1', '1e400', '-1e400', '1e-400', '1e3', '0x1f', '1,5', ' 7 ', 'NaN', 'Infinity', 'null', 'true', '[]', '{}', '%', '\u0000', '18446744073709551616', '99999999999999999999999999999999999999'),
  fc.constantFrom('é', '中文', '😀', 'ＢＴＣＰＨＰ', 'İ', '\u202e', 'a\r\nb').map((s) => s.repeat(3)),
  fc.integer({ min: 15, max: 60 }).map((n) => `0.${'0'.repeat(n)}1`),
  fc.integer({ min: 20, max: 60 }).map((n) => '9'.repeat(n)),
  fc.tuple(fc.constantFrom('a', 'é', '0', '-'), fc.constantFrom(31, 37, 101, 201, 255, 1025, 5000)).map(([c, n]) => c.repeat(n)),
  fc.string({ maxLength: 16 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);

const amountText = fc.oneof(
  { arbitrary: fc.constantFrom('0.001', '0.01', '0.1', '1', '5', '20', '50', '100', '500', '1000', '0.0001', '25.5'), weight: 6 },
  { arbitrary: fc.tuple(digits(1, 4), digits(0, 3)).map(([i, f]) => (f === '' ? i : `${i}.${f}`)), weight: 3 },
  digits(15, 45),
  fc.integer({ min: -500, max: 500 }).map((e) => `1e${e}`),
  fc.integer({ min: 9, max: 40 }).map((n) => `1.${'1'.repeat(n)}`),
  fc.constantFrom('-1', '0', '00.10', '.5', '5.', '-0.001'),
);

const priceText = fc.oneof(
  { arbitrary: fc.constantFrom('3425000', '3000000', '2900000', '3500000', '150000', '100000', '200000', '56', '57.5', '60000', '3400'), weight: 4 },
  amountText,
);

/** Expiries and date filters: ISO times and deltas (`1w 3d 2h`), from plain to enormous (issue 24 defect 1). */
const expiryText = fc.oneof(
  { arbitrary: fc.constantFrom('1w', '3d 2h', '45m', '1w 3d 2h 32m 5s', '2099-06-30T12:00:00Z'), weight: 3 },
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 16n }), fc.constantFrom('w', 'd', 'h', 'm', 's')).map(([n, u]) => `${n}${u}`),
  fc.tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 13 })).map(([y, m]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01T00:00:00Z`),
  fc.constantFrom('9999-12-31T23:59:59Z', '10000-01-01T00:00:00Z', '2020-01-01', '1970-01-01T00:00:00Z', '-1w', '0s', 'tomorrow'),
);

/** A JSON value nested `depth` deep. */
export function nestedJson(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}
const nestedDepth = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 40 }), weight: 3 }, fc.constantFrom(64, 65, 100, 1000, 5000, 20_000));

function exampleText(def: AnyEndpoint, name: string): string | undefined {
  const v = (def.example.params as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) || (typeof v === 'object' && v !== null) ? JSON.stringify(v) : String(v);
}

const isTime = (name: string) => /time|Time$/.test(name);
const isEmail = (name: string) => /email|Email|accountName|payer_contact_info|target_address/.test(name);
const isAsset = (name: string) => /^(coin|asset|currency|tokenId|fiatCurrency|receiving_account|account|sourceCurrency|targetCurrency)$/.test(name);

/** Values a parameter takes when all goes well: by name first, then by kind within its bounds. */
function goodValue(def: AnyEndpoint, name: string, param: AnyParam, vocab: Vocabulary, now: number): fc.Arbitrary<string> {
  const example = exampleText(def, name);
  const options: fc.Arbitrary<string>[] = [];
  if (example !== undefined) options.push(fc.constant(example));
  const pool = REF_POOL[name];
  if (pool !== undefined && name !== 'newClientOrderId') options.push(ref(pool), ref(pool));
  if (param.options.pattern !== undefined) options.push(fc.stringMatching(anchored(param.options.pattern)));
  if (name === 'symbol') options.push(fc.constantFrom(...vocab.symbols), fc.constantFrom(...vocab.symbols).map((s) => s.toLowerCase()));
  else if (name === 'symbols') options.push(fc.subarray([...vocab.symbols], { minLength: 1 }).map((l) => JSON.stringify(l)));
  else if (name === 'network') options.push(fc.constantFrom(...vocab.networks));
  else if (isAsset(name)) options.push(fc.constantFrom(...vocab.assets));
  else if (isEmail(name)) options.push(fc.nat({ max: 20 }).map((n) => `desk-${n}@example.com`));
  else if (name === 'newClientOrderId') options.push(fc.stringMatching(/^[A-Za-z0-9_-]{1,36}$/), ref('clientOrderId'));
  else if (name === 'price' || name === 'stopPrice') options.push(priceText, priceText);
  else if (/^expires_at$|Date$/.test(name)) options.push(expiryText, expiryText);
  else if (isTime(name) && (param.kind === 'LONG' || param.kind === 'INT')) options.push(fc.integer({ min: -40, max: 2 }).map((d) => String(now + d * 86_400_000)));
  switch (param.kind) {
    case 'ENUM':
      options.push(fc.constantFrom(...(param.values ?? [''])));
      break;
    case 'BOOLEAN':
      options.push(fc.constantFrom('true', 'false'));
      break;
    case 'INT':
    case 'LONG': {
      const min = param.options.min ?? 0;
      const max = param.options.max ?? min + 1000;
      options.push(fc.integer({ min, max: Math.min(max, min + 1_000_000) }).map(String));
      break;
    }
    case 'DECIMAL':
      options.push(amountText);
      break;
    case 'ID':
      options.push(fc.bigInt({ min: 1n, max: 2n ** 63n }).map(String));
      break;
    case 'LIST':
      options.push(fc.constant('["service_peso_wallet"]'));
      break;
    case 'JSON':
      options.push(fc.constant('{"recipientName":"Ana Cruz","recipientAccountNumber":"123456789"}'));
      break;
    default:
      if (options.length === 0) options.push(fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/));
  }
  return fc.oneof(...options);
}

/** A declared pattern matched whole (fast-check's stringMatching finds a match anywhere otherwise). */
function anchored(pattern: RegExp): RegExp {
  const src = pattern.source;
  return new RegExp(`${src.startsWith('^') ? '' : '^'}${src}${src.endsWith('$') ? '' : '$'}`, pattern.flags);
}

/** A new id for a write's own-id parameter, within the endpoint's terms (types.ts ClientIdTerms). */
function freshId(def: AnyEndpoint, name: string, param: AnyParam): fc.Arbitrary<string> | undefined {
  if (param.options.pattern !== undefined) return fc.stringMatching(anchored(param.options.pattern));
  const terms = def.clientId?.param === name ? def.clientId : undefined;
  if (terms?.charset === 'digits') return fc.stringMatching(new RegExp(`^[1-9][0-9]{9,${Math.max(9, terms.maxLength - 1)}}$`));
  if (terms !== undefined || /ClientOrderId$|clientRequestId|client_transfer_id|clientTranId|withdrawOrderId|external_transaction_id/.test(name)) {
    return fc.stringMatching(new RegExp(`^[A-Za-z0-9]{8,${Math.min(terms?.maxLength ?? 20, 20)}}$`));
  }
  return undefined;
}

/** Values just outside the declaration, and wrong kinds for it. */
function edgeValue(param: AnyParam): fc.Arbitrary<string> {
  const o = param.options;
  const edges: string[] = [];
  if (o.min !== undefined) edges.push(String(o.min - 1), String(o.min));
  if (o.max !== undefined) edges.push(String(o.max + 1), String(o.max), `${o.max}.5`);
  if (o.maxLength !== undefined) edges.push('7'.repeat(o.maxLength + 1), '7'.repeat(o.maxLength));
  if (param.values) edges.push(...param.values.map((v) => v.toLowerCase()), `${param.values[0] ?? ''} `);
  if (param.kind === 'LIST') edges.push('[]', '[1,2]', 'service_peso_wallet', '["x",', `[${'"a",'.repeat(500)}"a"]`);
  if (param.kind === 'JSON') edges.push('[]', '"text"', '1e400', 'null', '{"recipientName":{"a":[1,2,{}]}}');
  return edges.length === 0 ? badText : fc.oneof(fc.constantFrom(...edges), badText);
}

/** How a value is written in a JSON body: as the text (the client's way), or as another JSON type. */
export type JsonShape = 'string' | 'bare' | 'number' | 'array' | 'object' | 'null' | 'bool';
const jsonShape = fc.oneof({ arbitrary: fc.constant<JsonShape>('string'), weight: 12 }, fc.constantFrom<JsonShape>('bare', 'number', 'array', 'object', 'null', 'bool'));

export interface GenParam {
  name: string;
  text: string;
  shape: JsonShape;
}

const paramValue = (def: AnyEndpoint, name: string, param: AnyParam, vocab: Vocabulary, now: number) =>
  fc.record({
    name: fc.constant(name),
    text: fc.oneof({ arbitrary: goodValue(def, name, param, vocab, now), weight: 8 }, { arbitrary: edgeValue(param), weight: 2 }),
    // The JSON kind is written as JSON; everything else as text unless the case says otherwise.
    shape: param.kind === 'JSON' ? fc.oneof({ arbitrary: fc.constant<JsonShape>('bare'), weight: 8 }, jsonShape) : jsonShape,
  });

// ---- cases ------------------------------------------------------------------------------------

export type AuthMode = 'ok' | 'subKey' | 'badSig' | 'noSig' | 'stale' | 'future' | 'unknownKey' | 'noKey' | 'unsignedRecvWindow' | 'badRecvWindow' | 'upperSig' | 'sigHeader' | 'seconds';
const authMode = fc.oneof(
  { arbitrary: fc.constant<AuthMode>('ok'), weight: 22 },
  // Signed by a sub-account's key: the sub-only endpoints, and the master-only ones refusing it.
  { arbitrary: fc.constant<AuthMode>('subKey'), weight: 2 },
  fc.constantFrom<AuthMode>('badSig', 'noSig', 'stale', 'future', 'unknownKey', 'noKey', 'unsignedRecvWindow', 'badRecvWindow', 'upperSig', 'sigHeader', 'seconds'),
);

/** Where form/query parameters of a non-GET HMAC call travel (spec 1.6: query, body or both). */
export type Placement = 'canonical' | 'query' | 'body' | 'split';
const placement = fc.oneof({ arbitrary: fc.constant<Placement>('canonical'), weight: 6 }, fc.constantFrom<Placement>('query', 'body', 'split'));

export type Extra =
  | { kind: 'none' }
  | { kind: 'duplicate'; index: number; text: string }
  | { kind: 'unknown'; name: string }
  | { kind: 'deep'; depth: number }
  | { kind: 'pad'; bytes: number }
  /** Raw text added to the query or form as it is (bad escapes, keys without values, prototype names). */
  | { kind: 'malformed'; text: string }
  /** Another HTTP method than the endpoint's (HEAD is left out: its answers have no body to judge). */
  | { kind: 'method'; method: string };
const extra: fc.Arbitrary<Extra> = fc.oneof(
  { arbitrary: fc.constant<Extra>({ kind: 'none' }), weight: 14 },
  { arbitrary: fc.record({ kind: fc.constant('duplicate' as const), index: fc.nat(), text: fc.oneof(badText, fc.stringMatching(/^[A-Za-z0-9]{1,8}$/)) }), weight: 3 },
  // Undeclared names, among them the ones an object lookup could find on Object.prototype.
  fc.constantFrom('notAParameter', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf').map((name): Extra => ({ kind: 'unknown', name })),
  fc
    .constantFrom('%', '%E0%A4%A', '%ZZ=1', 'a=%FF%FE', '=novalue', 'novalue', '&&', 'a[]=1&a[]=2', '__proto__[x]=1', 'symbol=%00', '+=+', 'timestamp=1')
    .map((text): Extra => ({ kind: 'malformed', text })),
  fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS').map((method): Extra => ({ kind: 'method', method })),
  { arbitrary: nestedDepth.map((depth): Extra => ({ kind: 'deep', depth })), weight: 2 },
  // Over the 16 KiB header limit in a query; over the 1 MiB body limit; a long text under it.
  fc.constantFrom(17_000, 200_000, 1_100_000).map((bytes): Extra => ({ kind: 'pad', bytes })),
);

export interface ApiCase {
  readonly kind: 'api';
  readonly endpoint: string;
  readonly params: readonly GenParam[];
  readonly auth: AuthMode;
  readonly placement: Placement;
  readonly extra: Extra;
  /** Virtual time passing before the call (ms). */
  readonly gapMs: number;
}

const gapMs = fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, fc.integer({ min: 1, max: 3000 }));

/** One generator per endpoint of the table: each declared parameter present or not, with a value. */
export function endpointCase(def: AnyEndpoint, vocab: Vocabulary, now: number): fc.Arbitrary<ApiCase> {
  const entries = Object.entries(def.params as Record<string, AnyParam>);
  // Required parameters are nearly always there; optional ones about half the time (so the
  // defaults and the cross-parameter rules run as well).
  const mixed = fc
    .tuple(...entries.map(([name, param]) => fc.option(paramValue(def, name, param, vocab, now), { freq: param.required ? 13 : 2, nil: undefined })))
    .map((list) => list.filter((v): v is GenParam => v !== undefined));
  // The documented example with some values swapped for other good ones: a consistent call (an
  // order's type with the parameters that type needs) that the handler carries out.
  const fromExample = fc
    .tuple(
      fc.tuple(
        ...Object.keys(def.example.params as Record<string, unknown>).map((name) => {
          const param = (def.params as Record<string, AnyParam>)[name];
          const example = exampleText(def, name) ?? '';
          if (param === undefined) return fc.constant({ name, text: example, shape: 'string' as JsonShape });
          const pool = REF_POOL[name];
          const text =
            freshId(def, name, param) ??
            (pool !== undefined
              ? fc.oneof({ arbitrary: ref(pool), weight: 3 }, fc.constant(example))
              : fc.oneof({ arbitrary: fc.constant(example), weight: 2 }, goodValue(def, name, param, vocab, now)));
          return text.map((t) => ({ name, text: t, shape: (param.kind === 'JSON' ? 'bare' : 'string') as JsonShape }));
        }),
      ),
      fc.constantFrom(...vocab.coinNetworks),
    )
    .map(([list, [coin, network, address]]) => {
      // A coin with one of its own networks (and an address of it), where the call names them.
      if (!list.some((x) => x.name === 'network')) return list;
      const swap: Record<string, string> = { coin, network, address };
      return list.filter((x) => x.name !== 'addressTag').map((x) => (swap[x.name] === undefined ? x : { ...x, text: swap[x.name]! }));
    });
  const params = fc.oneof({ arbitrary: mixed, weight: 3 }, { arbitrary: fromExample, weight: 2 });
  return fc.record({ params, auth: authMode, placement, extra, gapMs }).map(({ params: ps, auth, placement: where, extra: more, gapMs: gap }) => ({
    kind: 'api' as const,
    endpoint: def.id,
    params: ps,
    auth,
    placement: where,
    extra: more,
    gapMs: gap,
  }));
}

/** What the answer to `{}` says of an admin route's body: the fields it wants and their options. */
export interface AdminHints {
  readonly fields: readonly { name: string; type: 'string' | 'number' | 'enum' | 'any'; options?: readonly string[] }[];
}

/** Reads zod's issues as the admin API words them ("name: Invalid option: expected one of "a"|"b""). */
export function hintsFrom(msg: string): AdminHints {
  const fields: AdminHints['fields'][number][] = [];
  for (const part of msg.replace(/^invalid admin request: /, '').split('; ')) {
    const m = /^(\w+): (.*)$/.exec(part);
    if (!m) continue;
    const [, name = '', rest = ''] = m;
    const opts = /expected one of (.*)$/.exec(rest);
    if (opts) fields.push({ name, type: 'enum', options: [...(opts[1] ?? '').matchAll(/"([^"]*)"/g)].map((x) => x[1] ?? '') });
    else if (/expected number/.test(rest)) fields.push({ name, type: 'number' });
    else if (/expected string/.test(rest)) fields.push({ name, type: 'string' });
    else fields.push({ name, type: 'any' });
  }
  return { fields };
}

export interface AdminCase {
  readonly kind: 'admin';
  readonly method: string;
  readonly path: string;
  /** Path with `:name` segments replaced. */
  readonly segments: readonly string[];
  /** JSON members (raw JSON text), or a raw body. */
  readonly members: readonly (readonly [string, string])[];
  readonly raw?: string;
  readonly gapMs: number;
}

/** Admin fields the routes share beyond what `{}` names (optional ones), with their kinds. */
const ADMIN_FIELDS = ['accountId', 'email', 'asset', 'coin', 'network', 'amount', 'address', 'addressTag', 'txId', 'status', 'confirmations', 'balances', 'apiKey', 'enabled', 'roles', 'speed', 'advanceMs', 'time', 'limit', 'kind', 'phone', 'info', 'name'];

function adminValue(name: string, type: AdminHints['fields'][number]['type'], options: readonly string[] | undefined, vocab: Vocabulary, now: number): fc.Arbitrary<string> {
  const s = (a: fc.Arbitrary<string>) => a.map((t) => JSON.stringify(t));
  const good: fc.Arbitrary<string>[] = [];
  if (options && options.length > 0) good.push(s(fc.constantFrom(...options)));
  if (name === 'accountId') good.push(s(ref('accountId')), s(fc.constant('100000001')));
  else if (name === 'asset' || name === 'coin') good.push(s(fc.constantFrom(...vocab.assets)));
  else if (name === 'network') good.push(s(fc.constantFrom(...vocab.networks)));
  else if (name === 'amount' || name === 'limit') good.push(s(amountText), s(amountText), fc.constantFrom('1', '0.5', '1e400', '1e-30', '123456789012345678901234567890'));
  else if (name === 'email') good.push(s(fc.nat({ max: 30 }).map((n) => `admin-${n}@example.com`)));
  else if (name === 'phone') good.push(s(fc.constantFrom('+639171234567', '+63 917 123 4567')));
  else if (name === 'time') good.push(fc.integer({ min: -10, max: 10 }).map((d) => String(now + d * 3_600_000)), fc.constantFrom('0', '-1', '1e400', '253402300800000'));
  else if (name === 'advanceMs') good.push(fc.integer({ min: 0, max: 86_400_000 }).map(String), fc.constantFrom('-1', '1e15', '9007199254740993'));
  else if (name === 'speed') good.push(fc.constantFrom('1', '2', '0.5', '-1', '1e400'));
  else if (name === 'balances') good.push(fc.tuple(fc.constantFrom(...vocab.assets), amountText).map(([a, v]) => JSON.stringify({ [a]: v })));
  else if (REF_POOL[name] !== undefined) good.push(s(ref(REF_POOL[name] ?? 'id')));
  if (type === 'number') good.push(fc.integer({ min: 0, max: 100_000 }).map(String));
  if (type === 'string' || good.length === 0) good.push(s(fc.stringMatching(/^[A-Za-z0-9]{1,12}$/)));
  const bad = fc.oneof(s(badText), fc.constantFrom('null', 'true', '[]', '{}', '1e400', '-5', '{"a":{"b":[1]}}'), nestedDepth.map(nestedJson));
  return fc.oneof({ arbitrary: fc.oneof(...good), weight: 6 }, bad);
}

/** One generator per admin route, its fields from the route's own hints plus the shared ones. */
export function adminCase(route: { method: string; path: string }, hints: AdminHints, vocab: Vocabulary, now: number): fc.Arbitrary<AdminCase> {
  const segmentNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
  const segments = fc.tuple(...segmentNames.map((n) => fc.oneof({ arbitrary: ref(REF_POOL[n] ?? 'id'), weight: 3 }, badText.filter((t) => t !== '' && !t.includes('/')))));
  const hinted = hints.fields.map((f) => fc.option(fc.tuple(fc.constant(f.name), adminValue(f.name, f.type, f.options, vocab, now)), { freq: 11, nil: undefined }));
  const others = fc.subarray(ADMIN_FIELDS.filter((n) => !hints.fields.some((f) => f.name === n)), { maxLength: 2 }).chain((names) =>
    fc.tuple(...names.map((n) => fc.tuple(fc.constant(n), adminValue(n, 'any', undefined, vocab, now)))),
  );
  // Mostly the members above; sometimes a body that is no such object at all.
  const raw = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 12 },
    fc.oneof(nestedDepth.map(nestedJson), fc.constantFrom('{', '[]', 'null', '"x"', '{"a":1,"a":2}'), fc.constant(`{"x":"${'a'.repeat(1_100_000)}"}`)),
  );
  return fc
    .record({ segments, hinted: fc.tuple(...hinted), others: fc.oneof({ arbitrary: fc.constant([] as [string, string][]), weight: 3 }, others), raw, gapMs })
    .map(({ segments: segs, hinted: h, others: o, raw: r, gapMs: gap }) => {
      const members = [...h.filter((x): x is [string, string] => x !== undefined), ...o];
      return { kind: 'admin', method: route.method, path: route.path, segments: segs, members, ...(r === undefined ? {} : { raw: r }), gapMs: gap };
    });
}

export type GenCase = ApiCase | AdminCase;

/** A short, readable form of a case for counterexamples (long values cut). */
export function describeCase(c: GenCase): string {
  const cut = (t: string) => (t.length > 60 ? `${t.slice(0, 40)}…(${t.length})` : t);
  if (c.kind === 'admin') return `admin ${c.method} ${c.path} [${c.segments.map(cut).join(', ')}] ${c.raw !== undefined ? cut(c.raw) : `{${c.members.map(([k, v]) => `${k}:${cut(v)}`).join(', ')}}`}`;
  const extraText = c.extra.kind === 'none' ? '' : ` +${JSON.stringify(c.extra).slice(0, 80)}`;
  return `${c.endpoint} auth=${c.auth} ${c.placement} ${c.params.map((p) => `${p.name}=${cut(p.text)}${p.shape === 'string' ? '' : `(${p.shape})`}`).join('&')}${extraText}`;
}

// ---- sending ----------------------------------------------------------------------------------

export interface Target {
  baseUrl: string;
  adminPrefix: string;
  now: () => number;
  apiKey: string;
  apiSecret: string;
  merchantKey: string;
  merchantSecret: string;
  /** A key of a sub-account of the demo master. */
  subKey: { apiKey: string; apiSecret: string };
}

export interface Answer {
  status: number;
  text: string;
  /** The JSON body (lossless: ids beyond 2^53 as strings), or undefined when not JSON. */
  body: unknown;
  /** What was sent, shortened, for the failure message. */
  sent: string;
}

const endpointById = new Map(allEndpoints.map((e) => [e.id, e]));

/** A value written into a JSON body in the case's shape. */
function jsonMember(p: GenParam): string {
  switch (p.shape) {
    case 'string':
      return JSON.stringify(p.text);
    case 'bare':
      return isJson(p.text) ? p.text : JSON.stringify(p.text);
    case 'number':
      return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(p.text) ? p.text : '12345678901234567890';
    case 'array':
      return `[${JSON.stringify(p.text)}]`;
    case 'object':
      return `{"value":${JSON.stringify(p.text)}}`;
    case 'null':
      return 'null';
    case 'bool':
      return 'true';
  }
}

function isJson(text: string): boolean {
  // Deep texts are sent as they are: the point is what the sandbox does with them.
  if (/^\[{64}/.test(text)) return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export async function sendCase(t: Target, c: GenCase, known: Known): Promise<Answer> {
  return c.kind === 'admin' ? sendAdmin(t, c, known) : sendApi(t, c, known);
}

const ADMIN_AREAS: Readonly<Record<string, string>> = { 'payment-requests': 'paymentRequest', invoices: 'merchant', deposits: 'wallet', withdrawals: 'wallet', fiat: 'fiat' };

async function sendAdmin(t: Target, c: AdminCase, known: Known): Promise<Answer> {
  let i = 0;
  // The area whose ids a route's `:id` names (a payment request's, an invoice's ...).
  const area = ADMIN_AREAS[c.path.split('/')[1] ?? ''] ?? 'admin';
  const path = c.path.replace(/:(\w+)/g, () => encodeURIComponent(resolve(c.segments[i++] ?? 'x', known, 'none', area)));
  const members = c.members.map(([k, v]) => {
    if (!v.startsWith(`"${REF}`)) return `${JSON.stringify(k)}:${v}`;
    const refText = JSON.parse(v) as string;
    return `${JSON.stringify(k)}:${JSON.stringify(resolve(refText, known, 'none'))}`;
  });
  const body = c.raw ?? `{${members.join(',')}}`;
  const url = `${t.baseUrl}${t.adminPrefix}${path}`;
  if (c.method === 'GET') {
    // A GET route reads its fields from the query: the members' values as text.
    const query = encodeParams(c.members.map(([k, v]) => [k, resolve(v.startsWith('"') ? (JSON.parse(v) as string) : v, known, 'none', area)]));
    return fetchAnswer(query === '' ? url : `${url}?${query}`, { method: 'GET' }, `GET ${path}?${query.slice(0, 300)}`);
  }
  return fetchAnswer(url, { method: c.method, headers: { 'content-type': 'application/json' }, body }, `${c.method} ${path} ${body.slice(0, 300)}`);
}

async function sendApi(t: Target, c: ApiCase, known: Known): Promise<Answer> {
  const def = endpointById.get(c.endpoint);
  if (!def) throw new Error(`no endpoint ${c.endpoint}`);
  const params = c.params.map((p) => ({ ...p, text: resolve(p.text, known, exampleText(def, p.name) ?? '1', def.area) }));
  // Duplicate a present parameter, or add one the endpoint does not declare.
  if (c.extra.kind === 'duplicate' && params.length > 0) params.push({ ...params[c.extra.index % params.length]!, text: c.extra.text });
  if (c.extra.kind === 'unknown') params.push({ name: c.extra.name, text: 'x', shape: 'string' });
  if (c.extra.kind === 'pad') params.push({ name: 'pad', text: 'p'.repeat(c.extra.bytes), shape: 'string' });
  if (c.extra.kind === 'deep') params.push({ name: 'deep', text: nestedJson(c.extra.depth), shape: 'bare' });

  // Path parameters leave the list; a missing required one is written as an empty segment.
  const used = new Set<string>();
  const path = def.path.replace(/\/\{(\w+)(\?)?\}/g, (_m, name: string, optional?: string) => {
    const p = params.find((x) => x.name === name);
    if (!p) return optional ? '' : '/';
    used.add(name);
    return `/${encodeURIComponent(p.text)}`;
  });
  const rest = params.filter((p) => !used.has(p.name));
  const pairs: [string, string][] = rest.map((p) => [p.name, p.text]);
  const url = t.baseUrl + path;
  const now = t.now();
  const key = c.auth === 'unknownKey' ? 'hsbxNoSuchKey000000000000000000000000000000000000000000000000000' : c.auth === 'subKey' ? t.subKey.apiKey : t.apiKey;
  const secret = c.auth === 'subKey' ? t.subKey.apiSecret : t.apiSecret;
  const headers: Record<string, string> = {};
  const json = def.encoding === 'json' && def.method !== 'GET';
  // Signed for the endpoint's method; sent with another when the case says so (405 expected).
  const method = c.extra.kind === 'method' ? c.extra.method : def.method;
  const jsonBody = `{${rest.map((p) => `${JSON.stringify(p.name)}:${jsonMember(p)}`).join(',')}}`;
  const tail = c.extra.kind === 'malformed' ? c.extra.text : '';
  /** The pairs encoded as the client does, with the case's raw tail after them. */
  const encode = (list: [string, string][]) => [encodeParams(list), tail].filter((x) => x !== '').join('&');

  switch (def.security) {
    case 'NONE':
    case 'USER_STREAM':
    case 'MARKET_DATA': {
      if (def.security !== 'NONE' ? c.auth !== 'noKey' : c.auth === 'unknownKey') headers['X-SERVICE-APIKEY'] = key;
      if (json) return send(method, url, { ...headers, 'content-type': 'application/json' }, jsonBody);
      const text = encode(pairs);
      if (def.method === 'GET' || c.placement !== 'body') return send(method, text === '' ? url : `${url}?${text}`, headers);
      return send(method, url, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, text);
    }
    case 'TRADE':
    case 'USER_DATA': {
      if (c.auth !== 'noKey') headers['X-SERVICE-APIKEY'] = key;
      const ts = c.auth === 'stale' || c.auth === 'unsignedRecvWindow' ? now - 70_000 : c.auth === 'future' ? now + 5_000 : c.auth === 'seconds' ? Math.floor(now / 1000) : now;
      if (c.auth === 'unsignedRecvWindow') headers['recvWindow'] = '60000';
      const sign = (message: string) => {
        const sig = hmacSha256Hex(secret, message);
        return c.auth === 'badSig' ? hmacSha256Hex('wrong secret', message) : c.auth === 'upperSig' ? sig.toUpperCase() : sig;
      };
      if (json) {
        const query = `recvWindow=${c.auth === 'badRecvWindow' ? '60001' : '5000'}`;
        if (c.auth !== 'noSig') headers['signature'] = sign(query + jsonBody);
        headers['timestamp'] = String(ts);
        return send(method, `${url}?${query}`, { ...headers, 'content-type': 'application/json' }, jsonBody);
      }
      // The client sends its window on every signed call (some endpoints require it, spec 4.3).
      const recvWindow = c.auth === 'badRecvWindow' ? ['60001', '-1', '0', '1e400', 'abc', '5000.5'][now % 6]! : '5000';
      pairs.push(['recvWindow', recvWindow]);
      const all = encode([...pairs, ['timestamp', String(ts)]]);
      const where = def.method === 'GET' ? 'query' : c.placement === 'canonical' ? (def.encoding === 'query' ? 'query' : 'body') : c.placement;
      let query = all;
      let body = '';
      if (where === 'body') [query, body] = ['', all];
      if (where === 'split') {
        const cut = Math.floor(pairs.length / 2);
        query = encodeParams(pairs.slice(0, cut));
        body = encode([...pairs.slice(cut), ['timestamp', String(ts)]]);
      }
      const signature = sign(query + body);
      if (c.auth === 'sigHeader') headers['signature'] = signature;
      else if (c.auth !== 'noSig') {
        if (body !== '') body = `${body}&signature=${signature}`;
        else query = `${query}${query === '' ? '' : '&'}signature=${signature}`;
      }
      const target = query === '' ? url : `${url}?${query}`;
      if (body === '') return send(method, target, headers);
      return send(method, target, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body);
    }
    case 'MERCHANT': {
      const inQuery = def.method === 'GET';
      const form = c.placement === 'body';
      const body = inQuery ? undefined : form ? encodeParams(pairs) : jsonBody;
      const signed = signMerchant({
        merchantKey: c.auth === 'unknownKey' ? 'nope' : t.merchantKey,
        secret: c.auth === 'badSig' ? 'wrong secret' : t.merchantSecret,
        timestamp: String(c.auth === 'stale' ? now - 3_600_000 : c.auth === 'seconds' ? Math.floor(now / 1000) : now),
        url,
        query: inQuery ? unencodedForm(pairs) : undefined,
        body: inQuery ? undefined : form ? unencodedForm(pairs) : jsonBody,
      });
      const h: Record<string, string> = { ...signed };
      if (c.auth === 'noSig') delete h['X-Merchant-Sign'];
      if (c.auth === 'noKey') delete h['X-Merchant-Key'];
      const target = inQuery && pairs.length > 0 ? `${url}?${encodeParams(pairs)}` : url;
      if (body === undefined) return send(method, target, h);
      return send(method, target, { ...h, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }, body);
    }
    case 'LEGACY_V4': {
      const inQuery = def.method === 'GET';
      const body = inQuery ? undefined : jsonBody;
      const signed = signLegacyV4({
        apiKey: key,
        secret: c.auth === 'badSig' ? 'wrong secret' : secret,
        nowMs: c.auth === 'stale' ? now - 3_600_000 : now,
        url,
        method: def.method,
        query: inQuery ? unencodedForm(pairs) : undefined,
        body,
      });
      const h: Record<string, string> = { ...signed };
      if (c.auth === 'noSig') delete h['ACCESS-SIGNATURE'];
      if (c.auth === 'noKey') delete h['ACCESS-KEY'];
      const target = inQuery && pairs.length > 0 ? `${url}?${encodeParams(pairs)}` : url;
      if (body === undefined) return send(method, target, h);
      return send(method, target, { ...h, 'content-type': 'application/json' }, body);
    }
  }
}

function send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  // fetch sends no body with GET: a call sent as GET instead of its method loses its body.
  if (method === 'GET' && body !== undefined) return send(method, url, headers);
  const shown = `${method} ${url.slice(url.indexOf('/', 8), url.indexOf('/', 8) + 300)} ${JSON.stringify(headers).slice(0, 300)} ${(body ?? '').slice(0, 300)}`;
  return fetchAnswer(url, body === undefined ? { method, headers } : { method, headers, body }, shown);
}

async function fetchAnswer(url: string, init: RequestInit, sent: string): Promise<Answer> {
  const r = await fetch(url, init);
  const text = await r.text();
  let body: unknown;
  try {
    body = parseJsonLossless(text);
  } catch {
    body = undefined;
  }
  return { status: r.status, text, body, sent };
}
