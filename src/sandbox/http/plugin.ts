/**
 * Sandbox plugins: how an area (spot engine, money flows, market data, streams) joins the server.
 *
 *   export const spotPlugin: SandboxPlugin = {
 *     name: 'spot',
 *     setup({ state, registerHandlers, registerAdminRoutes }) {
 *       state.services.engine = createEngine(...);          // declared via SandboxServices merging
 *       registerHandlers(spotHandlers);
 *     },
 *     started(handle) { ... },                             // after listen: handle.baseUrl / wsUrl known
 *     close() { ... },
 *   };
 *
 * `setup` runs before the configured accounts are seeded, so a plugin that provides
 * `state.services.balances` receives the starting balances. `httpServer` is the node server the
 * app listens on (attach WebSocket upgrade handlers there). Plugins close in reverse order.
 */
import type { Server } from 'node:http';
import type { AdminRoute } from '../admin/admin-registry.ts';
import type { SandboxHandle } from '../server.ts';
import type { HandlerMap, SandboxState } from './route-types.ts';

export interface PluginContext {
  state: SandboxState;
  httpServer: Server;
  registerHandlers(map: HandlerMap, options?: { replace?: boolean }): void;
  registerAdminRoutes(routes: readonly AdminRoute[]): void;
}

export interface SandboxPlugin {
  name: string;
  /** Shorthand for `setup` calling registerHandlers. */
  handlers?: HandlerMap;
  /** Shorthand for `setup` calling registerAdminRoutes. */
  adminRoutes?: readonly AdminRoute[];
  setup?(ctx: PluginContext): void | Promise<void>;
  started?(handle: SandboxHandle): void | Promise<void>;
  close?(): void | Promise<void>;
}
