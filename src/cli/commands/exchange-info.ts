/** `halyard exchange-info [--symbol S]`: the exchange rules, or one symbol's. */
import type { Argv } from 'yargs';
import { printJson, type CliIo } from '../io.ts';
import { isUnknownSymbol, unknownSymbol } from '../unknown-symbol.ts';
import { withClient, type GlobalArgs } from '../with-client.ts';
import { COMMANDS } from './catalog.ts';

export function exchangeInfoCommand(io: CliIo) {
  return {
    ...COMMANDS['exchange-info'],
    builder: (y: Argv<GlobalArgs>) => y.option('symbol', { type: 'string', describe: 'only this symbol' }),
    handler: async (args: GlobalArgs & { symbol?: string }) => {
      await withClient(io, args, async ({ client }) => {
        const symbol = args.symbol?.toUpperCase();
        let info;
        try {
          info = await client.general.exchangeInfo(symbol ? { symbol } : {});
        } catch (e) {
          if (symbol !== undefined && isUnknownSymbol(e)) throw unknownSymbol(symbol, e.venueMessage);
          throw e;
        }
        printJson(io, info);
      });
    },
  };
}
