/**
 * `halyard treasury plan --config FILE [--json] [--out plan.json]` (issue 23 deliverable 2): reads
 * the balances of the master and the policy's sub-accounts and the book tickers through the typed
 * client (src/treasury/plan/read-inputs.ts), and prints the moves that bring every account inside
 * its bands (src/treasury/plan/planner.ts), what stays outside and why, and the balances expected
 * after. Nothing is sent: every call is a read. `--out` writes the Plan for `treasury apply --plan`.
 *
 * FILE is the treasury policy (src/treasury/policy/schema.ts) or a bot config with a `treasury`
 * section; the venue is --base-url / HALYARD_BASE_URL, else a bot config's venue URLs. Keys from
 * HALYARD_API_KEY / HALYARD_API_SECRET (the master's). Bad input (the policy, a sub-account's key
 * (src/treasury/policy/master-key.ts), a name the venue does not know, a destination address that
 * is not one of its network, bands impossible at these balances) exits 2 naming each problem; the
 * venue failing exits 1.
 */
import { writeFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { createClient, type ClientHandle } from '../../../app/create-client.ts';
import { ConfigError } from '../../../config/errors.ts';
import { secretsFromEnv } from '../../../config/load.ts';
import { exchangeConfigSchema } from '../../../config/schema.ts';
import { httpUrlProblem } from '../../../config/urls.ts';
import { humanLines } from '../../../log/human-lines.ts';
import { createLogger } from '../../../log/logger.ts';
import { loadTreasuryFile, type TreasuryFile } from '../../../treasury/policy/parse.ts';
import { PlanConflictError, planTreasury, type PlanResult } from '../../../treasury/plan/planner.ts';
import { readPlanInputs } from '../../../treasury/plan/read-inputs.ts';
import { requireMasterKey } from '../../../treasury/policy/master-key.ts';
import { formatPlan } from '../../../treasury/plan/format.ts';
import { UsageError } from '../../errors.ts';
import { printJson, type CliIo } from '../../io.ts';
import type { GlobalArgs } from '../../with-client.ts';

interface PlanArgs extends GlobalArgs {
  json?: boolean;
  out?: string;
}

export function treasuryPlanCommand(io: CliIo) {
  return {
    command: 'plan',
    describe: 'Print the moves that would bring every account inside its treasury bands (nothing is sent); --json, --out plan.json',
    builder: (y: Argv<GlobalArgs>) =>
      y.option('json', { type: 'boolean', describe: 'print the plan, the bands broken before, and the balances expected after as JSON' }).option('out', { type: 'string', describe: 'also write the plan to this file (for `treasury apply --plan`)' }),
    handler: (args: PlanArgs) => treasuryPlan(io, args),
  };
}

/** The policy file, and a client on its venue: --base-url / HALYARD_BASE_URL, else a bot config's venue URLs; its `exchange` settings when a bot config. Shared with `treasury apply`. */
export function openTreasuryVenue(io: CliIo, args: GlobalArgs): TreasuryFile & { handle: ClientHandle; source: string } {
  if (typeof args.config !== 'string') throw new UsageError('--config: give the treasury policy file (or a bot config with a "treasury" section)');
  const file = loadTreasuryFile(args.config);
  const { bot } = file;
  const baseUrl = args.baseUrl ?? io.env['HALYARD_BASE_URL'] ?? (bot !== undefined && bot.venue !== 'sandbox' ? bot.venue.baseUrl : undefined);
  if (baseUrl === undefined) throw new UsageError('no exchange address: pass --base-url, set HALYARD_BASE_URL, or use a bot config whose venue has a baseUrl');
  const problem = httpUrlProblem(baseUrl);
  if (problem !== undefined) throw new UsageError(`${args.baseUrl !== undefined ? '--base-url' : 'HALYARD_BASE_URL'}: ${problem}`);
  const logger = createLogger({ level: args.logLevel ?? 'warn' }, process.stderr.isTTY === true ? humanLines(process.stderr) : undefined);
  const handle = createClient({ baseUrl, exchange: bot?.exchange ?? exchangeConfigSchema.parse({}), secrets: secretsFromEnv(io.env), logger });
  return { ...file, handle, source: args.config };
}

export async function treasuryPlan(io: CliIo, args: PlanArgs): Promise<void> {
  const { policy, handle, source } = openTreasuryVenue(io, args);
  let result: PlanResult;
  let prices: Record<string, string>;
  try {
    // A sub-account's key reads its own account fine and would plan from the wrong balances: refused first.
    await requireMasterKey(handle.client, source);
    const input = await readPlanInputs(handle.client, policy, { now: () => handle.client.rest.serverClock.now(), source });
    prices = input.prices;
    try {
      result = planTreasury(input);
    } catch (e) {
      if (e instanceof PlanConflictError) throw new ConfigError(source, e.issues);
      throw e;
    }
  } finally {
    await handle.close();
  }
  if (args.out !== undefined) writeFileSync(args.out, `${JSON.stringify(result.plan, null, 2)}\n`);
  if (args.json === true) printJson(io, { plan: result.plan, before: result.before, after: result.after, prices });
  else io.out(formatPlan(result, policy.valuation, args.out));
}
