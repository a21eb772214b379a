/**
 * The connection's state as a market stream's health (types.ts MarketStreamState): the socket's
 * states (exchange/ws/stream-events.ts) in the words the status block and the log use.
 */
import type { ConnectionState } from '../../exchange/ws/stream-events.ts';
import type { MarketStreamState } from './types.ts';

export function linkState(state: ConnectionState): MarketStreamState {
  switch (state) {
    case 'open':
      return 'LIVE';
    case 'stale':
      return 'STALE';
    case 'backoff':
    case 'closed':
      return 'DOWN';
    case 'idle':
    case 'connecting':
      return 'CONNECTING';
  }
}
