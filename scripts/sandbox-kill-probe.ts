/**
 * The crash-loss window, measured (docs/guides/sandbox.md "What survives a restart"): `halyard sandbox
 * --state` as a child process on a fixed clock start, 30 clients each placing an order and
 * canceling it as fast as answers come, SIGKILLed at a random moment, restarted on the same file;
 * KILLS times. Counts what a client was told succeeded (HTTP 200) and is not so after the restart:
 * an order missing, a cancel undone, an id given to a second order. Run: npx tsx scripts/sandbox-kill-probe.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hmacSha256Hex } from '../src/exchange/signing/hmac.ts';

const KILLS = Number(process.env['KILLS'] ?? 10);
const WORKERS = 30;
const BIN = fileURLToPath(new URL('../bin/halyard.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'halyard-kill-'));
const file = join(dir, 'paper.db');
const configFile = join(dir, 'halyard.json');
writeFileSync(configFile, JSON.stringify({ sandbox: { clock: { startTime: 1_700_000_000_000 }, rateLimits: { pools: { ORDERS: { limit: 1_000_000, windowMs: 10_000 }, UID: { limit: 1_000_000, windowMs: 60_000 }, IP: { limit: 1_000_000, windowMs: 60_000 } } } } }));

interface Running {
  child: ChildProcess;
  baseUrl: string;
  apiKey: string;
  secret: string;
  /** Sandbox time minus ours: its clock starts at the configured time. */
  offset: number;
}

function start(): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--config', configFile, '--state', file, '--port', '0', '--no-market'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.on('exit', (code) => reject(new Error(`sandbox exited (${String(code)}): ${out}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(out)?.[1];
      const baseUrl = field('REST base URL');
      const apiKey = field('API key');
      const secret = field('API secret');
      if (baseUrl && apiKey && secret && out.includes('Stop with Ctrl-C.')) {
        void fetch(`${baseUrl}/openapi/v1/time`)
          .then((res) => res.json() as Promise<{ serverTime: number }>)
          .then(({ serverTime }) => resolve({ child, baseUrl, apiKey, secret, offset: serverTime - Date.now() }), reject);
      }
    });
  });
}

async function call(r: Running, method: string, path: string, query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const q = `${query}&timestamp=${Date.now() + r.offset}`;
  const res = await fetch(`${r.baseUrl}${path}?${q}&signature=${hmacSha256Hex(r.secret, q)}`, { method, headers: { 'X-SERVICE-APIKEY': r.apiKey } });
  // Ids are bare JSON numbers above 2^53 (notes 5.1): read them from the text, not through a float.
  const text = await res.text();
  const body = JSON.parse(text) as Record<string, unknown>;
  const orderId = /"orderId":\s*"?(\d+)/.exec(text)?.[1];
  if (orderId !== undefined) body['orderId'] = orderId;
  return { status: res.status, body };
}

const placed = new Map<string, string>(); // orderId -> run it was placed in
const canceled = new Set<string>();
let lostOrders = 0;
let undoneCancels = 0;
let reused = 0;
let answers = 0;

try {
  for (let k = 0; k <= KILLS; k++) {
    const run = await start();
    // Everything answered before the last kill reads as answered.
    for (const [id] of placed) {
      const q = await call(run, 'GET', '/openapi/v1/order', `orderId=${id}`);
      if (q.status !== 200) lostOrders++;
      else if (canceled.has(id) && q.body['status'] !== 'CANCELED') undoneCancels++;
    }
    if (k === KILLS) {
      run.child.kill('SIGKILL');
      break;
    }
    let stop = false;
    const worker = async () => {
      while (!stop) {
        try {
          const p = await call(run, 'POST', '/openapi/v1/order', 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=1000000');
          if (p.status !== 200) {
            console.error('refused:', p.status, JSON.stringify(p.body));
            continue;
          }
          const id = String(p.body['orderId']);
          answers++;
          if (placed.has(id)) reused++;
          placed.set(id, String(k));
          const c = await call(run, 'DELETE', '/openapi/v1/order', `orderId=${id}`);
          if (c.status === 200) {
            answers++;
            canceled.add(id);
          }
        } catch {
          return; // the process is gone
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, worker);
    await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 1500));
    run.child.removeAllListeners('exit');
    const gone = new Promise((resolve) => run.child.on('exit', resolve));
    run.child.kill('SIGKILL');
    stop = true;
    await gone;
    await Promise.all(workers);
  }
  console.log(`${KILLS} SIGKILLs, ${answers} answers (orders placed and canceled): ${lostOrders} answered orders missing, ${undoneCancels} answered cancels undone, ${reused} order ids given twice`);
} finally {
  if (process.env['KEEP']) console.log('kept', file); else rmSync(dir, { recursive: true, force: true });
}
