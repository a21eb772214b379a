/** Public surface of the HTTP transport and lossless JSON (protocol notes 1, 5; spec 7.1). */
export {
  createUndiciTransport,
  TRANSPORT_DEFAULTS,
  type HttpRequest,
  type HttpResponse,
  type HttpTransport,
  type UndiciTransportOptions,
} from './http-transport.ts';
export { parseJsonLossless, stringifyCompact } from './lossless-json.ts';
export { TransportFailure, toTransportFailure, findErrorCode, type TransportFailureKind } from './transport-failure.ts';
