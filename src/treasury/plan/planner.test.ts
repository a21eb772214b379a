import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MASTER, type Move } from '../moves.ts';
import { parseTreasuryPolicy } from '../policy/parse.ts';
import type { TreasuryPolicyInput } from '../policy/schema.ts';
import { violations } from './bands.ts';
import { applyMoves } from './model.ts';
import { PlanConflictError, planTreasury } from './planner.ts';
import type { Balances, PlanInput } from './types.ts';

const PRICES = { PHP: '1', BTC: '3500000', ETH: '180000', USDT: '58' };
const h = (free: string, locked = '0') => ({ free, locked });
const A = 'desk-a@example.com';
const B = 'desk-b@example.com';

function plan(policy: TreasuryPolicyInput, balances: Balances, extra: Partial<PlanInput> = {}) {
  const p = parseTreasuryPolicy(policy);
  const r = planTreasury({ policy: p, balances, prices: PRICES, asOf: 1_700_000_000_000, ...extra });
  const after = applyMoves(balances, r.plan.moves, extra.prices ?? PRICES);
  return { ...r, modelled: after, left: violations(p, after, extra.prices ?? PRICES), policy: p };
}

describe('planTreasury', () => {
  it('converts an overweight asset back to its target on the master', () => {
    // BTC 0.2 * 3.5M = 700k of 1M equity: 70 %, band 30 +/- 5.
    const r = plan({ accounts: { master: { assets: { BTC: { target: 30, band: 5 } } } } }, { master: { BTC: h('0.2'), PHP: h('300000') } });
    expect(r.before).toEqual([{ account: MASTER, asset: 'BTC', reason: expect.stringContaining('70 %') }]);
    expect(r.plan.moves).toHaveLength(1);
    const m = r.plan.moves[0] as Extract<Move, { kind: 'convert' }>;
    expect(m).toMatchObject({ kind: 'convert', account: MASTER, from: 'BTC', to: 'PHP' });
    // 400k worth, plus the 50 bps slippage guard.
    expect(m.sourceAmount).toBe('0.11485715');
    expect(r.left).toEqual([]);
    expect(r.plan.unresolved).toEqual([]);
  });

  it('feeds a sub-account below its min from the master, and sweeps one above its max', () => {
    const r = plan(
      { accounts: { master: { assets: { PHP: { min: '10000' } } }, [A]: { assets: { PHP: { min: '20000' } } }, [B]: { assets: { PHP: { max: '50000' } } } } },
      { master: { PHP: h('30000') }, [A]: { PHP: h('5000'), BTC: h('0.01') }, [B]: { PHP: h('80000') } },
    );
    const transfers = r.plan.moves.filter((m) => m.kind === 'transfer');
    expect(transfers).toEqual([
      expect.objectContaining({ from: B, to: MASTER, asset: 'PHP', amount: '30000' }),
      expect.objectContaining({ from: MASTER, to: A, asset: 'PHP', amount: '15000' }),
    ]);
    expect(r.plan.moves.some((m) => m.kind === 'convert')).toBe(false);
    expect(r.left).toEqual([]);
  });

  it('covers what the master lacks from a sub-account that feeds it before converting anything', () => {
    const r = plan({ accounts: { master: { assets: { PHP: { min: '20000' } } }, [A]: { assets: {} } } }, { master: { PHP: h('5000'), BTC: h('1') }, [A]: { PHP: h('100000') } });
    expect(r.plan.moves).toEqual([expect.objectContaining({ kind: 'transfer', from: A, to: MASTER, asset: 'PHP', amount: '15000' })]);
    expect(r.left).toEqual([]);
  });

  it('converts when no sub-account can help, and leaves assets with orders on them alone', () => {
    const policy = { accounts: { master: { assets: { PHP: { min: '20000' }, ETH: { target: 10, band: 2 } } } } };
    const balances = { master: { PHP: h('5000'), ETH: h('2'), USDT: h('1000') } };
    // ETH 360k of 423k: far over 10 %; frozen, so the PHP comes from nowhere and both stay unresolved.
    const frozen = plan(policy, balances, { frozen: new Map([['ETH', 'orders open on ETHPHP']]) });
    expect(frozen.plan.moves.filter((m) => m.kind === 'convert' && m.from === 'ETH')).toEqual([]);
    expect(frozen.plan.unresolved).toEqual(expect.arrayContaining([{ account: MASTER, asset: 'ETH', reason: 'left alone: orders open on ETHPHP' }]));
    const free = plan(policy, balances);
    expect(free.plan.moves).toEqual([expect.objectContaining({ kind: 'convert', from: 'ETH', to: 'PHP' })]);
    expect(free.left).toEqual([]);
  });

  it('splits moves above maxPerMove and stops at maxPerDay, saying so', () => {
    const policy = { accounts: { master: { assets: {} }, [A]: { assets: { PHP: { min: '50000' } } } }, limits: { maxPerMove: { PHP: '20000' }, maxPerDay: { PHP: '60000' } } };
    const r = plan(policy, { master: { PHP: h('1000000') }, [A]: { PHP: h('0') } });
    expect(r.plan.moves.map((m) => (m.kind === 'transfer' ? m.amount : '?'))).toEqual(['20000', '20000', '10000']);
    const capped = plan(policy, { master: { PHP: h('1000000') }, [A]: { PHP: h('0') } }, { movedToday: { PHP: '30000' } });
    expect(capped.plan.moves.map((m) => (m.kind === 'transfer' ? m.amount : '?'))).toEqual(['20000', '10000']);
    expect(capped.plan.unresolved).toEqual([{ account: A, asset: 'PHP', reason: 'the daily limit on PHP (60000) leaves 30000 of the 50000 this needs' }]);
  });

  it('plans payouts only when the policy has them, never for the bot, with deterministic ids', () => {
    const policy: TreasuryPolicyInput = {
      accounts: { master: { assets: { PHP: { min: '10000' } } } },
      destinations: { bank: { kind: 'cash-out', currency: 'PHP', channelName: 'INSTAPAY', channelSubject: 'BPI', recipientName: 'Ops' } },
      payouts: [{ asset: 'PHP', above: '100000', destination: 'bank' }],
    };
    const balances = { master: { PHP: h('250000') } };
    const r = plan(policy, balances);
    expect(r.plan.moves).toEqual([expect.objectContaining({ kind: 'cash-out', amount: '150000', channelName: 'INSTAPAY', destination: 'bank', extendInfo: { recipientName: 'Ops' } })]);
    expect(r.plan.moves[0]?.clientId).toMatch(/^1\d{18}$/);
    expect(plan(policy, balances).plan).toEqual(r.plan);
    expect(plan(policy, balances, { internalOnly: true }).plan.moves).toEqual([]);
  });

  it('uses one fund collection when every sub-account with money sweeps', () => {
    const r = plan({ accounts: { [A]: { assets: {}, sweep: true }, [B]: { assets: {}, sweep: true } } }, { master: {}, [A]: { PHP: h('10') }, [B]: { BTC: h('0.1') } });
    expect(r.plan.moves).toEqual([expect.objectContaining({ kind: 'collect' })]);
    expect(r.modelled[A]?.['PHP']?.free).toBe('0');
  });

  it('uses transfers, not a fund collection, when a sub-account that does not sweep holds money (collection would take it too)', () => {
    const r = plan({ accounts: { [A]: { assets: {}, sweep: true }, [B]: { assets: {} } } }, { master: {}, [A]: { PHP: h('10') }, [B]: { BTC: h('0.1') }, 'other@example.com': { PHP: h('5') } });
    expect(r.plan.moves).toEqual([expect.objectContaining({ kind: 'transfer', from: A, to: MASTER, asset: 'PHP', amount: '10' })]);
    expect(r.modelled['other@example.com']?.['PHP']?.free).toBe('5');
  });

  it('refuses bands that cannot hold at this equity before planning anything', () => {
    // PHP 10 % +/- 5 of 100k allows at most 15k; min 20k free cannot hold with it.
    expect(() => plan({ accounts: { master: { assets: { PHP: { target: 10, band: 5, min: '20000' } } } } }, { master: { PHP: h('50000'), USDT: h('862.068965') } })).toThrow(PlanConflictError);
    try {
      plan({ accounts: { master: { assets: { PHP: { target: 10, band: 5, min: '20000' } } } } }, { master: { PHP: h('50000'), USDT: h('862.068965') } });
    } catch (e) {
      expect((e as PlanConflictError).issues[0]).toMatch(/^accounts\.master\.assets\.PHP: 10 % \+\/- 5, at least 20000 free cannot hold at this equity/);
    }
  });

  it('property: master + two sub-accounts, any balances: the moves bring every account inside its bands', () => {
    const amount = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n / 100));
    fc.assert(
      fc.property(
        fc.record({
          btcT: fc.integer({ min: 5, max: 40 }),
          btcB: fc.integer({ min: 1, max: 5 }),
          ethT: fc.integer({ min: 5, max: 40 }),
          ethB: fc.integer({ min: 1, max: 5 }),
          minA: fc.integer({ min: 1, max: 50_000 }),
          maxB: fc.integer({ min: 1, max: 80_000 }),
          mBtc: amount(100),
          mEth: amount(1000),
          mPhp: fc.integer({ min: 2_000_000, max: 9_000_000 }).map(String),
          aPhp: amount(5_000_000),
          aBtc: amount(50),
          bPhp: amount(10_000_000),
          locked: amount(100_000),
        }),
        (x) => {
          const policy = {
            accounts: {
              master: { assets: { BTC: { target: x.btcT, band: x.btcB }, ETH: { target: x.ethT, band: x.ethB }, PHP: { min: '10000' } } },
              [A]: { assets: { PHP: { min: String(x.minA) } } },
              [B]: { assets: { PHP: { max: String(x.maxB) } } },
            },
          };
          const balances = { master: { BTC: h(x.mBtc), ETH: h(x.mEth), PHP: h(x.mPhp, x.locked) }, [A]: { PHP: h(x.aPhp), BTC: h(x.aBtc) }, [B]: { PHP: h(x.bPhp) } };
          const r = plan(policy, balances);
          expect(r.plan.unresolved).toEqual([]);
          expect(r.left).toEqual([]);
          expect(new Set(r.plan.moves.map((m) => m.clientId)).size).toBe(r.plan.moves.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
