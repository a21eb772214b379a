/**
 * The temp journal the sweep CLI tests run on: BTCPHP 1-minute bars of a slow rise then a slow
 * fall (seed 4), `barsEach` of each, in a folder of its own removed after the file's tests; and
 * the backtest command's arguments that read it in this thread (--workers 0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { backtestCommand } from '../../src/cli/commands/backtest/backtest.ts';
import { runCommand } from '../../src/cli/test-support.ts';
import { generateSeries } from '../../src/core/synthetic/index.ts';
import { openJournal } from '../../src/journal/journal.ts';

export interface SweepJournal {
  /** The temp folder (the journal is in it; put outputs here too). */
  readonly dir: string;
  readonly journal: string;
  /** `halyard backtest` of sma-crossover on the journal, in this thread, before the test's own arguments. */
  base(): string[];
  run(argv: string[]): ReturnType<typeof runCommand>;
}

/** Register the journal's setup and removal for the calling test file; its fields are set once beforeAll ran. */
export function sweepJournal(name: string, barsEach: number): SweepJournal {
  const state = { dir: '', journal: '' };
  beforeAll(() => {
    state.dir = mkdtempSync(join(tmpdir(), `halyard-sweep-${name}-cli-`));
    state.journal = join(state.dir, 'j.db');
    const j = openJournal(state.journal);
    const series = generateSeries({ seed: 4, startTime: Date.UTC(2024, 0, 1), segments: [{ regime: 'slowUp', bars: barsEach }, { regime: 'slowDown', bars: barsEach }] });
    j.klines.insertKlines([...series].map((c) => ({ symbol: 'BTCPHP', interval: '1m', openTime: c.openTime, closeTime: c.closeTime, ...c.exact, source: 'test' })));
    j.close();
  });
  afterAll(() => rmSync(state.dir, { recursive: true, force: true }));
  return {
    get dir() {
      return state.dir;
    },
    get journal() {
      return state.journal;
    },
    base: () => ['backtest', '--strategy', 'sma-crossover', '--symbol', 'BTCPHP', '--interval', '1m', '--journal', state.journal, '--workers', '0'],
    run: (argv) => runCommand(backtestCommand, argv, { config: true }),
  };
}
