import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientOrderId } from '../../../core/orders/client-order-id.ts';
import { openJournal } from '../../../journal/journal.ts';
import { runCommand } from '../../test-support.ts';
import { statusCommand } from './status.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'halyard-status-cli-'));
  dirs.push(dir);
  return dir;
}

/** A journal with one sandbox run of `s1` on BTCPHP: one buy filled, a bid open, the user stream LIVE. Left open when `keepOpen` (a running bot's writer). */
function writeJournal(file: string, keepOpen = false): { close(): void } {
  const j = openJournal(file);
  j.liveRuns.begin({ id: 'run-1', kind: 'sandbox', strategies: [{ name: 's1', symbols: ['BTCPHP'] }], config: {}, startedAt: T0 });
  j.streamHealth.record({ runId: 'run-1', time: T0 + 500, stream: 'user', from: 'CONNECTING', to: 'LIVE', reason: 'resynced' });
  const buy = clientOrderId({ runId: 'run-1', strategy: 's1', tag: 'entry', seq: 1 });
  j.orders.insert({ clientOrderId: buy, runId: 'run-1', symbol: 'BTCPHP', side: 'BUY', type: 'MARKET', qty: '0.002', status: 'FILLED', createdAt: T0 + 60_000 });
  j.fills.insert({ symbol: 'BTCPHP', tradeId: '9007199254740993', runId: 'run-1', clientOrderId: buy, side: 'BUY', price: '2900000', qty: '0.002', quoteQty: '5800', commission: '2.9', commissionAsset: 'PHP', isMaker: false, time: T0 + 60_000 });
  const bid = clientOrderId({ runId: 'run-1', strategy: 's1', tag: 'bid', seq: 1 });
  j.orders.insert({ clientOrderId: bid, runId: 'run-1', symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', price: '2850000', qty: '0.001', status: 'NEW', createdAt: T0 + 120_000 });
  if (!keepOpen) j.close();
  return j;
}

const NOW = T0 + 125_000;
const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => runCommand((io) => statusCommand({ ...io, env, tty: { out: false } }, { now: () => NOW }), argv);

describe('halyard status', () => {
  it('prints the status block of the last live run of a journal a running bot holds open', async () => {
    const file = join(tempDir(), 'bot.db');
    const writer = writeJournal(file, true);
    try {
      const r = await run(['status', '--journal', file]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const bid = clientOrderId({ runId: 'run-1', strategy: 's1', tag: 'bid', seq: 1 });
      expect(r.out).toBe(
        [
          'run run-1 (sandbox) RUNNING up 2m05s, started 2024-03-13 10:00:00Z, last record 5s ago',
          'user stream LIVE for 2m04s | market data unknown | clock offset unknown',
          'orders 2, fills 1, rejected 0, bars 0',
          's1 [BTCPHP] active | realised 0 PHP | unrealised -2.9 PHP | fees 2.9 PHP | open orders 1',
          '  BTCPHP position 0.002 @ 2901450 | mark 2900000 (last fill 10:01:00Z, 1m05s ago) | unrealised -2.9 | realised 0',
          `  open BUY LIMIT BTCPHP 0.001 @ 2850000 NEW ${bid}`,
          `  last signal 10:02:00Z (5s ago) order: NEW ${bid} BUY LIMIT 0.001 @ 2850000 (created)`,
          `(from journal ${file}: realised PnL FIFO as the backtest counts it, fees included; unrealised marked at the newest fill or recorded bar close; weight and clock offset are known to the running bot only)`,
        ].join('\n'),
      );
    } finally {
      writer.close();
    }
  });

  it('--json prints the snapshot, ids and money as strings; --run picks a run', async () => {
    const file = join(tempDir(), 'bot.db');
    writeJournal(file);
    const r = await run(['status', '--journal', file, '--run', 'run-1', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out) as Record<string, unknown>;
    expect(s).toMatchObject({ runId: 'run-1', state: 'running', counts: { orders: 2, fills: 1 }, strategies: [{ name: 's1', positions: [{ quantity: '0.002', unrealisedPnl: '-2.9' }], unrealisedPnl: '-2.9' }] });
  });

  it('takes the journal from $HALYARD_JOURNAL', async () => {
    const file = join(tempDir(), 'bot.db');
    writeJournal(file);
    const r = await run(['status', '--json'], { HALYARD_JOURNAL: file });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ runId: 'run-1' });
  });

  it('bad input: a missing file, a journal without a live run, an unknown run id, a directory: exit 2 saying which', async () => {
    const dir = tempDir();
    const missing = await run(['status', '--journal', join(dir, 'nope.db')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`no journal at ${join(dir, 'nope.db')}`);

    const empty = join(dir, 'empty.db');
    openJournal(empty).close();
    const none = await run(['status', '--journal', empty]);
    expect(none.code).toBe(2);
    expect(none.err).toContain(`journal ${empty} holds no live or sandbox run`);

    const file = join(dir, 'bot.db');
    writeJournal(file);
    const unknown = await run(['status', '--journal', file, '--run', 'run-9']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('has no live run "run-9"; its live runs: run-1');

    const isDir = await run(['status', '--journal', dir]);
    expect(isDir.code).toBe(2);
    expect(isDir.err).toMatch(/directory/);
    expect(missing.out + none.out + unknown.out + isDir.out).toBe('');
  });
});
