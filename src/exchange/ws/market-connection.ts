/**
 * A market-data connection (protocol notes 1, 4): the raw path (`/openapi/quote/ws/v3/<stream>`,
 * one stream in the URL) or the combined path (`/openapi/quote/stream?streams=a/b/c`, events
 * wrapped `{"stream","data"}`; bare events are accepted too). A reconnect opens the URL with the
 * streams the venue accepted before, so resubscription is part of the handshake; new streams and
 * what does not fit the URL are sent as SUBSCRIBE after open.
 */
import { StreamConnection, type StreamConnectionOptions } from './stream-connection.ts';
import { marketUrl, wsBase, type MarketPath } from './stream-paths.ts';

export interface MarketConnectionOptions extends Omit<StreamConnectionOptions, 'target'> {
  /** The WebSocket base URL (configured apart from the REST base URL, notes 1). */
  wsUrl: string;
  /** Default: combined. */
  path?: MarketPath;
}

export function marketConnection(options: MarketConnectionOptions): StreamConnection {
  const { wsUrl, path = 'combined', ...rest } = options;
  const base = wsBase(wsUrl);
  return new StreamConnection({
    ...rest,
    target: {
      // Raw names its one stream in the path (a confirmed one when there is one); combined carries
      // only streams the venue accepted before, the rest are subscribed after open.
      resolve: ({ wanted, confirmed }) => {
        const streams = path === 'raw' ? [...confirmed, ...wanted] : confirmed;
        const { url, carried } = marketUrl(base, path, streams);
        return { url, carried, label: url };
      },
    },
  });
}
