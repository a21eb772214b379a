/**
 * A market-data connection (protocol notes 1, 4): the raw path (`/openapi/quote/ws/v3/<stream>`,
 * one stream in the URL) or the combined path (`/openapi/quote/stream?streams=a/b/c`, events
 * wrapped `{"stream","data"}`; bare events are accepted too). Every reconnect opens the URL with the
 * streams wanted at that moment, so resubscription is part of the handshake; what does not fit the
 * URL is sent as SUBSCRIBE after open.
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
      resolve: (streams) => {
        const { url, carried } = marketUrl(base, path, streams);
        return { url, carried, label: url };
      },
    },
  });
}
