/**
 * WebSocket paths of the venue (protocol notes 1), under a `wsUrl` configured apart from the REST
 * base URL (the hosts differ in reality):
 *   raw       `/openapi/quote/ws/v3/<stream>`          bare events
 *   combined  `/openapi/quote/stream?streams=a/b/c`    events wrapped `{"stream","data"}`
 *   user data `/openapi/ws/<listenKey>`                bare events
 * Stream names use lower-case symbols; the venue takes at most 1024 streams per connection.
 */

export const RAW_PATH = '/openapi/quote/ws/v3';
export const COMBINED_PATH = '/openapi/quote/stream';
export const USER_PATH = '/openapi/ws';

/** The venue's cap on streams per connection (notes 1). */
export const MAX_STREAMS_PER_CONNECTION = 1024;

/**
 * Longest `streams=` list put in a URL; the rest are sent as SUBSCRIBE after the socket opens, so a
 * connection with hundreds of streams does not depend on how long a request line a proxy accepts.
 */
export const MAX_URL_STREAMS_CHARS = 2000;

export type MarketPath = 'raw' | 'combined';

/** `wsUrl` without a trailing slash; throws a clear error for anything but ws: / wss:. */
export function wsBase(wsUrl: string): string {
  let u: URL;
  try {
    u = new URL(wsUrl);
  } catch {
    throw new TypeError(`wsUrl: '${wsUrl}' is not a URL (expected e.g. wss://ws.example.com)`);
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new TypeError(`wsUrl: '${wsUrl}' uses ${u.protocol}; only ws: and wss: are supported`);
  return wsUrl.replace(/\/+$/, '');
}

export function rawStreamUrl(wsUrl: string, stream: string): string {
  return `${wsBase(wsUrl)}${RAW_PATH}/${escapeName(stream)}`;
}

export function combinedStreamUrl(wsUrl: string, streams: readonly string[]): string {
  const base = `${wsBase(wsUrl)}${COMBINED_PATH}`;
  return streams.length === 0 ? base : `${base}?streams=${streams.map(escapeName).join('/')}`;
}

/** '@' and '!' are part of stream names (`btcusdt@trade`, `!ticker@arr`) and sent as they are. */
function escapeName(name: string): string {
  return encodeURIComponent(name).replace(/%40/g, '@').replace(/%21/g, '!');
}

export function userDataUrl(wsUrl: string, listenKey: string): string {
  return `${wsBase(wsUrl)}${USER_PATH}/${encodeURIComponent(listenKey)}`;
}

/**
 * The URL to open for a market connection wanting `streams`, and which of them it already carries
 * (the rest are subscribed after open). Raw carries one stream; an empty raw path opens the bare
 * prefix (the sandbox accepts it; SUBSCRIBE follows).
 */
export function marketUrl(wsUrl: string, path: MarketPath, streams: readonly string[]): { url: string; carried: string[] } {
  if (path === 'raw') {
    const first = streams[0];
    return first === undefined ? { url: `${wsBase(wsUrl)}${RAW_PATH}`, carried: [] } : { url: rawStreamUrl(wsUrl, first), carried: [first] };
  }
  const carried: string[] = [];
  let chars = 0;
  for (const s of streams) {
    if (chars + s.length + 1 > MAX_URL_STREAMS_CHARS) break;
    carried.push(s);
    chars += s.length + 1;
  }
  return { url: combinedStreamUrl(wsUrl, carried), carried };
}
