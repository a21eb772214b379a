/**
 * WebSocket paths (protocol notes 1): raw `/openapi/quote/ws/v3/<stream>` (bare events), combined
 * `/openapi/quote/stream?streams=a/b/c` (events wrapped `{"stream","data"}`), user data
 * `/openapi/ws/<listenKey>` (bare). Raw and combined may open without streams and SUBSCRIBE later.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export type ConnectionKind = 'raw' | 'combined' | 'user';

export type UpgradeTarget =
  | { kind: 'raw' | 'combined'; streams: string[] }
  | { kind: 'user'; listenKey: string };

export const RAW_PREFIX = '/openapi/quote/ws/v3';
export const COMBINED_PATH = '/openapi/quote/stream';
export const USER_PREFIX = '/openapi/ws/';

/** The target of an upgrade request URL, or undefined when the path is not a stream path. */
export function parseUpgradePath(url: string): UpgradeTarget | undefined {
  let u: URL;
  try {
    u = new URL(url, 'http://sandbox.invalid');
  } catch {
    return undefined;
  }
  const path = u.pathname;
  if (path === COMBINED_PATH || path === `${COMBINED_PATH}/`) {
    const list = u.searchParams.get('streams') ?? '';
    return { kind: 'combined', streams: list.split('/').filter((s) => s !== '') };
  }
  if (path === RAW_PREFIX || path === `${RAW_PREFIX}/`) return { kind: 'raw', streams: [] };
  if (path.startsWith(`${RAW_PREFIX}/`)) return { kind: 'raw', streams: [decodePart(path.slice(RAW_PREFIX.length + 1))] };
  if (path.startsWith(USER_PREFIX) && path.length > USER_PREFIX.length) {
    return { kind: 'user', listenKey: decodePart(path.slice(USER_PREFIX.length)) };
  }
  return undefined;
}

/**
 * A percent-decoded path segment; a malformed escape is kept as sent, so it fails as an unknown
 * stream or listen key. (decodeURIComponent throws, and a throw in the 'upgrade' listener is an
 * uncaught exception that stops the whole sandbox.)
 */
function decodePart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Refuse an upgrade with an HTTP status and a JSON body (the venue's error shapes). */
export function rejectUpgrade(socket: Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}
