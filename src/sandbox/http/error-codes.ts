/**
 * The sandbox's error answers in one place (spec 7.3 codes; messages follow the spec's texts).
 * Choices where the spec leaves room (documented in docs and the final report):
 * - unknown route: HTTP 404, -1010 (BAD_REQUEST); a known path with another method: HTTP 405, -1010.
 *   Not -1000: clients classify -1000 as a server fault and would retry.
 * - malformed query, body or JSON, oversize body: HTTP 400 (413 for size), -1010 when no parameter
 *   can be named, else -1025 naming it.
 * - missing API key header: HTTP 401, -1002. Unknown or disabled key: HTTP 401, -2015 (its spec
 *   text is "key not found or not enabled"; -2018 is not used).
 * - read-only key on a write: -1020; role key outside its group: -1152; merchant key on the
 *   exchange API or an exchange key on merchant routes: -2019. All HTTP 401.
 * - unknown symbol: -1025 "parameter 'symbol' is not valid: no such symbol 'X'" (naming `symbols`
 *   when it came in a list). -1121 "Invalid symbol." is an old-only code (notes 9: "The current code
 *   list is exactly spec §7.3"); the `legacyInvalidSymbolCode` variant keeps it for older clients.
 */
import { VenueError } from './venue-error.ts';

export const UNKNOWN_ERROR_MSG = 'An unknown error occurred while processing the request.';

export const venueErrors = {
  unknown: () => new VenueError(-1000, UNKNOWN_ERROR_MSG, 500),
  notImplemented: (id: string) => new VenueError(-1000, `${id} is not implemented by the sandbox`, 501),
  noRoute: (method: string, path: string) => new VenueError(-1010, `Unknown route: ${method} ${path}`, 404),
  wrongMethod: (method: string, path: string, allowed: readonly string[]) =>
    new VenueError(-1010, `Method ${method} is not allowed for ${path}; use ${allowed.join(', ')}.`, 405, undefined, { allow: allowed.join(', ') }),
  badRequest: (detail: string, status = 400) => new VenueError(-1010, `Bad request: ${detail}`, status),
  missingKeyHeader: (header: string) => new VenueError(-1002, `You are not authorized to execute this request: send the API key header '${header}'.`, 401),
  missingHeader: (header: string) => new VenueError(-1024, `Header '${header}' is required.`, 400),
  invalidKey: () => new VenueError(-2015, 'Invalid API-key: the key was not found or is not enabled.', 401),
  ipNotWhitelisted: (ip: string) => new VenueError(-2017, `Request IP ${ip} is not in the API key's IP whitelist.`, 401),
  whitelistFirst: () => new VenueError(-1023, 'Please set an IP whitelist for this API key before using it.', 401),
  readOnly: () => new VenueError(-1020, 'This operation is not supported: use a functional key instead of a read-only key.', 401),
  noPermission: () => new VenueError(-1152, 'Unauthorized to operate this API: the API key lacks the permission.', 401),
  wrongKeyType: (why: string) => new VenueError(-2019, `API key type is wrong: ${why}.`, 401),
  badSignature: () => new VenueError(-1022, 'Signature for this request is not valid.', 400),
  timestampOutside: () => new VenueError(-1021, 'Timestamp for this request is outside of the recvWindow.', 400),
  merchantAuth: (why: string) => new VenueError(-1150, `Merchant authentication failed: ${why}.`, 401),
  missingParam: (name: string) => new VenueError(-1105, `parameter '${name}' is required`, 400),
  invalidParam: (name: string, detail?: string) => new VenueError(-1025, `parameter '${name}' is not valid${detail ? `: ${detail}` : ''}`, 400),
  notRequired: (name: string, detail?: string) => new VenueError(-1106, `parameter '${name}' sent when not required${detail ? `: ${detail}` : ''}`, 400),
  conflict: (names: readonly string[]) => new VenueError(-1107, `parameter ${names.map((n) => `'${n}'`).join(' and ')} should not be both set`, 400),
  cancelReplaceIds: () => new VenueError(-1108, 'cancelOrigClientOrderId or cancelOrderId must be provided', 400),
  listenKeyExpired: () => new VenueError(-1125, 'This listenKey does not exist.', 400),
  listenKeyCreateLimit: (perHour: number) => new VenueError(-1026, `listen key creation rate limited (${perHour} per hour)`, 400),
  unknownSymbol: (param: string, symbol: string, legacyCode: boolean) =>
    legacyCode ? new VenueError(-1121, 'Invalid symbol.', 400) : new VenueError(-1025, `parameter '${param}' is not valid: no such symbol '${symbol}'`, 400),
} as const;
