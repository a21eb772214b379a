/**
 * `halyard new-strategy NAME [--template sma|rsi-exits|grid|blank] [--dir strategies] [--force]`:
 * writes `<dir>/NAME.ts`, a working, typed strategy, and `<dir>/NAME.test.ts`, its vitest test on
 * the testing kit's canned markets, then prints the commands that test and backtest them
 * (Freqtrade's `new-strategy`). The texts are strategy-templates.ts'.
 *
 * Imports: a folder inside this repository imports the strategy API by a relative path
 * (`../src/strategy/index.ts` from `strategies/`, deeper for nested folders), as the examples do;
 * a folder outside it imports `halyard/strategy` and `halyard/strategy/testing`, which the loader's
 * resolve hook and `halyard test` map to this installation (docs/guides/strategy-project.md).
 *
 * `--project DIR` writes a strategy project instead (issue 25 item 2, strategy-project-files.ts,
 * docs/guides/strategy-project.md): DIR/package.json depending on this installation, tsconfig.json
 * (strict, exactOptionalPropertyTypes), .gitignore, and the strategy and its test importing
 * `halyard/strategy`; `npm install` there, then tsc, vitest and `npx halyard backtest` run in it.
 *
 * Refused, exit 2, naming the argument: a NAME that is not kebab-case (a-z first, then a-z, 0-9
 * and single hyphens, at most 40 characters: defineStrategy's limit on `name`); an unknown
 * --template; a file that exists, unless --force; and, written elsewhere than `strategies/`, the
 * name of a strategy that `strategies/` holds: `--strategy NAME` loads that one by name, and runs
 * and `halyard strategies` would show two strategies under one name (--force does not lift this:
 * it is about the name, not a file; in `strategies/` itself it is the existing-file rule).
 */
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Argv } from 'yargs';
import { makeDirs } from '../../../fs/make-dirs.ts';
import { DEFAULT_STRATEGIES_DIR, listStrategies } from '../../../strategy/loading/loader.ts';
import { UsageError } from '../../errors.ts';
import type { CliIo } from '../../io.ts';
import type { GlobalArgs } from '../../with-client.ts';
import { COMMANDS } from '../catalog.ts';
import { isTemplateName, renderTemplate, TEMPLATE_NAMES } from './strategy-templates.ts';
import type { TemplateName } from './strategy-templates.ts';
import { projectFiles } from './strategy-project-files.ts';

/** This installation's folder: the one `npx halyard` runs in, and where relative imports lead. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** kebab-case, as the files in strategies/ are named; at most 40 characters (define.ts's limit on `name`). */
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_NAME = 40;

export interface NewStrategyArgs extends GlobalArgs {
  name?: string;
  template?: string;
  dir?: string;
  project?: string;
  force?: boolean;
}

export interface NewStrategyOptions {
  /** Base of a relative --dir and of the paths printed; default process.cwd(). */
  readonly cwd?: string;
  /** The folder of the strategies loadable by name; default DEFAULT_STRATEGIES_DIR. */
  readonly strategiesDir?: string;
}

export interface NewStrategyResult {
  readonly strategyFile: string;
  readonly testFile: string;
  readonly template: TemplateName;
  /** Whether the files import `halyard/strategy` (outside this repository) rather than a relative path. */
  readonly outside: boolean;
  /** With --project: the project's folder and the project files written there (package.json, ...). */
  readonly project?: { readonly dir: string; readonly files: readonly string[] };
}

export function newStrategyCommand(io: CliIo) {
  return {
    ...COMMANDS['new-strategy'],
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional('name', { type: 'string', describe: 'kebab-case name: the strategy\'s name and its file <dir>/<name>.ts' })
        .option('template', { type: 'string', default: 'sma', describe: `starting point: ${TEMPLATE_NAMES.join(', ')} (blank: every handler a comment)` })
        .option('dir', { type: 'string', describe: 'folder to write into (made if missing; default strategies); outside this repository the files import halyard/strategy' })
        .option('project', { type: 'string', describe: 'write a strategy project into this folder instead: package.json installing Halyard, tsconfig.json (strict), the strategy and its test' })
        .option('force', { type: 'boolean', describe: 'overwrite existing files' }),
    handler: (args: NewStrategyArgs) => {
      const result = runNewStrategy(args);
      io.out(nextSteps(result));
    },
  };
}

/** Checks the arguments, writes the two files; what was written. */
export function runNewStrategy(args: NewStrategyArgs, options: NewStrategyOptions = {}): NewStrategyResult {
  const cwd = options.cwd ?? process.cwd();
  const name = checkName(args.name);
  const templateArg = args.template ?? 'sma';
  if (!isTemplateName(templateArg)) throw new UsageError(`--template '${templateArg}' is not a template: one of ${TEMPLATE_NAMES.join(', ')}`);
  if (args.project !== undefined) {
    if (args.dir !== undefined) throw new UsageError('--dir and --project both say where to write: give one (--project DIR writes a whole strategy project)');
    return writeProject(name, templateArg, args.project, cwd, args.force === true);
  }
  const dirArg = args.dir ?? 'strategies';
  const dir = path.resolve(cwd, dirArg);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`--dir ${dirArg} is a file, not a folder`);
  const strategyFile = path.join(dir, `${name}.ts`);
  const testFile = path.join(dir, `${name}.test.ts`);

  const strategiesDir = options.strategiesDir ?? DEFAULT_STRATEGIES_DIR;
  if (!sameFolder(dir, strategiesDir) && listStrategies(strategiesDir).includes(name)) {
    throw new UsageError(
      `NAME '${name}' is the name of a strategy in ${strategiesDir}: \`--strategy ${name}\` loads that one, and runs would show two strategies named '${name}'; choose another name (e.g. my-${name})`,
    );
  }
  if (args.force !== true) {
    const existing = [strategyFile, testFile].filter((f) => existsSync(f));
    if (existing.length) throw new UsageError(`${existing.map((f) => shown(f, cwd)).join(' and ')} already exist${existing.length === 1 ? 's' : ''}: choose another NAME or --dir, or give --force to overwrite`);
  }
  for (const f of [strategyFile, testFile]) {
    if (existsSync(f) && !statSync(f).isFile()) throw new UsageError(`${shown(f, cwd)} is a folder: choose another NAME or --dir`);
  }

  const inside = isInside(dir, PROJECT_ROOT);
  const files = renderTemplate(templateArg, {
    name,
    strategyImport: inside ? relativeImport(dir, path.join(PROJECT_ROOT, 'src/strategy/index.ts')) : 'halyard/strategy',
    testingImport: inside ? relativeImport(dir, path.join(PROJECT_ROOT, 'src/strategy/testing/index.ts')) : 'halyard/strategy/testing',
    outside: !inside,
  });
  try {
    makeDirs(dir);
    writeFileSync(strategyFile, files.strategy);
    writeFileSync(testFile, files.test);
  } catch (e) {
    throw new UsageError(`cannot write into --dir ${dirArg}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { strategyFile, testFile, template: templateArg, outside: !inside };
}

/** `--project DIR`: the project files, then the strategy and its test, all in DIR. */
function writeProject(name: string, template: TemplateName, projectArg: string, cwd: string, force: boolean): NewStrategyResult {
  const dir = path.resolve(cwd, projectArg);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`--project ${projectArg} is a file, not a folder`);
  if (isInside(dir, PROJECT_ROOT)) throw new UsageError(`--project ${projectArg} is inside this installation (${PROJECT_ROOT}): a strategy project is a folder of its own, elsewhere (e.g. ~/my-strategies)`);
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const project = projectFiles({ dir, strategy: name, halyard: `file:${PROJECT_ROOT.replace(/[\\/]$/, '')}`, halyardDevDependencies: pkg.devDependencies ?? {} });
  const code = renderTemplate(template, { name, strategyImport: 'halyard/strategy', testingImport: 'halyard/strategy/testing', outside: true });
  const strategyFile = path.join(dir, `${name}.ts`);
  const testFile = path.join(dir, `${name}.test.ts`);
  const all: [string, string][] = [...Object.entries(project).map(([f, text]): [string, string] => [path.join(dir, f), text]), [strategyFile, code.strategy], [testFile, code.test]];
  if (!force) {
    const existing = all.map(([f]) => f).filter((f) => existsSync(f));
    if (existing.length) throw new UsageError(`${existing.map((f) => shown(f, cwd)).join(', ')} already exist${existing.length === 1 ? 's' : ''}: choose another --project folder, or give --force to overwrite`);
  }
  try {
    makeDirs(dir);
    for (const [f, text] of all) writeFileSync(f, text);
  } catch (e) {
    throw new UsageError(`cannot write into --project ${projectArg}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { strategyFile, testFile, template, outside: true, project: { dir, files: Object.keys(project) } };
}

function checkName(name: string | undefined): string {
  if (name === undefined || name === '') throw new UsageError('name the strategy: halyard new-strategy NAME (kebab-case, e.g. my-first)');
  if (name.length > MAX_NAME || !NAME.test(name)) {
    const why = name.length > MAX_NAME ? `is ${name.length} characters (at most ${MAX_NAME})` : 'is not kebab-case';
    throw new UsageError(`NAME '${name}' ${why}: a lowercase letter, then lowercase letters, digits and single hyphens, e.g. my-first`);
  }
  return name;
}

/** The next steps: the exact commands that test and backtest the new files, run from this installation's folder. */
export function nextSteps(result: NewStrategyResult, cwd: string = process.cwd()): string {
  if (result.project !== undefined) return projectSteps(result, result.project, cwd);
  const atRoot = sameFolder(cwd, PROJECT_ROOT);
  // `npx halyard` runs in this installation's folder: paths relative to it, or absolute when outside it.
  const base = atRoot ? cwd : PROJECT_ROOT;
  const p = (f: string) => quoted(shown(f, base));
  const demo = path.join('backtest', 'out', 'demo-journal.db');
  const lines = [
    `Wrote ${p(result.strategyFile)} (template ${result.template}) and its test ${p(result.testFile)}${result.outside ? ', importing halyard/strategy' : ''}.`,
    '',
    `Next${atRoot ? '' : `, in ${PROJECT_ROOT}`}:`,
    `  npx halyard test ${p(result.testFile)}`,
    `  npx halyard demo   # once: a demo journal of BTCPHP 1m klines, ${demo}`,
    `  npx halyard backtest --strategy ${p(result.strategyFile)} --symbol BTCPHP --interval 1m --journal ${demo}`,
    '',
    'Docs: docs/guides/writing-strategies.md, testing-strategies.md, backtesting.md' + (result.outside ? ', strategy-project.md (a tsconfig.json for types in an editor).' : '.'),
  ];
  return lines.join('\n');
}

/** The next steps in a new strategy project: install, type-check, test, backtest, all in its folder. */
function projectSteps(result: NewStrategyResult, project: { readonly dir: string; readonly files: readonly string[] }, cwd: string): string {
  const name = path.basename(result.strategyFile);
  return [
    `Wrote a strategy project in ${quoted(shown(project.dir, cwd))}: ${name} (template ${result.template}), ${path.basename(result.testFile)}, ${project.files.join(', ')}.`,
    '',
    'Next:',
    `  cd ${quoted(shown(project.dir, cwd))}`,
    `  npm install      # Halyard from ${PROJECT_ROOT} (or a packed copy: npm install /path/to/halyard-<version>.tgz)`,
    '  npx tsc -p .     # types: strict, exactOptionalPropertyTypes',
    '  npx vitest run   # its test, on the testing kit\'s canned markets',
    `  npx halyard backtest --strategy ./${name} --symbol BTCPHP --interval 1m --journal <journal.db>`,
    '',
    `Docs: ${path.join(PROJECT_ROOT, 'docs/guides/strategy-project.md')}`,
  ].join('\n');
}

/** A path as typed on a command line: relative to `base` when under it, else absolute. */
function shown(file: string, base: string): string {
  const rel = path.relative(base, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

function quoted(p: string): string {
  return /^[\w./~:-]+$/.test(p) ? p : `'${p.replaceAll("'", "'\\''")}'`;
}

/** An import specifier from a file in `fromDir` to `target`: forward slashes, starting with `./` or `../`. */
export function relativeImport(fromDir: string, target: string): string {
  const rel = path.relative(real(fromDir), real(target)).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

function isInside(dir: string, root: string): boolean {
  const rel = path.relative(real(root), real(dir));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function sameFolder(a: string, b: string): boolean {
  return path.relative(real(a), real(b)) === '';
}

/** The real path of `p`, through its nearest existing ancestor (the folder may not exist yet): symlinks do not decide inside or outside. */
function real(p: string): string {
  const abs = path.resolve(p);
  let head = abs;
  const tail: string[] = [];
  while (!existsSync(head)) {
    const parent = path.dirname(head);
    if (parent === head) return abs;
    tail.unshift(path.basename(head));
    head = parent;
  }
  return path.join(realpathSync(head), ...tail);
}
