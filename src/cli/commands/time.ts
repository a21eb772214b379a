/** `halyard time`: the server time, the estimated clock offset and round trip. */
import type { CliIo } from '../io.ts';
import { printJson } from '../io.ts';
import { withClient, type GlobalArgs } from '../with-client.ts';
import { COMMANDS } from './catalog.ts';

export function timeCommand(io: CliIo) {
  return {
    ...COMMANDS.time,
    handler: async (args: GlobalArgs) => {
      await withClient(io, args, async ({ client }) => {
        const { serverTime } = await client.general.time();
        await client.rest.serverClock.resync();
        printJson(io, {
          serverTime,
          serverTimeIso: new Date(serverTime).toISOString(),
          localTime: Date.now(),
          offsetMs: client.rest.serverClock.offsetMs,
          roundTripMs: client.rest.serverClock.roundTripMs,
        });
      });
    },
  };
}
