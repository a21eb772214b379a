/**
 * Serves `<prefix>/*` from the AdminRegistry: JSON bodies in, JSON (stringifyWire) out. Errors
 * answer `{code, msg}`: 400 -1010 for bad input (with every issue's path), 404 for unknown admin
 * routes, AdminError's status otherwise; unexpected errors are 500 -1000 and logged.
 */
import { AmountRangeError } from '../../core/portfolio/index.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { formatIssues } from '../../config/load.ts';
import { AccountRegistryError } from '../accounts/registry-errors.ts';
import { parseFormText, parseJsonBody } from '../http/raw-params.ts';
import { splitUrl } from '../http/pipeline.ts';
import type { SandboxState } from '../http/route-types.ts';
import { sendError, sendWire } from '../http/send.ts';
import { AdminError, type AdminRegistry } from './admin-registry.ts';

export function createAdminDispatch(prefix: string, registry: AdminRegistry, state: SandboxState) {
  return async function dispatch(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const { path, rawQuery } = splitUrl(request.raw.url ?? '/');
    try {
      const sub = path.slice(prefix.length) || '/';
      const found = registry.match(request.method, sub);
      if (!found) throw new AdminError(404, `no admin route ${request.method} ${sub}; GET ${prefix}/routes lists them`);
      const raw = request.method === 'GET' ? queryOf(rawQuery) : bodyOf(request);
      const body = found.route.body ? found.route.body.parse(raw) : raw;
      const result = await found.route.handler({ body, params: found.params, sandbox: state });
      return sendWire(reply, 200, result ?? {});
    } catch (error) {
      if (error instanceof ZodError) return sendWire(reply, 400, { code: -1010, msg: `invalid admin request: ${formatIssues(error.issues).join('; ')}` });
      if (error instanceof AdminError) return sendWire(reply, error.status, { code: -1010, msg: error.message });
      if (error instanceof AccountRegistryError) return sendWire(reply, 400, { code: -1010, msg: `${error.code}: ${error.message}` });
      if (error instanceof AmountRangeError) return sendWire(reply, 400, { code: -1010, msg: `invalid admin request: ${error.message}` });
      return sendError(reply, error, state.log, { admin: true, path });
    }
  };
}

/** The query's parameters; a key sent twice is refused rather than joined ("a,b"). */
function queryOf(rawQuery: string): Record<string, string> {
  const repeated = new Set<string>();
  const values = parseFormText(rawQuery, 'query string', repeated);
  const [twice] = repeated;
  if (twice !== undefined) throw new AdminError(400, `invalid admin request: ${twice}: sent more than once`);
  return Object.fromEntries(values);
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const text = typeof request.body === 'string' ? request.body.trim() : '';
  return text === '' ? {} : parseJsonBody(text);
}
