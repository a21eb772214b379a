/**
 * Node's HTTP parser answers some requests before fastify sees them: a malformed request line or
 * header (400), headers over the size limit (431), a request whose headers or body stall past the
 * server's timeouts (408). Written raw on the socket, they too carry the venue's `{code, msg}`
 * (spec 7.2; -1010 BAD_REQUEST, spec 7.3) instead of Node's or fastify's own bodies, and close
 * the connection (the parser cannot go on after them).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

function answerFor(err: NodeJS.ErrnoException): { status: number; msg: string } {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, msg: 'Bad request: the request was not received in time' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, msg: 'Bad request: the request line and headers are too large' };
    default:
      return { status: 400, msg: 'Bad request: the request is not valid HTTP' };
  }
}

export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, msg } = answerFor(err);
    const body = JSON.stringify({ code: -1010, msg });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
