/** A tiny HTTP server on 127.0.0.1 (ephemeral port) that records requests and answers from a handler. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedRequest {
  method: string;
  url: string;
  path: string;
  rawQuery: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Destroy the socket without answering. */
  hangUp?: boolean;
  /** Wait before answering. */
  delayMs?: number;
}

export interface CaptureServer {
  baseUrl: string;
  requests: CapturedRequest[];
  setHandler(handler: (req: CapturedRequest) => Reply | Promise<Reply>): void;
  close(): Promise<void>;
}

export async function startCaptureServer(handler: (req: CapturedRequest) => Reply | Promise<Reply> = () => ({ body: {} })): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  let current = handler;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const captured: CapturedRequest = {
        method: req.method ?? 'GET',
        url,
        path: q >= 0 ? url.slice(0, q) : url,
        rawQuery: q >= 0 ? url.slice(q + 1) : '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(captured);
      const reply = await current(captured);
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (reply.hangUp) {
        req.socket.destroy();
        return;
      }
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    setHandler: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
