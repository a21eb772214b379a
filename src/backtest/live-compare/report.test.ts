/** The comparison's terminal text and HTML page: both sides and every difference with its verdict, the journal's text escaped. */
import { describe, expect, it } from 'vitest';
import { formatComparison } from './format.ts';
import { renderComparison } from './report.ts';
import type { LiveComparison, Trade } from './types.ts';

const T0 = Date.parse('2024-03-13T10:00:00Z');
const trade = (cid: string, t: number, price: string): Trade => ({
  strategy: 's',
  symbol: 'BTCPHP',
  clientOrderId: cid,
  tag: 'entry',
  side: 'BUY',
  type: 'MARKET',
  origQty: '0.001',
  status: 'FILLED',
  placedAt: t,
  fills: [{ time: t, price, qty: '0.001', quoteQty: String(Number(price) / 1000), commission: '0.000001', commissionAsset: 'BTC', isMaker: false }],
});

const comparison: LiveComparison = {
  journal: '/tmp/j.db',
  runId: 'run-1',
  runKind: 'sandbox',
  startedAt: T0,
  endedAt: T0 + 3_600_000,
  exitReason: 'stopped',
  strategies: [
    {
      strategy: '<b>s</b>',
      params: { fast: 3 },
      symbols: ['BTCPHP'],
      interval: '1m',
      from: T0,
      to: T0 + 3_600_000,
      bars: 60,
      historyBars: 7,
      fees: { maker: '0.001', taker: '0.001' },
      feesFrom: 'the rates the live fills paid',
      balances: { PHP: '100000', BTC: '0' },
      balancesFrom: '--balance',
      fillModel: { marketFill: 'next-open', slippageBps: 0, limitFill: 'through', volumeShare: null },
      notes: [],
      pairs: [
        {
          strategy: 's',
          symbol: 'BTCPHP',
          live: trade('a', T0 + 60_250, '100.7'),
          backtest: trade('a', T0 + 60_000, '100.5'),
          pairedBy: 'client-order-id',
          differences: [{ kind: 'price', detail: 'live 100.7 vs backtest 100.5', explanation: { rule: 'market-next-open', text: 'at the <open>' } }],
        },
        { strategy: 's', symbol: 'BTCPHP', backtest: trade('c', T0 + 300_000, '101'), differences: [{ kind: 'missing-live', detail: 'backtest BUY', unexplained: 'the live strategy did not place it' }] },
      ],
    },
  ],
};

describe('live against backtest: text and report', () => {
  it('the terminal lists each trade with a difference, its verdict, and the count of unexplained ones', () => {
    const text = formatComparison(comparison).join('\n');
    expect(text).toContain('Live against backtest: run run-1 (sandbox), 2024-03-13 10:00 UTC -> 2024-03-13 11:00 UTC, stopped');
    expect(text).toContain('Trades     1 live, 2 backtest, 1 paired; 2 differences, 1 unexplained, the rest explained (market-next-open 1)');
    expect(text).toContain('#1 2024-03-13 10:01 UTC BTCPHP [entry]: live BUY 0.001 @ 100.7 | backtest BUY 0.001 @ 100.5');
    expect(text).toContain('-> explained (market-next-open): at the <open>');
    expect(text).toContain('#2 2024-03-13 10:05 UTC BTCPHP [entry]: live - | backtest BUY 0.001 @ 101');
    expect(text).toContain('-> UNEXPLAINED: the live strategy did not place it');
    expect(text).toContain('1 of the 2 differences are not explained by the fill model');
  });

  it('the page marks explained and unexplained rows, links the first unexplained one, and escapes what it shows', () => {
    const html = renderComparison(comparison);
    expect(html).toContain('&#60;b&#62;s&#60;/b&#62;');
    expect(html).not.toContain('<b>s</b>');
    expect(html).toContain('at the &#60;open&#62;');
    expect(html).toContain('data-unexplained="1"');
    expect(html).toContain('<tr class="explained">');
    expect(html).toContain('<tr class="unexplained" id="strategy-1-first-unexplained">');
    expect(html).toContain('href="#strategy-1-first-unexplained"');
    expect(html).toContain('2024-03-13 10:01:00.250 UTC');
  });
});
