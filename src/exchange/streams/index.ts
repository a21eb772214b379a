/**
 * The venue's stream payloads decoded (protocol notes 4, 4.1) and the local order book built from
 * the diff stream (notes 4, "Local book"). The sockets themselves are exchange/ws/'s.
 */
export { DecodeError } from './decode-error.ts';
export { decodeMarketEvent } from './market-payloads.ts';
export type * from './market-payload-types.ts';
export { decodeUserEvent } from './user-payloads.ts';
export type * from './user-payload-types.ts';
export { OrderBook, BookSide, type DepthSnapshotLike } from './order-book.ts';
export { DepthSync, type SyncOutcome } from './depth-sync.ts';
export { localOrderBook, type BookState, type BookResync, type LocalBookUpdate, type LocalBookOptions } from './local-book.ts';
