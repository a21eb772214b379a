/**
 * The docs map (issue 26, deliverables 1 and 2): the README stays short, docs/index.md links every
 * page under docs/ (none orphaned), every relative link in docs/ and the README resolves, and every
 * section of the README as it stood before the docs were split (commit e88df9c) has a home: each
 * old heading is listed below with the page it moved to and text that must be there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** Whitespace collapsed, so a phrase matches across the pages' line breaks. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** Every .md file under docs/, as paths from the repository's root. */
function docsPages(dir = 'docs'): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return docsPages(rel);
    return name.endsWith('.md') ? [rel] : [];
  });
}

/** The targets of a page's Markdown links and images, outside code blocks and code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
}

const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#');

/** The anchors of a page's headings, as GitHub makes them (lower case, punctuation dropped, spaces as hyphens, repeats numbered). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (m[1] as string).trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/**
 * The headings of README.md at commit e88df9c (`git show e88df9c:README.md | grep '^#'`; its
 * "#  Strategy ..." line is a table header inside a code block, not a heading), each with the page
 * that now holds the section and text of the section that must be there.
 */
const OLD_README_SECTIONS: readonly { heading: string; homes: readonly (readonly [page: string, text: string])[] }[] = [
  { heading: '# Halyard', homes: [['README.md', 'npm install && npm start'], ['docs/getting-started.md', 'the SMA crossover on BTCPHP and the market maker on ETHPHP']] },
  { heading: '## What is here', homes: [['README.md', 'src/sandbox'], ['docs/getting-started.md', 'exit code 141 (128 + SIGPIPE']] },
  { heading: '## The client', homes: [['docs/guides/client.md', "createClient({ baseUrl: 'http://127.0.0.1:8080'"], ['docs/concepts/rate-limits-and-retries.md', 'Never sends a write twice.'], ['docs/concepts/money-and-ids.md', 'Ids above 2^53 are parsed losslessly']] },
  { heading: '## The sandbox exchange', homes: [['docs/guides/sandbox.md', 'Agents trade a synthetic (or replayed) market on it']] },
  { heading: '## Data: the journal', homes: [['docs/guides/data.md', '`import` enforces strictly increasing open times']] },
  { heading: '## Writing a strategy', homes: [['docs/guides/writing-strategies.md', "name: 'sma-crossover',"]] },
  { heading: '### Exits: stop-loss, take-profit, trailing stop', homes: [['docs/guides/exits-and-protections.md', "name: 'rsi-exits',"]] },
  { heading: '### Protections: cooldown, stoploss guard, max drawdown, low profit', homes: [['docs/guides/exits-and-protections.md', 'stoplossGuard: { tradeLimit, lookbackMs, lockMs, exitTags }']] },
  { heading: '### A strategy outside this repository', homes: [['docs/guides/strategy-project.md', 'halyard/strategy']] },
  { heading: '### Testing it', homes: [['docs/guides/testing-strategies.md', "runOnRegime(smaCrossover, 'upThenDown'"]] },
  {
    heading: '## Backtesting',
    homes: [
      ['docs/guides/backtesting.md', 'An interval the journal does not hold is made from a shorter one that tiles it'],
      ['docs/concepts/fill-model.md', 'Each bar is played as four prints'],
      ['docs/concepts/metrics.md', "Net PnL and return run from the start balances, base valued at the first bar's open"],
      ['docs/concepts/trades-and-pnl.md', 'A trade is a round trip: from flat to holding and back to flat'],
      ['docs/guides/optimisation.md', 'Sweeps run on worker threads'],
      ['docs/guides/optimisation.md', 'a Tree-structured Parzen Estimator over the axes'],
    ],
  },
  { heading: '### Several strategies compared', homes: [['docs/guides/comparing.md', 'Comparison of 3 strategies on BTCPHP 1m']] },
  { heading: '### Several symbols', homes: [['docs/guides/comparing.md', 'runs one strategy over several symbols in one account']] },
  { heading: '### Is the warm-up enough? `halyard check`', homes: [['docs/guides/warmup-check.md', '`warmupFor.rsi(14)` is 233']] },
  { heading: '## Configuration', homes: [['docs/guides/configuration.md', 'parsed strictly: unknown keys are errors'], ['docs/guides/configuration.md', 'HALYARD_JIT_TUNING=0']] },
  { heading: '## Development', homes: [['docs/development.md', 'npm run bench -- matching'], ['docs/development.md', 'Tests talk only to servers they start on 127.0.0.1']] },
];

describe('the docs map', () => {
  it('keeps the README short: at most about 150 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(160);
  });

  it('links every page under docs/ from docs/index.md', () => {
    const linked = new Set(linksOf(read('docs/index.md')).filter(isRelative).map((t) => path.posix.normalize(`docs/${t.split('#')[0]}`)));
    const orphans = docsPages().filter((p) => p !== 'docs/index.md' && !linked.has(p));
    expect(orphans, 'pages docs/index.md does not link (add a line saying what each is for)').toEqual([]);
  });

  it('resolves every relative link in docs/ and the README, and every #anchor to a heading of its page', () => {
    const broken: string[] = [];
    for (const page of ['README.md', ...docsPages()]) {
      for (const target of linksOf(read(page)).filter((t) => isRelative(t) || t.startsWith('#'))) {
        const [pathPart, anchor] = target.split('#') as [string, string | undefined];
        const file = pathPart === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(pathPart)));
        try {
          statSync(path.join(ROOT, file));
        } catch {
          broken.push(`${page}: ${target}`);
          continue;
        }
        if (anchor !== undefined && anchor !== '' && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("gives every section of the old README a home (its text is on the page it moved to)", () => {
    const missing: string[] = [];
    for (const { heading, homes } of OLD_README_SECTIONS) {
      for (const [page, text] of homes) {
        let content: string;
        try {
          content = read(page);
        } catch {
          missing.push(`${heading}: ${page} does not exist`);
          continue;
        }
        if (!flat(content).includes(flat(text))) missing.push(`${heading}: ${page} lacks "${text}"`);
      }
    }
    expect(missing).toEqual([]);
  });
});
