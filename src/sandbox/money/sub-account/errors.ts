/**
 * The sub-account area's refusals (spec 7.3 codes; spec 4.9 rules). Where the spec names no code
 * the choice is the closest listed one, with a message that says what went wrong:
 *
 * - master-only endpoint called with a sub-account's key, or a sub-only one with a master's key:
 *   -1152 NO_PERMISSION, HTTP 401 (like the auth layer's other permission refusals)
 * - unknown e-mail, or an e-mail that is not a sub-account of the caller: -1025 naming the parameter
 * - more than 30 sub-accounts (spec 8.11): -1010 BAD_REQUEST; a taken e-mail: -1025 `accountName`
 * - not enough free balance: -1131 INSUFFICIENT_BALANCE
 * - a frozen sub-account in a transfer: -1010 with the spec 7.4 text "This action disabled is on this account."
 * - collection resubmitted while a task is INIT, or a clientRequestId used before: -10324 "Request repeated"
 */
import { VenueError } from '../../http/venue-error.ts';

export const subAccountErrors = {
  masterOnly: (id: string) => new VenueError(-1152, `Unauthorized to operate this API: ${id} is for master accounts; this key belongs to a sub-account.`, 401),
  subOnly: (id: string) => new VenueError(-1152, `Unauthorized to operate this API: ${id} is for sub-accounts; this key belongs to a master account.`, 401),
  invalid: (param: string, detail: string) => new VenueError(-1025, `parameter '${param}' is not valid: ${detail}`),
  missing: (param: string, detail: string) => new VenueError(-1105, `parameter '${param}' is required: ${detail}`),
  limit: (max: number) => new VenueError(-1010, `Bad request: a master account can have at most ${max} virtual sub-accounts.`),
  insufficient: (asset: string) => new VenueError(-1131, `Balance insufficient: not enough free ${asset}.`),
  frozen: (email: string) => new VenueError(-1010, `This action disabled is on this account. (${email} is frozen)`),
  repeated: () => new VenueError(-10324, 'Request repeated'),
  noBalances: () => new VenueError(-1000, 'The sandbox has no balance service attached.', 500),
} as const;
