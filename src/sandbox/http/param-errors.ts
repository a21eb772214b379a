/**
 * checkParams violations -> the venue's answer (spec 7.3): -1105 missing, -1025 invalid,
 * -1106 not required, -1107 conflict, and a rule's own code (cancelReplace's -1108). The message
 * starts with the spec's text so substring matching works; the checker's detail follows.
 * The first violation is reported, as the venue reports one error per request.
 */
import type { ParamViolation } from '../../exchange/params/dsl.ts';
import { venueErrors } from './error-codes.ts';
import { VenueError } from './venue-error.ts';

/** Endpoint-specific answers the spec gives for a parameter mistake. */
const OVERRIDES: Readonly<Record<string, (v: ParamViolation) => VenueError | undefined>> = {
  // Spec 7.4: "Cancel order is invalid. Check origClOrdId and orderId." when neither id is sent.
  'spot.cancelOrder': (v) => (v.param === 'orderId|origClientOrderId' && v.reason === 'missing' ? new VenueError(-2011, 'Cancel order is invalid. Check origClOrdId and orderId.') : undefined),
};

/** The checker's message without its own "parameter 'x' " lead, which the spec text already has. */
const detail = (message: string): string => message.replace(/^parameter '[^']*' (is not valid: )?/, '');

export function violationToError(endpointId: string, v: ParamViolation): VenueError {
  const special = OVERRIDES[endpointId]?.(v);
  if (special) return special;
  const names = v.param.split('|');
  const name = names[0] ?? v.param;
  switch (v.code) {
    case -1105: {
      if (names.length > 1) return new VenueError(-1105, `parameter ${names.map((n) => `'${n}'`).join(' or ')} is required`);
      const base = venueErrors.missingParam(name);
      return v.message === base.message ? base : new VenueError(-1105, `${base.message} (${v.message})`);
    }
    case -1107:
      return names.length > 1 ? venueErrors.conflict(names) : new VenueError(-1107, `parameter '${name}' should not be both set (${v.message})`);
    case -1106:
      return venueErrors.notRequired(name, detail(v.message));
    case -1025:
      return venueErrors.invalidParam(name, detail(v.message));
    default:
      return new VenueError(v.code, v.message);
  }
}
