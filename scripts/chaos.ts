/**
 * `npm run chaos` (issue 22 deliverables 1-3): the bot against the sandbox under a seeded schedule
 * of faults, then the checks; or, with `--kill N`, N crash-and-restart cycles (src/chaos/kill).
 *
 *   npm run chaos                                    10,000 intents, every fault kind, a fresh seed
 *   npm run chaos -- --seed 1a2b3c4d                 replay a seed: the same fault schedule
 *   npm run chaos -- --intents 500 --faults error-after=0.02,drop=0.01 --json chaos.json
 *   npm run chaos -- --kill 20                       20 kills (SIGKILL) at points of the order flow, each restart checked
 *
 * Prints the checks' table (formatReport) and what was injected; `--json FILE` writes the whole
 * result. Exits 0 when every check holds, 1 with the seed to replay when one does not, 2 on bad
 * options. A script run with tsx rather than a `halyard chaos` command: it is the project's own
 * verification suite (like `npm run bench`), it starts the sandbox with market agents and loads the
 * chaos strategies from src/chaos/runner/strategies, and it has no place in the built package an
 * operator installs.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { formatReport } from '../src/chaos/format-report.ts';
import { FAULT_KINDS, formatRates, parseFaults } from '../src/chaos/runner/fault-kinds.ts';
import { formatHeals, healByKind } from '../src/chaos/runner/heal-summary.ts';
import { freshSeed } from '../src/chaos/runner/prng.ts';
import { runChaos } from '../src/chaos/runner/run-chaos.ts';

const USAGE = `usage: npm run chaos -- [--seed S] [--intents N] [--faults all|none|kind=rate,...] [--json FILE] [--kill N] [--speed X] [--quiet]
  fault kinds: ${FAULT_KINDS.join(', ')} (rate: per intent, 0..1)`;

function fail(message: string): never {
  process.stderr.write(`chaos: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function wholeNumber(text: string | undefined, name: string, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) fail(`--${name}: expected a whole number >= ${min}, got '${text}'`);
  return n;
}

function machine() {
  return { nproc: availableParallelism(), node: process.version, platform: `${process.platform} ${process.arch}`, loadavg: loadavg().map((l) => Number(l.toFixed(2))) };
}

async function main(): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        seed: { type: 'string' },
        intents: { type: 'string' },
        faults: { type: 'string' },
        json: { type: 'string' },
        kill: { type: 'string' },
        speed: { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  if (values['help'] === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const seed = typeof values['seed'] === 'string' && values['seed'] !== '' ? values['seed'] : freshSeed();
  const json = values['json'] as string | undefined;
  const say = values['quiet'] === true ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  if (values['kill'] !== undefined) {
    const kills = wholeNumber(values['kill'] as string, 'kill', 0, 1);
    // The crash-recovery mode: src/chaos/kill (the bot as a child process, SIGKILLed at points of the order flow).
    const { runKills, formatKills } = await import('../src/chaos/kill/index.ts');
    const r = await runKills({ seed, kills, log: say });
    process.stdout.write(`${formatKills(r)}\n`);
    if (r.report !== undefined) process.stdout.write(`\nthe last restart's checks:\n${formatReport(r.report)}\n`);
    if (json !== undefined) writeFileSync(json, `${JSON.stringify({ mode: 'kill', kills, machine: machine(), ...r }, null, 2)}\n`);
    const ok = r.consistent === kills && r.restarts.length === kills;
    if (!ok) process.stdout.write(`replay: npm run chaos -- --kill ${kills} --seed ${seed}\n`);
    return ok ? 0 : 1;
  }

  const intents = wholeNumber(values['intents'] as string | undefined, 'intents', 10_000, 1);
  let rates;
  try {
    rates = parseFaults((values['faults'] as string | undefined) ?? 'all');
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  const speed = values['speed'] === undefined ? undefined : Number(values['speed']);
  if (speed !== undefined && !(speed > 1)) fail(`--speed: expected a number above 1, got '${String(values['speed'])}'`);
  const r = await runChaos({ seed, intents, rates, ...(speed !== undefined ? { speed } : {}), progress: say, progressEvery: Math.max(100, Math.round(intents / 20)) });

  const injected = FAULT_KINDS.map((k) => `${k} ${r.injectedByKind[k]}`).join(', ');
  process.stdout.write(`${formatReport(r.report)}\n\n`);
  const heals = healByKind(r.report);
  process.stdout.write(`faults injected: ${injected}\nheal times (sandbox time from a fault's end until the streams were LIVE):\n${formatHeals(heals)}\n`);
  process.stdout.write(`intents ${r.intents}, ${(r.sandboxMs / 60_000).toFixed(1)} min of sandbox time in ${(r.wallMs / 1000).toFixed(1)} s; statuses the bot got: ${Object.entries(r.statuses).map(([s, n]) => `${s} x${n}`).join(', ')}\n`);
  if (json !== undefined) {
    writeFileSync(json, `${JSON.stringify({ mode: 'faults', faultRates: formatRates(rates), machine: machine(), ...r, healByKind: heals, input: undefined }, null, 2)}\n`);
    process.stdout.write(`written: ${json}\n`);
  }
  if (!r.report.ok) {
    process.stdout.write(`FAILED: ${r.report.failures.join('; ')}\nreplay: npm run chaos -- --seed ${seed} --intents ${intents} --faults ${formatRates(rates) || 'none'}\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`chaos: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
