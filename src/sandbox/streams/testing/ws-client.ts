/**
 * A small test client over `ws`: queues every text frame (raw text and parsed JSON) and lets a test
 * await the next frame matching a predicate, or assert that none arrives.
 */
import { WebSocket } from 'ws';

export interface Frame {
  raw: string;
  // Parsed with JSON.parse: fine for assertions; check big ids on `raw`.
  json: Record<string, unknown> & { data?: Record<string, unknown> };
}

export class TestClient {
  readonly frames: Frame[] = [];
  private waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  closed: { code: number; reason: string } | undefined;
  private closeWaiters: ((c: { code: number; reason: string }) => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const raw = String(data);
      const frame = { raw, json: JSON.parse(raw) as Frame['json'] };
      const i = this.waiters.findIndex((w) => w.pred(frame));
      const w = this.waiters[i];
      if (w) {
        this.waiters.splice(i, 1);
        w.resolve(frame);
      } else this.frames.push(frame);
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      for (const r of this.closeWaiters) r(this.closed);
    });
    ws.on('error', () => {});
  }

  static open(url: string): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const client = new TestClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += String(c)));
        res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })));
      });
      ws.once('error', reject);
    });
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** The next frame matching `pred` (already queued or yet to come). */
  next(pred: (f: Frame) => boolean = () => true, timeoutMs = 1000): Promise<Frame> {
    const i = this.frames.findIndex(pred);
    const queued = this.frames[i];
    if (queued) {
      this.frames.splice(i, 1);
      return Promise.resolve(queued);
    }
    return new Promise((resolve, reject) => {
      const waiter = { pred, resolve: (f: Frame) => (clearTimeout(timer), resolve(f)) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching frame within ${timeoutMs} ms; queued: ${this.frames.map((f) => f.raw).join(' | ')}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Send a control message and await its reply (the next reply, error or pong frame). */
  async request(value: unknown): Promise<Frame['json']> {
    this.send(value);
    return (await this.next((f) => 'result' in f.json || 'code' in f.json || 'pong' in f.json)).json;
  }

  /** Resolves true when no matching frame arrives within `ms` of real time. */
  async quiet(ms: number, pred: (f: Frame) => boolean = () => true): Promise<boolean> {
    try {
      await this.next(pred, ms);
      return false;
    } catch {
      return true;
    }
  }

  waitClose(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  close(): void {
    this.ws.terminate();
  }
}
