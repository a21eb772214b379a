/**
 * A sandbox whose port cannot be bound fails at once and leaves nothing running: startSandbox
 * rejects with SandboxListenError after closing what it had started (stream loops, timers), so
 * the process can end; `halyard sandbox --port <taken>` exits 2 naming --port; and the process
 * stops promptly on SIGINT (exit 0, "sandbox stopped").
 */
import { createHook } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.ts';
import { SandboxListenError, startSandbox, type SandboxHandle } from '../src/sandbox/server.ts';

const BIN = fileURLToPath(new URL('../bin/halyard.mjs', import.meta.url));

let first: SandboxHandle;
let port: number;
beforeAll(async () => {
  first = await startSandbox();
  port = Number(new URL(first.baseUrl).port);
});
afterAll(() => first.close());

/** Async resources created while `fn` runs that are still alive, and would keep the process alive, shortly after it settles. */
async function leftRunning(fn: () => Promise<unknown>): Promise<string[]> {
  const live = new Map<number, { type: string; resource: { hasRef?: () => boolean } }>();
  let recording = true;
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (recording && type !== 'PROMISE') live.set(id, { type, resource: resource as { hasRef?: () => boolean } });
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  try {
    await fn();
  } finally {
    recording = false;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  hook.disable();
  return [...live.values()].filter((x) => x.resource.hasRef?.() ?? true).map((x) => x.type);
}

/** Runs bin/halyard.mjs; resolves with its exit code and output, or rejects when it outlives `ms`. */
function halyard(args: string[], ms: number, onOut?: (text: string, child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      onOut?.(out, child);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`halyard ${args.join(' ')} still running after ${String(ms)} ms\n${out}\n${err}`));
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('sandbox on a port already in use', () => {
  it('startSandbox rejects with a clear error and leaves no timer or loop running', async () => {
    let error: unknown;
    const left = await leftRunning(async () => {
      error = await startSandbox({ config: { listen: { port }, market: { enabled: true } } }).catch((e: unknown) => e);
    });
    expect(error).toBeInstanceOf(SandboxListenError);
    expect((error as SandboxListenError).code).toBe('EADDRINUSE');
    expect((error as Error).message).toBe(`cannot listen on 127.0.0.1:${String(port)}: the port is already in use (another sandbox or program listens there)`);
    expect(left).toEqual([]);
    // The first sandbox is untouched.
    expect((await fetch(`${first.baseUrl}/openapi/v1/ping`)).status).toBe(200);
  });

  it('halyard sandbox --port <taken>: exit 2 naming --port and suggesting another or 0', async () => {
    const err: string[] = [];
    const code = await runCli(['sandbox', '--port', String(port)], { env: {}, out: () => {}, err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toBe(
      `error: --port ${String(port)}: cannot listen on 127.0.0.1:${String(port)}: the port is already in use (another sandbox or program listens there); choose another port with --port, or --port 0 for any free one`,
    );
  });

  it('the process exits at once with code 2', async () => {
    const r = await halyard(['sandbox', '--port', String(port)], 15_000);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--port ${String(port)}: cannot listen on 127.0.0.1:${String(port)}`);
  }, 20_000);
});

describe('stopping the sandbox process', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} stops it promptly (exit 0, "sandbox stopped")`, async () => {
      let sent = false;
      const r = await halyard(['sandbox', '--port', '0'], 15_000, (out, child) => {
        if (!sent && out.includes('Stop with Ctrl-C.')) {
          sent = true;
          child.kill(signal);
        }
      });
      expect(sent).toBe(true);
      expect(r.code).toBe(0);
      expect(r.out).toContain('sandbox stopped');
    }, 20_000);
  }
});
