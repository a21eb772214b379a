/**
 * The files of a strategy project (`halyard new-strategy NAME --project DIR`, issue 25 item 2;
 * docs/guides/strategy-project.md): a folder of the author's own that installs Halyard as a
 * package, with the settings its strategy is written and checked under: package.json (Halyard, and
 * TypeScript, vitest and Node's types at the versions Halyard itself is built and tested with),
 * tsconfig.json (`strict`, `exactOptionalPropertyTypes`, NodeNext: the shipped declarations
 * type-check under them with no `skipLibCheck`) and a .gitignore. The strategy and its test are
 * strategy-templates.ts'.
 */
import path from 'node:path';

export interface ProjectFilesInput {
  /** The project's folder (its name becomes the package name). */
  readonly dir: string;
  /** The strategy's name: its file is `<name>.ts`. */
  readonly strategy: string;
  /** Halyard's dependency specifier: `file:<this installation>`. */
  readonly halyard: string;
  /** Halyard's own devDependencies (package.json), for typescript, vitest and @types/node. */
  readonly halyardDevDependencies: Readonly<Record<string, string>>;
}

/** File name -> text. */
export function projectFiles(input: ProjectFilesInput): Record<string, string> {
  const dev = (name: string, fallback: string) => input.halyardDevDependencies[name] ?? fallback;
  const pkg = {
    name: packageName(path.basename(input.dir)),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      typecheck: 'tsc -p .',
      test: 'vitest run',
      backtest: `halyard backtest --strategy ./${input.strategy}.ts`,
    },
    dependencies: { halyard: input.halyard },
    devDependencies: { '@types/node': dev('@types/node', '^20.19.0'), typescript: dev('typescript', '~5.9.3'), vitest: dev('vitest', '^4.0.0') },
  };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      // The test imports `./<name>.ts`, as Node and tsx load it; nothing is emitted.
      allowImportingTsExtensions: true,
      noEmit: true,
      types: ['node'],
    },
    include: ['**/*.ts'],
    exclude: ['node_modules'],
  };
  return {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    '.gitignore': 'node_modules/\nbacktest/out/\n*.db\n*.db-wal\n*.db-shm\n',
  };
}

/** A folder name as an npm package name: lowercase, [a-z0-9._-], not starting with . or _. */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 214);
  return name === '' ? 'my-strategies' : name;
}
