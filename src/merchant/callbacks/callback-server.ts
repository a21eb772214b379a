/**
 * The HTTP side of the callback receiver: a node:http server on the configured host and port.
 * node:http rather than Fastify (a dependency of the sandbox): the receiver has one route and no
 * plugins, so Fastify's routing, schema and plugin machinery would add start-up time and a
 * surface to configure for nothing; the body limit and JSON reading it would give are a few lines.
 *
 * Any path takes callbacks (spec 6.1: the address is whatever was given to the venue's partner
 * support); only POST. Answers (spec 6.1 shows none; any 2xx ends a delivery, so a 2xx means "have
 * it, do not send it again", and anything else asks for a retry):
 *   200 {"received":true,"applied":true|false}  journaled now, or a repeat of a journaled event
 *   401 authentication refused (the body is not read as an event, nothing written)
 *   400 the body is not a callback of spec 6.1 (named field and reason)
 *   405 not POST; 413 body over 64 KiB; 500 the journal could not take it (the venue retries)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MAX_BODY_BYTES = 64 * 1024;

export interface CallbackRequest {
  readonly authorization: string | string[] | undefined;
  readonly body: string;
}

export interface CallbackAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface CallbackServer {
  readonly host: string;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

function answer(res: ServerResponse, a: CallbackAnswer): void {
  const text = JSON.stringify(a.body);
  res.writeHead(a.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Listen on host:port (port 0: an ephemeral one) and hand each POST to `handle`. */
export async function startCallbackServer(host: string, port: number, handle: (req: CallbackRequest) => CallbackAnswer): Promise<CallbackServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      answer(res, { status: 405, body: { error: 'callbacks are POSTed (spec 6.1)' } });
      req.resume();
      return;
    }
    readBody(req).then(
      (body) => answer(res, body === undefined ? { status: 413, body: { error: `body over ${MAX_BODY_BYTES} bytes` } } : handle({ authorization: req.headers.authorization, body })),
      () => res.destroy(),
    );
  });
  // Keep-alive sockets would hold close() open until the sender drops them.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    host: addr.address,
    port: addr.port,
    url: `http://${shown}:${addr.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
