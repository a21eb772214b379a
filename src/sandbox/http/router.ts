/**
 * Finds the endpoint for a method and path among the endpoint table's templates (`{name}` and
 * optional `{name?}` segments). A trailing slash is ignored. A path that exists under other
 * methods is reported as such, so the pipeline can answer 405 rather than 404.
 */
import { allEndpoints } from '../../exchange/endpoints/index.ts';
import type { AnyEndpoint } from '../../exchange/endpoints/types.ts';

export type RouteMatch =
  | { kind: 'found'; def: AnyEndpoint; pathParams: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

interface Compiled {
  def: AnyEndpoint;
  regex: RegExp;
  names: string[];
}

function compile(def: AnyEndpoint): Compiled {
  const names: string[] = [];
  let pattern = '';
  let last = 0;
  const placeholder = /\/\{(\w+)(\?)?\}/g;
  for (let m = placeholder.exec(def.path); m !== null; m = placeholder.exec(def.path)) {
    pattern += escape(def.path.slice(last, m.index));
    names.push(m[1] as string);
    pattern += m[2] ? '(?:/([^/]+))?' : '/([^/]+)';
    last = m.index + m[0].length;
  }
  pattern += escape(def.path.slice(last));
  return { def, regex: new RegExp(`^${pattern}$`), names };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class EndpointRouter {
  private readonly routes: Compiled[];

  constructor(endpoints: readonly AnyEndpoint[] = allEndpoints) {
    this.routes = endpoints.map(compile);
  }

  /** `path` is the raw path (no query); path parameters come back percent-decoded. Throws URIError on bad escapes. */
  match(method: string, path: string): RouteMatch {
    const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const allowed: string[] = [];
    for (const route of this.routes) {
      const m = route.regex.exec(clean);
      if (m === null) continue;
      if (route.def.method !== method.toUpperCase()) {
        allowed.push(route.def.method);
        continue;
      }
      const pathParams: Record<string, string> = {};
      route.names.forEach((name, i) => {
        const value = m[i + 1];
        if (value !== undefined) pathParams[name] = decodeURIComponent(value);
      });
      return { kind: 'found', def: route.def, pathParams };
    }
    return allowed.length > 0 ? { kind: 'wrong-method', allowed: [...new Set(allowed)] } : { kind: 'none' };
  }
}
