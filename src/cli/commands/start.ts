/**
 * `halyard start` (`npm start`): the main job. Until the sandbox exchange and the live runner exist
 * it prints what the installation offers and how to use it; later issues make it run on the
 * embedded sandbox.
 */
import { allEndpoints } from '../../exchange/endpoints/index.ts';
import type { CliIo } from '../io.ts';

export function startCommand(io: CliIo) {
  return {
    command: 'start',
    describe: 'Run the main job',
    handler: async () => {
      io.out(
        [
          `Halyard: exchange client ready, ${allEndpoints.length} endpoints.`,
          'Try:',
          '  npx halyard api --list                          every endpoint by area',
          '  npx halyard api spot.newOrder --describe        one endpoint\'s parameters and rules',
          '  npx halyard --base-url URL time                 server time and clock offset',
        ].join('\n'),
      );
    },
  };
}
