/**
 * Endpoint id -> handler, checked against the endpoint table so a typo fails at registration,
 * not at the first request. Registering an id twice is an error unless `replace` is set (tests and
 * plugins that deliberately override a default handler).
 */
import { findEndpoint } from '../../exchange/endpoints/index.ts';
import type { Handler, HandlerMap } from './route-types.ts';

export class HandlerRegistry {
  private readonly handlers = new Map<string, Handler>();

  register(map: HandlerMap, options: { replace?: boolean } = {}): void {
    for (const [id, handler] of Object.entries(map)) {
      if (findEndpoint(id)?.id !== id) throw new Error(`registerHandlers: '${id}' is not an endpoint id of the table`);
      if (this.handlers.has(id) && !options.replace) throw new Error(`registerHandlers: '${id}' already has a handler`);
      this.handlers.set(id, handler);
    }
  }

  get(id: string): Handler | undefined {
    return this.handlers.get(id);
  }

  ids(): string[] {
    return [...this.handlers.keys()].sort();
  }
}
