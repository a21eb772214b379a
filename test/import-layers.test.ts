/** The lint rule that keeps imports flowing one way (docs/architecture.md) really rejects wrong-way imports. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function errors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('one-way imports', () => {
  it('core may not import the exchange, node: modules or the logger', async () => {
    expect(await errors('src/core/market/x.ts', "import { RestClient } from '../../exchange/client/rest-client.ts';\nexport const a = RestClient;\n")).toHaveLength(1);
    expect(await errors('src/core/market/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n")).toHaveLength(1);
    expect(await errors('src/core/market/x.ts', "import { dec } from '../money/decimal.ts';\nexport const a = dec;\n")).toHaveLength(0);
  });

  it('adapters may not import the CLI or the composition root', async () => {
    expect(await errors('src/exchange/x.ts', "import { runCli } from '../cli/index.ts';\nexport const a = runCli;\n")).toHaveLength(1);
    expect(await errors('src/sandbox/x.ts', "import { createClient } from '../app/create-client.ts';\nexport const a = createClient;\n")).toHaveLength(1);
  });

  it('backtest folders import one way: a folder may not import a later one, and the composition root stays banned', async () => {
    const metrics = "import { computeMetrics } from '../metrics/metrics.ts';\nexport const a = computeMetrics;\n";
    expect(await errors('src/backtest/run/x.ts', metrics)).toHaveLength(1);
    expect(await errors('src/backtest/output/x.ts', metrics)).toHaveLength(0);
    expect(await errors('src/backtest/sources/x.ts', "import { runBacktest } from '../run/run-backtest.ts';\nexport const a = runBacktest;\n")).toHaveLength(1);
    expect(await errors('src/backtest/sweep/x.ts', "import { walkForward } from '../walk-forward/walk-forward.ts';\nexport const a = walkForward;\n")).toHaveLength(1);
    expect(await errors('src/backtest/warmup/x.ts', "import { compareRuns } from '../compare/compare-result.ts';\nexport const a = compareRuns;\n")).toHaveLength(1);
    expect(await errors('src/backtest/report/x.ts', "import { runSweep } from '../sweep/sweep.ts';\nexport const a = runSweep;\n")).toHaveLength(0);
    expect(await errors('src/backtest/types.ts', "import type { X } from './run/run-backtest.ts';\nexport type A = X;\n")).toHaveLength(1);
    expect(await errors('src/backtest/metrics/x.ts', "import { runCli } from '../../cli/index.ts';\nexport const a = runCli;\n")).toHaveLength(1);
    // tests check a folder end to end through later ones
    expect(await errors('src/backtest/run/x.test.ts', metrics)).toHaveLength(0);
  });
});
