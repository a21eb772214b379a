/**
 * `halyard treasury <action>` (issue 23): the treasury's sub-commands, each in its own file:
 * `plan` (treasury-plan.ts: the moves that bring every account inside its bands, nothing sent),
 * `apply` and `history` (treasury-apply.ts, treasury-history.ts: carry a plan out, list the moves
 * journaled). Registered as one command in catalog.ts so only the treasury's modules load.
 */
import type { Argv } from 'yargs';
import type { CliIo } from '../../io.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';
import { treasuryApplyCommand } from './treasury-apply.ts';
import { treasuryHistoryCommand } from './treasury-history.ts';
import { treasuryPlanCommand } from './treasury-plan.ts';

export function treasuryCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    ...COMMANDS.treasury,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command(treasuryPlanCommand(io) as never)
        .command(treasuryApplyCommand(io, setExit) as never)
        .command(treasuryHistoryCommand(io) as never)
        .demandCommand(1, 'name a treasury action: plan, apply or history'),
    handler: () => {},
  };
}
