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
});
