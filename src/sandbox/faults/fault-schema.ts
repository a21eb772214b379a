/** The admin API's body for `POST /faults` (see fault-registry.ts for what each kind does). */
import { z } from 'zod';
import { findEndpoint } from '../../exchange/endpoints/index.ts';
import { FAULT_KINDS } from './fault-registry.ts';

export const faultSpecSchema = z.strictObject({
  kind: z.enum(FAULT_KINDS),
  endpoint: z
    .string()
    .refine((id) => findEndpoint(id)?.id === id, 'not an endpoint id of the table (e.g. spot.newOrder)')
    .optional(),
  count: z.number().int().positive().optional(),
  status: z.number().int().min(500).max(599).optional(),
  delayMs: z.number().int().nonnegative().max(600_000).optional(),
  retryAfterSeconds: z.number().int().positive().optional(),
  skewMs: z.number().int().optional(),
});
