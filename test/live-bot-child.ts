/**
 * A bot process for test/live-restart.test.ts, killed with SIGKILL by the test: the order manager
 * on a LiveVenue against the sandbox the test runs, journaling to the file it is given. It places
 * three asks, says READY with their client ids once all are NEW, says FILL for each fill it sees,
 * and then waits to be killed. Arguments: baseUrl wsUrl apiKey apiSecret journalFile runId.
 */
import { createClient } from '../src/app/create-client.ts';
import { parseConfig } from '../src/config/load.ts';
import { openJournal } from '../src/journal/journal.ts';
import { liveHarness, startLive, waitFor } from '../src/live/venue/testing/live-harness.ts';

const [baseUrl, wsUrl, apiKey, apiSecret, file, runId] = process.argv.slice(2) as [string, string, string, string, string, string];
const journal = openJournal(file);
journal.liveRuns.begin({ id: runId, kind: 'sandbox', strategies: [{ name: 's1' }], config: {}, startedAt: Date.now() });
const client = createClient({ baseUrl, exchange: parseConfig({ exchange: { retry: { maxAttempts: 1 } } }).exchange, secrets: { apiKey, apiSecret } }).client;
const h = await liveHarness({ wsUrl, clock: { now: () => Date.now() } }, { runId, journal, client });
await startLive(h);
const ask = (price: string, tag: string) => ({ kind: 'place', symbol: 'BTCPHP', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price, tag }) as const;
const cids = h.submit(ask('3000000', 'x'), ask('3010000', 'y'), ask('3020000', 'z'));
await h.venue.idle();
await waitFor(() => cids.every((c) => h.om.orders.get(c)?.status === 'NEW'), 10_000, 'orders NEW');
process.stdout.write(`READY ${JSON.stringify(cids)}\n`);
let told = 0;
setInterval(() => {
  while (told < h.fills.length) process.stdout.write(`FILL ${h.fills[told++]?.tradeId ?? ''}\n`);
}, 5);
