/**
 * Issue 24 acceptance, the property test: generated requests to every endpoint of the table and
 * every admin route (test/support/generated-requests.ts: valid and invalid values for each
 * declared parameter, duplicated and unknown parameters, JSON nested thousands deep, bodies over
 * the limit, right and wrong signatures) against a sandbox with `--state` (a SqliteStateStore on a
 * VirtualClock that starts at the same fixed time on every start), in concurrent groups of one to
 * four, in batches; between batches the sandbox stops cleanly or is abandoned as a crash leaves it
 * (nothing written after the "kill"), and starts again on the same file.
 *
 * Checked on every answer: never a 5xx (spec 7.1: an unknown outcome; always a sandbox bug); a 4xx
 * is `{code, msg}` with a spec 7.3 code (or a 7.5 filter code) and a non-empty message (notes 9:
 * the current code list is exactly spec 7.3); a convert or fiat envelope that reports a failure
 * carries a spec 7.6 status. After every restart: the state file loads, and every order id the
 * sandbox ever returned names the same order (symbol, client order id) or none.
 *
 * The seed is in the test's name (fast-check's own message adds the batch number to it);
 * HALYARD_PROPERTY_SEED=<seed> generates the same requests again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { allEndpoints, findEndpoint } from '../src/exchange/endpoints/index.ts';
import { SqliteStateStore } from '../src/sandbox/accounts/sqlite-state-store.ts';
import type { StateStore } from '../src/sandbox/accounts/state-store.ts';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { adminCase, describeCase, endpointCase, hintsFrom, Known, learn, sendCase, type Answer, type GenCase, type Target, type Vocabulary } from './support/generated-requests.ts';

const dir = mkdtempSync(join(tmpdir(), 'halyard-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 2023-11-14T22:13:20Z on every start: id seeds taken from the clock are the same each time. */
const START = 1_700_000_000_000;
const BATCHES = 5;
/**
 * Groups of 1-4 requests per batch: about 2.5 requests each, so 5 x 250 groups send about 3,100
 * (at least the 2,000 the acceptance asks, checked below). HALYARD_PROPERTY_GROUPS=<n> runs longer
 * batches when hunting; the default keeps the file under a minute.
 */
const GROUPS_PER_BATCH = Number(process.env['HALYARD_PROPERTY_GROUPS'] ?? 250);
/** After these batches the sandbox is abandoned as a crash leaves it; after the others it stops cleanly. */
const CRASH_AFTER = new Set([1, 3]);
const SEED = Number(process.env['HALYARD_PROPERTY_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

const MERCHANT = { apiKey: 'hsbxMerchantKey00000000000000000000000000000000000000000000pbt1', secret: 'hsbxMerchantSecret000000000000000000000000000000000000000000pbt1' };
const SUB_EMAIL = 'desk-a@example.com';
const POOL = { limit: 10_000_000, windowMs: 60_000 };
const CONFIG = { admin: { enabled: true }, rateLimits: { pools: { IP: POOL, UID: POOL, ORDERS: POOL } } };

/** Spec 7.3 (-1000 comes only with a 5xx, refused anyway). Notes 9's old-only codes are not current. */
const SPEC_CODES = new Set([
  -1001, -1002, -1003, -1010, -1015, -1020, -1021, -1022, -1023, -1024, -1025, -1026, -1027, -1103, -1105, -1106, -1107, -1108, -1125, -1126, -1131, -1132,
  -1133, -1150, -1151, -1152, -2010, -2011, -2013, -2015, -2017, -2018, -2019, -10324,
]);
/** Spec 7.5, "Filter failures (-9xxx)". */
const isFilterCode = (code: number) => code <= -9000 && code > -10000;
/** Spec 7.6: convert 10000003; fiat cash-out 88010000 and 88010002-88010018. */
const isEnvelopeStatus = (status: number) => status === 10000003 || status === 88010000 || (status >= 88010002 && status <= 88010018);

// ---- the state file, and a crash ---------------------------------------------------------------

/**
 * A state store that can be "killed": from then on nothing reaches the file (every save* call is
 * dropped), as after a SIGKILL; the sandbox is then closed only to free the port. The kill is
 * given between batches, with no request in flight, so nothing is issued after it.
 */
function crashableStore(file: string): { store: StateStore; kill: () => void } {
  const real = new SqliteStateStore(file);
  let killed = false;
  const store = new Proxy(real, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      if (killed && typeof prop === 'string' && prop.startsWith('save')) return () => undefined;
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  }) as StateStore;
  return { store, kill: () => (killed = true) };
}

interface Running {
  s: SandboxHandle;
  clock: VirtualClock;
  kill: () => void;
}

async function open(file: string): Promise<Running> {
  const clock = new VirtualClock(START);
  const { store, kill } = crashableStore(file);
  let s: SandboxHandle;
  try {
    s = await startSandbox({ config: CONFIG, stateStore: store, clock });
  } catch (err) {
    throw new Error(`the state file does not load: ${(err as Error).message}`, { cause: err });
  }
  const demo = s.accounts.getKey(s.apiKey)!.accountId;
  if (!s.accounts.getKey(MERCHANT.apiKey)) s.accounts.createKey({ accountId: demo, apiKey: MERCHANT.apiKey, secret: MERCHANT.secret, merchant: true, createdAt: s.clock.now() });
  return { s, clock, kill };
}

async function admin(s: SandboxHandle, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`${s.baseUrl}${s.config.admin.prefix}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

/** Undo what an earlier batch's admin calls may have switched off, and fund the demo account; the sub-account's key. */
async function prepare(s: SandboxHandle): Promise<Target['subKey']> {
  await admin(s, 'DELETE', '/faults');
  await admin(s, 'POST', '/system-status', { SPOT: 'on', CONVERT: 'on' });
  await admin(s, 'POST', '/rate-limits/reset', {});
  const accountId = s.accounts.getKey(s.apiKey)!.accountId;
  // A sub-account for the sub-account endpoints (the table's examples name desk-a).
  if (!s.accounts.findByEmail(SUB_EMAIL)) await admin(s, 'POST', '/accounts', { email: SUB_EMAIL, masterEmail: s.accounts.getAccount(accountId)!.email, balances: { PHP: '1000', BTC: '1' } });
  const sub = s.accounts.findByEmail(SUB_EMAIL)!;
  const subKey = s.accounts.keysOf(sub.id).find((k) => !k.merchant) ?? s.accounts.createKey({ accountId: sub.id, createdAt: s.clock.now() });
  for (const [coin, network, address] of vocabularyOf(s).coinNetworks) {
    const r = await admin(s, 'POST', '/withdraw-whitelist', { accountId, coin, network, address });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  }
  for (const [asset, amount] of [['PHP', '50000000'], ['BTC', '20'], ['ETH', '200'], ['USDT', '1000000']] as const) {
    const r = await admin(s, 'POST', '/balances/credit', { accountId, asset, amount });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  }
  return { apiKey: subKey.apiKey, apiSecret: subKey.secret };
}

// ---- orders: an id names one order ------------------------------------------------------------

interface OrderName {
  symbol: string;
  clientOrderId: string | undefined;
}

/** Every order id the sandbox returned, with the order it named. */
class OrderIds {
  readonly names = new Map<string, OrderName>();

  /** Records every `{orderId, symbol, clientOrderId?}` in an answer; fails when an id names another order. */
  record(value: unknown, where: string, depth = 0): void {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) this.record(v, where, depth + 1);
      return;
    }
    const o = value as Record<string, unknown>;
    const id = o['orderId'];
    const symbol = o['symbol'];
    if ((typeof id === 'string' || typeof id === 'number') && typeof symbol === 'string' && String(id) !== '-1') {
      const cid = typeof o['origClientOrderId'] === 'string' ? o['origClientOrderId'] : typeof o['clientOrderId'] === 'string' ? o['clientOrderId'] : undefined;
      const key = String(id);
      const seen = this.names.get(key);
      if (seen === undefined) this.names.set(key, { symbol, clientOrderId: cid });
      else {
        const same = seen.symbol === symbol && (seen.clientOrderId === undefined || cid === undefined || seen.clientOrderId === cid);
        expect(same, `order id ${key} named ${JSON.stringify(seen)} and now ${JSON.stringify({ symbol, clientOrderId: cid })} (${where})`).toBe(true);
        if (seen.clientOrderId === undefined && cid !== undefined) seen.clientOrderId = cid;
      }
    }
    for (const v of Object.values(o)) if (v !== null && typeof v === 'object') this.record(v, where, depth + 1);
  }
}

// ---- answers ----------------------------------------------------------------------------------

function checkAnswer(c: GenCase, a: Answer): void {
  const what = `${describeCase(c)}\n  sent: ${a.sent}\n  -> ${a.status} ${a.text.slice(0, 400)}`;
  expect(a.status, what).toBeLessThan(500);
  const body = a.body as Record<string, unknown> | undefined;
  if (a.status >= 400) {
    const code = body?.['code'];
    expect(typeof code === 'number' && (SPEC_CODES.has(code) || isFilterCode(code)), `not a spec {code}: ${what}`).toBe(true);
    const msg = body?.['msg'];
    expect(typeof msg === 'string' && msg.length > 0, `no msg: ${what}`).toBe(true);
    return;
  }
  // Convert and fiat report failures inside the envelope (spec 1.10, 7.6).
  const def = c.kind === 'api' ? findEndpoint(c.endpoint) : undefined;
  if (def?.envelope === 'status' && body !== undefined && typeof body['status'] === 'number' && body['status'] !== 0) {
    expect(isEnvelopeStatus(body['status']), `not a spec 7.6 status: ${what}`).toBe(true);
    expect(typeof body['error'] === 'string' && body['error'] !== '', `no error text: ${what}`).toBe(true);
  }
}

// ---- the property -----------------------------------------------------------------------------

function vocabularyOf(s: SandboxHandle): Vocabulary {
  return {
    symbols: s.config.symbols.map((x) => x.symbol),
    assets: s.config.assets.map((a) => a.coin),
    networks: [...new Set(s.config.assets.flatMap((a) => a.networks.map((n) => n.network)))],
    // One address per network, matching its pattern (the same on every start: a fixed seed).
    coinNetworks: s.config.assets.flatMap((a) => a.networks.map((n) => [a.coin, n.network, fc.sample(fc.stringMatching(new RegExp(n.addressRegex)), { numRuns: 1, seed: 7 })[0] ?? ''] as const)),
  };
}

/** The admin routes as the sandbox lists them, each with what its answer to `{}` says it wants. */
async function adminArbitraries(s: SandboxHandle, vocab: Vocabulary): Promise<fc.Arbitrary<GenCase>[]> {
  const { json } = await admin(s, 'GET', '/routes');
  const routes = json as unknown as { method: string; path: string }[];
  const out: fc.Arbitrary<GenCase>[] = [];
  for (const route of routes) {
    let msg = '';
    if (!route.path.includes(':')) {
      // Injected faults answer 5xx on purpose: the fault route gets only bodies it refuses.
      if (route.path === '/faults' && route.method === 'POST') {
        out.push(adminCase(route, { fields: [{ name: 'kind', type: 'string' }] }, vocab, START));
        continue;
      }
      msg = String((await admin(s, route.method, route.path, route.method === 'GET' ? undefined : {})).json['msg'] ?? '');
    }
    out.push(adminCase(route, hintsFrom(msg), vocab, START));
  }
  return out;
}

/** After a restart: every id ever returned names its order or nothing; open and past orders agree. */
async function checkIds(r: Running, target: Target, ids: OrderIds): Promise<number> {
  let found = 0;
  const known = new Known(new Set());
  const query = (endpoint: string, params: [string, string][]) =>
    sendCase(target, { kind: 'api', endpoint, params: params.map(([name, text]) => ({ name, text, shape: 'string' })), auth: 'ok', placement: 'canonical', extra: { kind: 'none' }, gapMs: 0 }, known);
  for (const [id, name] of ids.names) {
    const a = await query('spot.queryOrder', [['orderId', id]]);
    if (a.status === 200) {
      found++;
      ids.record(a.body, `queryOrder ${id} after a restart`);
      const body = a.body as Record<string, unknown>;
      expect({ symbol: body['symbol'], id: String(body['orderId']) }, `order id ${id} after a restart`).toEqual({ symbol: name.symbol, id });
    } else {
      expect((a.body as Record<string, unknown> | undefined)?.['code'], `order id ${id} after a restart: ${a.status} ${a.text.slice(0, 200)}`).toBe(-2013);
    }
  }
  for (const symbol of vocabularyOf(r.s).symbols) {
    ids.record((await query('spot.openOrders', [['symbol', symbol]])).body, `openOrders ${symbol} after a restart`);
    ids.record((await query('spot.historyOrders', [['symbol', symbol], ['limit', '1000']])).body, `historyOrders ${symbol} after a restart`);
  }
  return found;
}

describe('generated requests to every endpoint of a sandbox with --state, across clean and crash restarts', () => {
  it(`never answers 5xx, answers 4xx {code, msg} with spec codes, always loads its state file, and never gives an order id to a second order (seed ${SEED})`, async () => {
    const file = join(dir, 'paper.db');
    const ids = new OrderIds();
    const tally = new Map<string, number>();
    let cases = 0;
    let accepted = 0;
    let restartedFound = 0;
    let r = await open(file);
    try {
      for (let batch = 0; batch < BATCHES; batch++) {
        const s = r.s;
        const subKey = await prepare(s);
        const target: Target = {
          subKey,
          baseUrl: s.baseUrl,
          adminPrefix: s.config.admin.prefix,
          now: () => s.clock.now(),
          apiKey: s.apiKey,
          apiSecret: s.apiSecret,
          merchantKey: MERCHANT.apiKey,
          merchantSecret: MERCHANT.secret,
        };
        if (batch > 0) restartedFound += await checkIds(r, target, ids);
        const vocab = vocabularyOf(s);
        const known = new Known(new Set([s.apiKey, s.apiSecret, MERCHANT.apiKey, MERCHANT.secret, subKey.apiKey, subKey.apiSecret]));
        known.add('accountId', s.accounts.getKey(s.apiKey)!.accountId);
        known.add('email', SUB_EMAIL);
        // Every endpoint of the table, placing orders more often (their ids are what the
        // restarts check), and every admin route.
        const api = allEndpoints.map((def) => ({ arbitrary: endpointCase(def, vocab, s.clock.now()) as fc.Arbitrary<GenCase>, weight: def.id === 'spot.newOrder' ? 24 : 3 }));
        const adminRoutes = (await adminArbitraries(s, vocab)).map((arbitrary) => ({ arbitrary, weight: 1 }));
        const anyCase = fc.oneof(...api, ...adminRoutes);
        const clock = r.clock;
        // One to four requests at a time, sent together: answers that wait for their save, id
        // reservations and handlers meet concurrent calls as they do from a real client.
        await fc.assert(
          fc.asyncProperty(fc.array(anyCase, { minLength: 1, maxLength: 4 }), async (group) => {
            const gap = Math.max(...group.map((c) => c.gapMs));
            if (gap > 0) await clock.advance(gap);
            const answers = await Promise.all(group.map((c) => sendCase(target, c, known)));
            group.forEach((c, i) => {
              const a = answers[i]!;
              cases++;
              checkAnswer(c, a);
              // What each route answered, for the message of a failed count below.
              const name = `${c.kind === 'api' ? c.endpoint : `admin ${c.method} ${c.path}`} ${a.status} ${String((a.body as Record<string, unknown> | undefined)?.['msg'] ?? '').slice(0, 50)}`;
              tally.set(name, (tally.get(name) ?? 0) + 1);
              if (a.status !== 200) return;
              accepted++;
              learn(known, a.body, c.kind === 'api' ? (findEndpoint(c.endpoint)?.area ?? '') : 'admin');
              if (c.kind === 'api') ids.record(a.body, describeCase(c));
            });
          }),
          { numRuns: GROUPS_PER_BATCH, seed: SEED + batch },
        );
        if (CRASH_AFTER.has(batch)) r.kill();
        await s.close();
        r = await open(file);
      }
      restartedFound += await checkIds(r, { subKey: { apiKey: '', apiSecret: '' }, baseUrl: r.s.baseUrl, adminPrefix: r.s.config.admin.prefix, now: () => r.s.clock.now(), apiKey: r.s.apiKey, apiSecret: r.s.apiSecret, merchantKey: MERCHANT.apiKey, merchantSecret: MERCHANT.secret }, ids);
    } finally {
      await r.s.close();
    }
    const summary = JSON.stringify([...tally].sort((a, b) => b[1] - a[1]));
    // HALYARD_PROPERTY_TALLY=<file> keeps what every route answered, to review the coverage.
    const tallyFile = process.env['HALYARD_PROPERTY_TALLY'];
    if (tallyFile) writeFileSync(tallyFile, [...tally].sort().map(([k, n]) => `${n}\t${k}`).join('\n'));
    expect(cases, summary).toBeGreaterThanOrEqual(2000);
    // The generated values reach the handlers, not only the refusals; orders were placed and
    // found again after the restarts.
    expect(accepted, summary).toBeGreaterThan(cases / 5);
    // Seed-dependent counts (a seed gave 29 of either): bounds any seed meets, far from zero.
    expect(ids.names.size, summary).toBeGreaterThanOrEqual(10);
    expect(restartedFound, summary).toBeGreaterThanOrEqual(10);
  }, 300_000);
});
