/**
 * One socket attempt over `ws`, its events turned into the few the connection acts on: open, a
 * text or binary frame, a sign of life (protocol PING or PONG: `ws` answers PINGs itself, autoPong),
 * and one `closed` carrying whether it had opened and why it ended. A refused upgrade ends as
 * `closed` with a StreamUpgradeRejectedError holding the HTTP status and the venue's code.
 */
import type WebSocket from 'ws';
import { readUpgradeRejection } from './upgrade-rejection.ts';

export interface SocketHandlers {
  open(): void;
  frame(data: WebSocket.RawData, isBinary: boolean): void;
  lifeSign(): void;
  closed(end: { opened: boolean; code: number; why: string; failure: unknown }): void;
}

export function openSocket(createSocket: (url: string) => WebSocket, url: string, on: SocketHandlers): WebSocket {
  const ws = createSocket(url);
  let failure: unknown;
  let opened = false;
  ws.on('unexpected-response', (_req, res) => {
    void readUpgradeRejection(res).then((rejection) => {
      failure = rejection;
      // Ends the handshake: 'error' and 'close' follow.
      ws.terminate();
    });
  });
  ws.on('open', () => {
    opened = true;
    on.open();
  });
  ws.on('message', (data, isBinary) => on.frame(data, isBinary));
  ws.on('ping', () => on.lifeSign());
  ws.on('pong', () => on.lifeSign());
  // Always followed by 'close'; kept as the reason.
  ws.on('error', (err) => (failure ??= err));
  ws.on('close', (code, why) => on.closed({ opened, code, why: why.toString(), failure }));
  return ws;
}
