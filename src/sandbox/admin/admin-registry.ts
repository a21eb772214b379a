/**
 * The admin API's route registry. Other sandbox areas add their own admin routes (deposits,
 * invoice payments, market agents ...) with `registerAdminRoutes([...])` on the handle or from a
 * plugin's `setup`; routes can be added at any time (dispatch looks them up per request).
 *
 *   registerAdminRoutes([defineAdminRoute({
 *     method: 'POST', path: '/deposits', summary: 'Credit a chain deposit',
 *     body: z.strictObject({ accountId: z.string(), coin: z.string(), amount: z.string() }),
 *     handler: ({ body, sandbox }) => ...,   // returns the JSON answer; throw AdminError(status, msg) to refuse
 *   })]);
 *
 * Paths are relative to the configured prefix and may hold `:name` segments (`ctx.params.name`).
 * `body` validates the JSON body (POST/PUT/DELETE) or the query (GET); failures answer 400 with
 * every issue's path.
 */
import type { z } from 'zod';
import type { SandboxState } from '../http/route-types.ts';

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface AdminContext<B> {
  body: B;
  params: Record<string, string>;
  sandbox: SandboxState;
}

export interface AdminRoute<S extends z.ZodType = z.ZodType> {
  method: AdminMethod;
  path: string;
  summary: string;
  body?: S;
  handler: (ctx: AdminContext<z.output<S>>) => unknown;
}

/** Keeps the body type of one route for its handler. */
export function defineAdminRoute<S extends z.ZodType>(route: AdminRoute<S>): AdminRoute {
  return route as unknown as AdminRoute;
}

export class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

interface Compiled {
  route: AdminRoute;
  regex: RegExp;
  names: string[];
}

export class AdminRegistry {
  private readonly routes: Compiled[] = [];

  register(routes: readonly AdminRoute[]): void {
    for (const route of routes) {
      if (this.routes.some((c) => c.route.method === route.method && c.route.path === route.path)) {
        throw new Error(`registerAdminRoutes: ${route.method} ${route.path} is already registered`);
      }
      const names: string[] = [];
      const pattern = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      this.routes.push({ route, regex: new RegExp(`^${pattern}/?$`), names });
    }
  }

  match(method: string, path: string): { route: AdminRoute; params: Record<string, string> } | undefined {
    for (const c of this.routes) {
      if (c.route.method !== method.toUpperCase()) continue;
      const m = c.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1] ?? '')));
      return { route: c.route, params };
    }
    return undefined;
  }

  list(): { method: AdminMethod; path: string; summary: string }[] {
    return this.routes.map(({ route }) => ({ method: route.method, path: route.path, summary: route.summary }));
  }
}
