/** `--kill N` (issue 22 deliverable 3): `runKills` kills the bot at seeded points, restarts it on the same journal and checks each restart; `formatKills` prints the table. */
export { formatKills } from './format-kills.ts';
export { planKills, type PlannedKill } from './kill-plan.ts';
export { runKills, type KillRestart, type KillRunOptions, type KillRunResult } from './run-kills.ts';
