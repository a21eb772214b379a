/** `halyard api <endpoint> key=value ...`: call any endpoint of the table by id and print its JSON. */
import type { Argv } from 'yargs';
import { findEndpoint } from '../../exchange/endpoints/index.ts';
import { describeEndpoint, endpointListing } from '../endpoint-help.ts';
import { UsageError } from '../errors.ts';
import { EXIT, printJson, type CliIo } from '../io.ts';
import { withClient, type GlobalArgs } from '../with-client.ts';
import { COMMANDS } from './catalog.ts';

/** `a=1 b=x=y` -> { a: '1', b: 'x=y' }; a pair without `=` is a usage error naming it. */
export function parseKeyValues(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`parameter '${pair}' must be written key=value`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

export function apiCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    ...COMMANDS.api,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional('endpoint', { type: 'string', describe: 'endpoint id, e.g. spot.newOrder' })
        .positional('params', { type: 'string', array: true, describe: 'key=value parameters' })
        .option('describe', { type: 'boolean', describe: "print the endpoint's parameters instead of calling it" })
        .option('list', { type: 'boolean', describe: 'list every endpoint by area' })
        .epilogue(endpointListing()),
    handler: async (args: GlobalArgs & { endpoint?: string; params?: string[]; describe?: boolean; list?: boolean }) => {
      if (args.list || !args.endpoint) {
        io.out(endpointListing());
        setExit(args.list ? EXIT.ok : EXIT.badInput);
        if (!args.list) io.err('error: name an endpoint, e.g. `halyard api general.time`');
        return;
      }
      const def = findEndpoint(args.endpoint);
      if (!def) throw new UsageError(`unknown endpoint '${args.endpoint}'; \`halyard api --list\` shows them all`);
      if (args.describe) {
        io.out(describeEndpoint(def));
        return;
      }
      const params = parseKeyValues(args.params ?? []);
      await withClient(io, args, async ({ client }) => {
        printJson(io, await client.rest.call(def, params as never));
      });
    },
  };
}
