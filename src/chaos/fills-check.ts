/**
 * Fills the venue made vs fills the journal and the strategies saw (issue 22 deliverable 2: "lost,
 * doubled"). A fill is named by (venue order id, trade id): spec 2.5 gives each account trade an
 * `id` and the `orderId` it filled, and one trade id is two account trades (buyer and seller) when
 * the account trades with itself, so the trade id alone does not name a fill.
 *
 * A journal fill without its venue order id (journaled before the order's ack) is named through its
 * client order id and the venue's orders (spec 2.4 `clientOrderId` -> `orderId`).
 */
import type { ChaosRunInput } from './input.ts';
import type { ChaosReport, DoubledFill, FillKey } from './report.ts';

const keyOf = (orderId: string, tradeId: string): string => `${orderId}\u0000${tradeId}`;
const fillOf = (key: string): FillKey => {
  const [orderId = '', tradeId = ''] = key.split('\u0000');
  return { orderId, tradeId };
};

export function checkFills(input: ChaosRunInput): ChaosReport['fills'] {
  const venueIdOf = new Map<string, string>();
  for (const o of input.venue.orders) venueIdOf.set(o.clientOrderId, o.orderId);

  const venue = new Set(input.venue.trades.map((t) => keyOf(t.orderId, t.id)));

  const journalCount = new Map<string, number>();
  for (const f of input.journal.fills) {
    const orderId = f.exchangeOrderId ?? (f.clientOrderId === null ? undefined : venueIdOf.get(f.clientOrderId));
    // Unknown at the venue by either id: kept under its client id so it shows as phantom.
    const key = keyOf(orderId ?? `client:${f.clientOrderId ?? '?'}`, f.tradeId);
    journalCount.set(key, (journalCount.get(key) ?? 0) + 1);
  }

  const seenBy = new Map<string, string[]>();
  for (const s of input.strategies) {
    for (const f of s.fills) {
      const key = keyOf(f.orderId, f.tradeId);
      const who = seenBy.get(key);
      if (who === undefined) seenBy.set(key, [s.strategy]);
      else who.push(s.strategy);
    }
  }

  const doubled: DoubledFill[] = [];
  for (const [key, times] of journalCount) if (times > 1) doubled.push({ ...fillOf(key), where: 'journal', times });
  for (const [key, who] of seenBy) if (who.length > 1) doubled.push({ ...fillOf(key), where: [...new Set(who)].join(','), times: who.length });

  return {
    venue: venue.size,
    journal: journalCount.size,
    lostFromJournal: [...venue].filter((k) => !journalCount.has(k)).map(fillOf),
    lostFromStrategies: [...venue].filter((k) => !seenBy.has(k)).map(fillOf),
    doubled,
    phantom: [...journalCount.keys()].filter((k) => !venue.has(k)).map(fillOf),
  };
}
