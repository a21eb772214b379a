/**
 * The sandbox's spot trading area (spec 4.5, notes 6 cancelReplace): handlers over the exchange
 * core's SpotEngine (exchange-core/plugin.ts). Engine events already reach the market streams and
 * the user data stream through the core's event router, so these handlers only answer requests.
 *
 *   startSandbox({ plugins: [spotPlugin(), marketPlugin()] })
 */
import type { SandboxPlugin } from '../../http/plugin.ts';
import { orderHandlers } from './order-handlers.ts';
import { queryHandlers } from './query-handlers.ts';

export const spotHandlers = { ...orderHandlers, ...queryHandlers };

export function spotPlugin(): SandboxPlugin {
  return { name: 'spot', handlers: spotHandlers };
}
