/**
 * Client per-request overhead (issue "Foundation", acceptance): check parameters, compute the weight,
 * charge the ledger, stamp, encode and sign a new-order request, against a bare HMAC-SHA256 of the
 * same query string. Target: under 20 microseconds per signed request.
 */
import { createHmac } from 'node:crypto';
import { buildRequest } from '../src/exchange/client/request-builder.ts';
import { newOrder } from '../src/exchange/endpoints/areas/spot.ts';
import { checkParams } from '../src/exchange/params/check-params.ts';
import { chargesFor } from '../src/exchange/rate/weights.ts';
import { WeightBudget } from '../src/exchange/rate/weight-budget.ts';
import { buildLedgerConfig } from '../src/exchange/rate/pool-config.ts';
import { WeightLedger } from '../src/core/risk/weight-ledger.ts';
import { VirtualClock } from '../src/time/virtual-clock.ts';
import { measure, measureSync, row } from './harness.ts';

const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const params = { symbol: 'BTCPHP', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.0123', price: '3150000.5' } as const;
const ctx = { baseUrl: 'http://127.0.0.1:1', apiKeyHeader: 'X-SERVICE-APIKEY', credentials: { apiKey: 'k', apiSecret: SECRET }, recvWindow: 5000 };
const huge = { pools: { IP: { limit: 1e12, windowMs: 60_000 }, UID: { limit: 1e12, windowMs: 60_000 }, ORDERS: { limit: 1e12, windowMs: 10_000 } } };

export async function run(): Promise<string[]> {
  const N = 100_000;
  const query = 'symbol=BTCPHP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.0123&price=3150000.5&recvWindow=5000&timestamp=1538323200000';
  const baseline = measureSync('bare HMAC-SHA256 of the same query string', N, () => createHmac('sha256', SECRET).update(query).digest('hex'));

  const ledger = new WeightLedger(buildLedgerConfig(huge));
  let t = 0;
  const sync = measureSync('check + weight + ledger + build + sign (sync path)', N, () => {
    const checked = checkParams(newOrder.params, newOrder.rules, params);
    const charges = chargesFor(newOrder, checked.values, 'spec');
    ledger.tryCharge(charges, t++);
    return buildRequest(newOrder, checked.wire, checked.values, { ...ctx, timestamp: 1538323200000 + t });
  });

  const clock = new VirtualClock(0);
  const budget = new WeightBudget({ clock, config: buildLedgerConfig(huge) });
  const full = await measure('same with the async budget (await acquire)', N, async () => {
    const checked = checkParams(newOrder.params, newOrder.rules, params);
    await budget.acquire(chargesFor(newOrder, checked.values, 'spec'));
    return buildRequest(newOrder, checked.wire, checked.values, { ...ctx, timestamp: 1538323200000 });
  });
  return ['Client per-request overhead (target < 20 us per signed request)', row(baseline), row(sync, baseline), row(full, baseline)];
}
