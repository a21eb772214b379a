/**
 * `halyard treasury apply --config FILE [--plan plan.json] [--approve] [--journal FILE] [--json]`
 * (issue 23 deliverable 3): carries a plan out through the executor (src/treasury/apply/), one move
 * at a time, each journaled before it is sent (treasury_moves), unknown outcomes looked up by
 * client id and never resent, stopping at the first move that does not succeed.
 *
 * The plan is the file `treasury plan --out` wrote (or its `--json` output), checked field by
 * field; without --plan the accounts are read and planned again from the same policy (the moves
 * already sent today count against the per-day caps). Withdrawals and cash-outs are sent only with
 * --approve, only to destinations in the policy (src/treasury/apply/approval.ts).
 *
 * FILE is the treasury policy or a bot config with a `treasury` section (src/treasury/policy/
 * parse.ts); the venue is --base-url / HALYARD_BASE_URL, else the bot config's venue; keys from
 * HALYARD_API_KEY / HALYARD_API_SECRET (the master's); the journal --journal / $HALYARD_JOURNAL /
 * the bot config's / data/halyard.db. Exit 0 when every move succeeded, 1 when the plan stopped
 * (the move that stopped it is named), 2 for bad input (nothing sent).
 */
import type { Argv } from 'yargs';
import type { ClientHandle } from '../../../app/create-client.ts';
import { ConfigError } from '../../../config/errors.ts';
import { resolveJournalPath } from '../../../journal/journal-path.ts';
import { applyPlan } from '../../../treasury/apply/apply-plan.ts';
import { readPlanFile } from '../../../treasury/apply/plan-file.ts';
import type { ApplyResult } from '../../../treasury/apply/types.ts';
import { formatHistory, historyJson } from '../../../treasury/journal/history.ts';
import { openMoveStore } from '../../../treasury/journal/move-store.ts';
import type { Plan } from '../../../treasury/moves.ts';
import { loadTreasuryFile, type TreasuryFile } from '../../../treasury/policy/parse.ts';
import { PlanConflictError, planTreasury } from '../../../treasury/plan/planner.ts';
import { readPlanInputs } from '../../../treasury/plan/read-inputs.ts';
import { requireMasterKey } from '../../../treasury/policy/master-key.ts';
import { UsageError } from '../../errors.ts';
import { EXIT, printJson, type CliIo } from '../../io.ts';
import { JOURNAL_OPTION, openUserJournal } from '../../journal-file.ts';
import { checkJournalPath, journalSource } from '../../paths.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { openTreasuryVenue } from './treasury-plan.ts';

export interface TreasuryApplyArgs extends GlobalArgs {
  plan?: string;
  approve?: boolean;
  journal?: string;
  json?: boolean;
}

export const TREASURY_APPLY = {
  command: 'apply',
  describe: 'Carry out a treasury plan (--plan plan.json, or planned again from --config): each move journaled before it is sent, unknown outcomes looked up, never resent; withdrawals and cash-outs only with --approve',
} as const;

const DAY_MS = 86_400_000;

export interface TreasuryApplyDeps {
  /** The client (tests: one on the sandbox's virtual clock); default made from the args and the environment. */
  readonly client?: ClientHandle;
}

export function treasuryApplyCommand(io: CliIo, setExit: (code: number) => void, deps: TreasuryApplyDeps = {}) {
  return {
    ...TREASURY_APPLY,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option('plan', { type: 'string', describe: 'the plan file `treasury plan --out` wrote (default: plan again from --config now)' })
        .option('approve', { type: 'boolean', default: false, describe: 'approve the withdrawals and cash-outs of this plan (money leaves the venue); without it they are refused and nothing of them is sent' })
        .option('journal', JOURNAL_OPTION)
        .option('json', { type: 'boolean', describe: 'print the outcome and the journaled moves as JSON' }),
    handler: async (args: TreasuryApplyArgs) => {
      setExit(await treasuryApply(io, args, deps));
    },
  };
}

export async function treasuryApply(io: CliIo, args: TreasuryApplyArgs, deps: TreasuryApplyDeps = {}): Promise<number> {
  if (typeof args.config !== 'string') throw new UsageError('--config: give the treasury policy file (or a bot config with a "treasury" section)');
  // The plan file is read before anything else: a bad one sends nothing.
  const given = args.plan === undefined ? undefined : readPlanFile(args.plan);
  const file: TreasuryFile & { handle: ClientHandle } = deps.client === undefined ? openTreasuryVenue(io, args) : { ...loadTreasuryFile(args.config), handle: deps.client };
  const handle = file.handle;
  const journalFile = resolveJournalPath(args.journal, io.env, file.bot?.journal);
  checkJournalPath(journalFile, journalSource(args.journal, io.env, file.bot?.journal));
  const journal = openUserJournal(journalFile);
  try {
    // Before planning or sending anything: the moves need the master's key (a sub-account's is refused, exit 2).
    await requireMasterKey(handle.client, args.config);
    const store = openMoveStore(journal);
    const plan = given ?? (await planAgain(handle, file, args.config, store.movedSince(dayStart(handle.client.rest.clock.now()))));
    if (plan.moves.length === 0) {
      io.out(`plan ${plan.id}: no moves: every account is inside its bands${plan.unresolved.length ? `; outside and left: ${plan.unresolved.map((u) => `${u.account} ${u.asset} (${u.reason})`).join('; ')}` : ''}`);
      return EXIT.ok;
    }
    const result = await applyPlan(plan, {
      client: handle.client,
      journal,
      policy: file.policy,
      approve: args.approve === true,
      log: (level, msg, data) => {
        if (level !== 'info') io.err(`${level}: ${msg}${data === undefined ? '' : ` ${JSON.stringify(data)}`}`);
      },
    });
    report(io, args, result, store.list({ planId: plan.id }), plan);
    return result.stopped === undefined ? EXIT.ok : EXIT.failed;
  } finally {
    journal.close();
    if (deps.client === undefined) await handle.close();
  }
}

function report(io: CliIo, args: TreasuryApplyArgs, result: ApplyResult, rows: ReturnType<ReturnType<typeof openMoveStore>['list']>, plan: Plan): void {
  if (args.json === true) {
    printJson(io, { planId: result.planId, stopped: result.stopped ?? null, outcomes: result.outcomes, moves: historyJson(rows) });
    return;
  }
  const lines = [formatHistory(rows)];
  const left = plan.moves.length - result.outcomes.length;
  lines.push(
    result.stopped === undefined
      ? `all ${plan.moves.length} moves succeeded`
      : `stopped: ${result.stopped}${left > 0 ? ` (${left} move${left === 1 ? '' : 's'} not applied)` : ''}`,
  );
  io.out(lines.join('\n'));
}

async function planAgain(handle: ClientHandle, file: TreasuryFile, source: string, movedToday: Record<string, string>): Promise<Plan> {
  const input = await readPlanInputs(handle.client, file.policy, { now: () => handle.client.rest.serverClock.now(), source, movedToday });
  try {
    return planTreasury(input).plan;
  } catch (e) {
    if (e instanceof PlanConflictError) throw new ConfigError(source, e.issues);
    throw e;
  }
}

/** Midnight UTC of the day `now` falls in: the per-day caps count from it. */
function dayStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}
