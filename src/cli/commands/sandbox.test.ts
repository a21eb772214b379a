import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs from 'yargs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../sandbox/server.ts';
import { runCommand } from '../test-support.ts';
import { sandboxCommand } from './sandbox.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]) {
  const out: string[] = [];
  const controller = new AbortController();
  let handle: SandboxHandle | undefined;
  const started = new Promise<void>((resolve) => {
    const cmd = sandboxCommand(
      { env: {}, out: (t) => out.push(t), err: (t) => out.push(t) },
      { signal: controller.signal, onStarted: (h) => ((handle = h), resolve()) },
    );
    void yargs(argv).option('config', { type: 'string' }).command(cmd).exitProcess(false).strict().parseAsync().then(() => out.push('[done]'));
  });
  await started;
  return { out, handle: handle!, stop: async () => { controller.abort(); await new Promise((r) => setTimeout(r, 50)); } };
}

describe('halyard sandbox', () => {
  it('prints the URLs and demo credentials, serves requests, and stops on the signal', async () => {
    const { out, handle, stop } = await run(['sandbox', '--admin']);
    expect(out[0]).toContain(handle.baseUrl);
    expect(out[0]).toContain(`ws://127.0.0.1:`);
    expect(out[0]).toContain(handle.apiKey);
    expect(out[0]).toContain(handle.apiSecret);
    expect((await fetch(`${handle.baseUrl}/openapi/v1/ping`)).status).toBe(200);
    expect((await fetch(`${handle.baseUrl}/sandbox-admin/v1/clock`)).status).toBe(200);
    await stop();
    expect(out.slice(-2)).toEqual(['sandbox stopped', '[done]']);
    await expect(fetch(`${handle.baseUrl}/openapi/v1/ping`)).rejects.toThrow();
  });

  it('reads the sandbox section of the config file and keeps accounts in the --state file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'halyard-sbx-cli-'));
    const config = join(dir, 'sandbox.json');
    writeFileSync(config, JSON.stringify({ sandbox: { accounts: [{ email: 'me@x.io', keys: [{ apiKey: 'myKey12345', secret: 'mySecret123' }] }] } }));
    const state = join(dir, 'state.db');
    const first = await run(['sandbox', '--config', config, '--state', state]);
    expect(first.handle.apiKey).toBe('myKey12345');
    first.handle.accounts.createAccount({ email: 'extra@x.io', createdAt: 0 });
    await first.stop();
    const second = await run(['sandbox', '--state', state]);
    expect(second.handle.accounts.findByEmail('extra@x.io')).toBeDefined();
    expect(second.handle.apiKey).toBe('myKey12345');
    await second.stop();
  });

  it('--port must be a port number: named, with what was typed', async () => {
    for (const port of ['abc', '70000', '-1', '1.5']) {
      const r = await runCommand((io) => sandboxCommand(io), ['sandbox', '--port', port]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`error: --port: expected a port number from 0 (any free port) to 65535, got '${port}'`);
    }
  });

  it('a --state file that is not a sandbox state file is bad input: exit 2, naming the option and the file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'halyard-sbx-cli-'));
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'hello, not a database\n'.repeat(20));
    const cases: [string, RegExp][] = [
      [garbage, /^error: --state: state file .*garbage\.db: is not a SQLite database, or is damaged/],
      [dir, new RegExp(`^error: --state ${dir} is a directory: name the state file \\(e\\.g\\. ${join(dir, 'paper.db')}\\)$`)],
    ];
    for (const [file, message] of cases) {
      const r = await runCommand((io) => sandboxCommand(io), ['sandbox', '--port', '0', '--state', file]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
    }
  });
});
