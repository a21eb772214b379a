/**
 * The treasury planner (issue 23 deliverable 2): balances + prices + policy -> the moves that bring
 * every account inside its bands, and what stays outside and why. Pure and deterministic: the same
 * inputs give the same plan, ids included (ids.ts). Nothing is sent here.
 *
 * The master is the hub (only its key converts, spec 4.6; the feeds run through it, schema.ts):
 *   1. each sub-account is allocated on its own (allocate.ts): what it lacks comes from the master
 *      if the master feeds it, what it holds above its band goes to the master if it feeds it (or
 *      all of its free balances, `sweep`: one fund collection when every sub-account sweeps);
 *   2. the master, counting what arrives and what it owes, first takes what it lacks from the
 *      sub-accounts that feed it (their free balances above their own bands: a transfer costs
 *      nothing), then pays out what the payouts say (never for the bot: `internalOnly`), then
 *      converts: out-of-band assets to their targets, the cash asset taking up the rest; a
 *      conversion's source is raised by the slippage guard so the target lands inside its band
 *      even at the worst price `apply` accepts;
 *   3. the limits: a move above `maxPerMove` (or the pair's maxSourceAmount) is split, `maxPerDay`
 *      caps what moves per asset (counting `movedToday`), dust under `minMoveValue` is dropped,
 *      and each move is cut to what its account will hold then (so the moves always add up).
 * Order: sub -> master transfers, conversions, master -> sub transfers, payouts.
 * Afterwards the moves are applied to a model (model.ts) and every band still broken is listed in
 * `unresolved` with its reason. Bands that cannot hold at all at the accounts' equity throw
 * PlanConflictError before any move is planned: bad input, named.
 */
import { D, type Dec } from '../../core/money/decimal.ts';
import { MASTER, type AccountRef, type Move, type Plan } from '../moves.ts';
import { feedsOf, type AccountPolicy, type TreasuryPolicy } from '../policy/schema.ts';
import { allocate, equityTarget, rangeAt, type Slot } from './allocate.ts';
import { bandText, equityOf, rangeOf, total, violations } from './bands.ts';
import { clientIdOf, planIdOf, type IdKind } from './ids.ts';
import { applyMoves } from './model.ts';
import type { BandIssue, Balances, ConvertPairTerms, PlanInput } from './types.ts';

export class PlanConflictError extends Error {
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`the treasury bands cannot all hold:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'PlanConflictError';
    this.issues = issues;
  }
}

export interface PlanResult {
  plan: Plan;
  /** Bands broken before the moves. */
  before: BandIssue[];
  /** The balances the moves should leave (at the valuation prices). */
  after: Balances;
}

/** Transfers and payouts carry 8 decimals (the venue's finest for these assets); conversions the pair's precision. */
const PLACES = 8;

/** A move before its client id (distributed over the union, so each kind keeps its fields). */
type Unplaced = Move extends infer M ? (M extends Move ? Omit<M, 'clientId'> : never) : never;

type Draft =
  | { kind: 'transfer'; from: AccountRef; to: AccountRef; asset: string; amount: Dec; reason: string; stage: number }
  | { kind: 'convert'; from: string; to: string; amount: Dec; reason: string; stage: number; pair: ConvertPairTerms | undefined }
  | { kind: 'collect'; reason: string; stage: number }
  | { kind: 'payout'; asset: string; amount: Dec; destination: string; reason: string; stage: number };

export function planTreasury(input: PlanInput): PlanResult {
  const { policy, balances } = input;
  const price = (a: string): Dec | undefined => (input.prices[a] === undefined ? undefined : new D(input.prices[a] as string));
  const frozen = input.frozen ?? new Map<string, string>();
  const notes = new Map<string, string>();
  const note = (account: string, asset: string, reason: string) => {
    const k = `${account}\u0000${asset}`;
    if (!notes.has(k)) notes.set(k, reason);
  };
  checkConflicts(policy, balances, input.prices);
  const feeds = feedsOf(policy);
  const feedsEdge = (from: string, to: string) => feeds.some((f) => f.from === from && f.to === to);
  const drafts: Draft[] = [];
  const subs = Object.keys(policy.accounts).filter((a) => a !== MASTER).sort();

  // ---- 1. sub-accounts on their own
  const owed = new Map<string, Dec>(); // asset -> what the master sends out to sub-accounts
  const arriving = new Map<string, Dec>(); // asset -> what sub-accounts send the master
  const subAfter = new Map<string, Map<string, Dec>>(); // sub -> asset -> free after its own moves
  const sweeping: string[] = [];
  for (const sub of subs) {
    const a = policy.accounts[sub] as AccountPolicy;
    const holdings = balances[sub] ?? {};
    const free = new Map(Object.entries(holdings).map(([k, h]) => [k, new D(h.free)]));
    subAfter.set(sub, free);
    const toMaster = feedsEdge(sub, MASTER);
    const fromMaster = feedsEdge(MASTER, sub);
    if (a.sweep) {
      if (!toMaster) {
        note(sub, '*', 'sweep: this sub-account does not feed the master (feeds)');
        continue;
      }
      sweeping.push(sub);
      for (const [asset, f] of [...free].sort(([x], [y]) => x.localeCompare(y))) {
        if (!f.gt(0) || frozen.has(asset)) continue;
        drafts.push({ kind: 'transfer', from: sub, to: MASTER, asset, amount: f, reason: `${sub} sweeps its free balances to the master`, stage: 1 });
        add(arriving, asset, f);
        free.set(asset, new D(0));
      }
      continue;
    }
    const cashAsset = a.cash ?? policy.valuation;
    const slots = slotsOf(holdings, a, cashAsset, price, frozen, sub, note);
    const equity = equityOf(holdings, input.prices);
    const target = equityTarget(slots, equity, fromMaster, toMaster);
    const alloc = allocate(slots, target, cashAsset);
    for (const i of alloc.issues) note(sub, i.asset, i.reason);
    for (const s of slots) {
      const f = alloc.amounts.get(s.asset);
      if (f === undefined) continue;
      const delta = f.minus(s.cur);
      const why = a.assets[s.asset] === undefined ? `${s.asset} is ${sub}'s cash` : `${s.asset} ${bandText(a.assets[s.asset] as NonNullable<AccountPolicy['assets'][string]>)}`;
      if (delta.lt(0)) {
        const amount = D.min(delta.abs().toDecimalPlaces(PLACES, D.ROUND_UP), free.get(s.asset) ?? new D(0));
        if (!amount.gt(0)) continue;
        if (!toMaster) {
          note(sub, s.asset, `${amount.toFixed()} above its band, but ${sub} does not feed the master (feeds)`);
          continue;
        }
        drafts.push({ kind: 'transfer', from: sub, to: MASTER, asset: s.asset, amount, reason: `${sub} holds ${s.cur.toFixed()} ${s.asset} (${why}): ${amount.toFixed()} to the master`, stage: 1 });
        add(arriving, s.asset, amount);
        free.set(s.asset, (free.get(s.asset) ?? new D(0)).minus(amount));
      } else if (delta.gt(0)) {
        const amount = delta.toDecimalPlaces(PLACES, D.ROUND_UP);
        if (!fromMaster) {
          note(sub, s.asset, `needs ${amount.toFixed()} more, but the master does not feed ${sub} (feeds)`);
          continue;
        }
        drafts.push({ kind: 'transfer', from: MASTER, to: sub, asset: s.asset, amount, reason: `${sub} holds ${s.cur.toFixed()} ${s.asset} (${why}): ${amount.toFixed()} from the master`, stage: 3 });
        add(owed, s.asset, amount);
      }
    }
  }

  // ---- 2. the master
  const mp = policy.accounts[MASTER];
  const mHold = balances[MASTER] ?? {};
  const B = new Map<string, Dec>(); // what the master holds once the sub-accounts' moves are counted
  const freeB = new Map<string, Dec>(); // its free part when the conversions run (before paying sub-accounts)
  for (const asset of new Set([...Object.keys(mHold), ...arriving.keys(), ...owed.keys(), ...Object.keys(mp?.assets ?? {}), mp?.cash ?? policy.valuation])) {
    B.set(asset, total(mHold[asset]).plus(arriving.get(asset) ?? 0).minus(owed.get(asset) ?? 0));
    freeB.set(asset, new D(mHold[asset]?.free ?? 0).plus(arriving.get(asset) ?? 0));
  }
  const mCash = mp?.cash ?? policy.valuation;
  const mPolicy: AccountPolicy = mp ?? { assets: {}, sweep: false };
  const equityB = () => [...B].reduce((v, [a, x]) => (price(a) === undefined ? v : v.plus(x.times(price(a) as Dec))), new D(0));

  // 2a. what the master lacks, from the sub-accounts that feed it
  {
    const slots = masterSlots();
    const eq = equityB();
    for (const s of slots) {
      const r = rangeAt(s, eq);
      if (!s.cur.lt(r.lo) || r.lo.gt(r.hi)) continue;
      let want = D.max(r.target ?? r.lo, r.lo).minus(s.cur);
      for (const sub of subs) {
        if (!want.gt(0)) break;
        if (!feedsEdge(sub, MASTER) || frozen.has(s.asset)) continue;
        const slack = slackOf(sub, s.asset);
        const amount = D.min(slack, want.toDecimalPlaces(PLACES, D.ROUND_UP));
        if (!amount.gt(0)) continue;
        drafts.push({ kind: 'transfer', from: sub, to: MASTER, asset: s.asset, amount, reason: `the master lacks ${s.asset} (${s.asset === mCash && mPolicy.assets[s.asset] === undefined ? 'owed to sub-accounts' : bandText(mPolicy.assets[s.asset] ?? {})}): ${amount.toFixed()} from ${sub}, which feeds it`, stage: 1 });
        B.set(s.asset, (B.get(s.asset) ?? new D(0)).plus(amount));
        freeB.set(s.asset, (freeB.get(s.asset) ?? new D(0)).plus(amount));
        const sf = subAfter.get(sub) as Map<string, Dec>;
        sf.set(s.asset, (sf.get(s.asset) ?? new D(0)).minus(amount));
        want = want.minus(amount);
      }
    }
  }

  // 2b. payouts: money that leaves (approval at apply; never from the bot)
  if (input.internalOnly !== true) {
    for (const p of policy.payouts) {
      const have = freeB.get(p.asset) ?? new D(0);
      const excess = have.minus(owed.get(p.asset) ?? 0).minus(p.above);
      if (!excess.gt(0)) continue;
      const amount = excess.toDecimalPlaces(PLACES, D.ROUND_DOWN);
      drafts.push({ kind: 'payout', asset: p.asset, amount, destination: p.destination, reason: `the master holds more than ${p.above} ${p.asset}: ${amount.toFixed()} to ${p.destination} (needs --approve)`, stage: 4 });
      B.set(p.asset, (B.get(p.asset) ?? new D(0)).minus(amount));
      freeB.set(p.asset, have.minus(amount));
    }
  }

  // 2c. the master's allocation, and the conversions that reach it
  {
    const slots = masterSlots();
    const alloc = allocate(slots, equityB(), mCash);
    for (const i of alloc.issues) note(MASTER, i.asset, i.reason);
    const sources: { asset: string; value: Dec }[] = [];
    const targets: { asset: string; value: Dec }[] = [];
    for (const s of slots) {
      const f = alloc.amounts.get(s.asset);
      if (f === undefined) continue;
      const d = f.minus(s.cur);
      if (d.lt(0)) sources.push({ asset: s.asset, value: d.abs().times(s.price) });
      else if (d.gt(0)) targets.push({ asset: s.asset, value: d.times(s.price) });
    }
    const slip = new D(1).plus(new D(policy.convert.slippageBps).div(10_000));
    const pairOf = (from: string, to: string): ConvertPairTerms | undefined | false => {
      if (input.pairs === undefined) return undefined;
      return input.pairs.find((p) => p.source === from && p.target === to) ?? false;
    };
    for (const t of targets.sort((x, y) => x.asset.localeCompare(y.asset))) {
      for (const s of sources.sort((x, y) => x.asset.localeCompare(y.asset))) {
        if (!t.value.gt(0)) break;
        if (!s.value.gt(0)) continue;
        const x = D.min(t.value, s.value);
        const ps = price(s.asset) as Dec;
        const pt = price(t.asset) as Dec;
        const direct = pairOf(s.asset, t.asset);
        const role = (asset: string) => (mPolicy.assets[asset] !== undefined ? bandText(mPolicy.assets[asset]) : asset === mCash ? 'the cash asset' : 'owed to sub-accounts');
        const reason = `master: ${s.asset} -> ${t.asset}, ${x.toSignificantDigits(10).toFixed()} ${policy.valuation} worth (${s.asset}: ${role(s.asset)}; ${t.asset}: ${role(t.asset)})`;
        if (direct !== false) {
          drafts.push({ kind: 'convert', from: s.asset, to: t.asset, amount: x.div(ps).times(slip), reason, stage: 2, pair: direct });
        } else {
          const v = policy.valuation;
          const first = s.asset === v ? false : pairOf(s.asset, v);
          const second = t.asset === v ? false : pairOf(v, t.asset);
          if (first === false || second === false) continue;
          drafts.push({ kind: 'convert', from: s.asset, to: v, amount: x.div(ps).times(slip), reason: `${reason} (via ${v}: no ${s.asset}->${t.asset} pair)`, stage: 2, pair: first });
          drafts.push({ kind: 'convert', from: v, to: t.asset, amount: x.times(slip).div(price(v) as Dec), reason: `${reason} (via ${v})`, stage: 2, pair: second });
        }
        s.value = s.value.minus(x);
        t.value = t.value.minus(x);
        void pt;
      }
      if (t.value.gt(0)) note(MASTER, t.asset, `no convert pair from an asset with room to sell reaches ${t.asset}`);
    }
  }

  // ---- 3. collection, limits, ids
  const useCollect = sweeping.length > 0 && Object.keys(balances).filter((a) => a !== MASTER && Object.values(balances[a] ?? {}).some((h) => new D(h.free).gt(0))).every((a) => sweeping.includes(a));
  let ordered = drafts.map((d, i) => ({ d, i })).sort((a, b) => a.d.stage - b.d.stage || a.i - b.i).map((x) => x.d);
  if (useCollect) {
    ordered = ordered.filter((d) => !(d.kind === 'transfer' && d.stage === 1 && sweeping.includes(d.from) && d.reason.includes('sweeps')));
    ordered.unshift({ kind: 'collect', reason: `fund collection: ${sweeping.join(', ')} sweep their free balances to the master`, stage: 1 });
  }
  const moves = finish(ordered, input, note);
  const planId = planIdOf({ balances, prices: input.prices, policy, asOf: input.asOf, pairs: input.pairs, movedToday: input.movedToday, internalOnly: input.internalOnly === true, frozen: [...frozen.keys()].sort() });
  const withIds = moves.map((m, i) => ({ ...m, clientId: clientIdOf(planId, m.kind as IdKind, i) }) as Move);
  const after = applyMoves(balances, withIds, input.prices);
  const left = violations(policy, after, input.prices);
  const unresolved = left.map((v) => ({ account: v.account, asset: v.asset, reason: notes.get(`${v.account}\u0000${v.asset}`) ?? (frozen.has(v.asset) ? `left alone: ${frozen.get(v.asset)}` : `still outside its band after the moves: ${v.reason}`) }));
  for (const [k, reason] of notes) {
    const [account, asset] = k.split('\u0000') as [string, string];
    if (!unresolved.some((u) => u.account === account && u.asset === asset) && /cap|limit|maxPerDay|minimum|dust/.test(reason)) unresolved.push({ account, asset, reason });
  }
  return { plan: { asOf: input.asOf, id: planId, moves: withIds, unresolved }, before: violations(policy, balances, input.prices), after };

  // ---- helpers (closures over the state above)
  function masterSlots(): Slot[] {
    const slots: Slot[] = [];
    for (const [asset, cur] of [...B].sort(([x], [y]) => x.localeCompare(y))) {
      const p = price(asset);
      const band = mPolicy.assets[asset];
      if (p === undefined) {
        if (band !== undefined || asset === mCash) note(MASTER, asset, `no price for ${asset} in ${policy.valuation}`);
        continue;
      }
      const locked = new D(mHold[asset]?.locked ?? 0);
      if (frozen.has(asset)) {
        if (band !== undefined) note(MASTER, asset, `left alone: ${frozen.get(asset)}`);
        slots.push({ asset, price: p, cur, locked, kind: 'fixed' });
      } else if (asset === mCash) slots.push({ asset, price: p, cur, locked, kind: 'cash', ...(band ? { band } : {}) });
      else if (band !== undefined) slots.push({ asset, price: p, cur, locked, kind: 'band', band });
      else slots.push({ asset, price: p, cur, locked, kind: 'fixed' });
    }
    return slots;
  }

  /** What a feeding sub-account can give of `asset` and stay inside its own band. */
  function slackOf(sub: string, asset: string): Dec {
    const a = policy.accounts[sub] as AccountPolicy;
    const free = subAfter.get(sub)?.get(asset) ?? new D(0);
    const band = a.assets[asset];
    if (band === undefined) return asset === (a.cash ?? policy.valuation) ? D.max(free, 0) : new D(0);
    if (band.target !== undefined) return new D(0);
    return D.max(free.minus(band.min ?? 0), 0);
  }
}

function slotsOf(holdings: Balances[string], a: AccountPolicy, cashAsset: string, price: (a: string) => Dec | undefined, frozen: ReadonlyMap<string, string>, account: string, note: (account: string, asset: string, reason: string) => void): Slot[] {
  const slots: Slot[] = [];
  for (const asset of [...new Set([...Object.keys(holdings), ...Object.keys(a.assets), cashAsset])].sort()) {
    const p = price(asset);
    const band = a.assets[asset];
    if (p === undefined) {
      if (band !== undefined || asset === cashAsset) note(account, asset, `no price for ${asset}`);
      continue;
    }
    const cur = total(holdings[asset]);
    const locked = new D(holdings[asset]?.locked ?? 0);
    if (frozen.has(asset)) slots.push({ asset, price: p, cur, locked, kind: 'fixed' });
    else if (asset === cashAsset) slots.push({ asset, price: p, cur, locked, kind: 'cash', ...(band ? { band } : {}) });
    else if (band !== undefined) slots.push({ asset, price: p, cur, locked, kind: 'band', band });
    else slots.push({ asset, price: p, cur, locked, kind: 'fixed' });
  }
  return slots;
}

function add(m: Map<string, Dec>, k: string, v: Dec): void {
  m.set(k, (m.get(k) ?? new D(0)).plus(v));
}

/** Bands that cannot hold at the account's equity whatever is moved inside it (bad input, before anything is planned). */
function checkConflicts(policy: TreasuryPolicy, balances: Balances, prices: Record<string, string>): void {
  const issues: string[] = [];
  for (const [account, a] of Object.entries(policy.accounts).sort(([x], [y]) => x.localeCompare(y))) {
    const holdings = balances[account] ?? {};
    const equity = equityOf(holdings, prices);
    let floors = new D(0);
    for (const [asset, band] of Object.entries(a.assets).sort(([x], [y]) => x.localeCompare(y))) {
      const p = prices[asset];
      if (p === undefined) continue;
      const r = rangeOf(band, equity, new D(p), new D(holdings[asset]?.locked ?? 0));
      if (band.target !== undefined && r.lo.gt(r.hi)) {
        issues.push(`accounts.${account}.assets.${asset}: ${bandText(band)} cannot hold at this equity (${equity.toSignificantDigits(12).toFixed()} ${policy.valuation}): it needs at least ${r.lo.toSignificantDigits(12).toFixed()} and allows at most ${r.hi.toSignificantDigits(12).toFixed()}`);
      }
      if (band.target !== undefined) floors = floors.plus(r.lo.times(p));
      else if (band.min !== undefined) floors = floors.plus(new D(band.min).times(p));
    }
    const fed = feedsOf(policy).some((f) => f.to === account);
    if (!fed && equity.gt(0) && floors.gt(equity)) issues.push(`accounts.${account}: its bands need ${floors.toSignificantDigits(12).toFixed()} ${policy.valuation} and it holds ${equity.toSignificantDigits(12).toFixed()}; nothing feeds it`);
  }
  if (issues.length > 0) throw new PlanConflictError(issues);
}

/**
 * Limits and arithmetic on the ordered drafts: splits (maxPerMove, the pair's max), per-day caps,
 * dust, rounding to the pair's precision, and each amount cut to what its account holds free at
 * that point (in a running model), so the moves always add up.
 */
function finish(drafts: readonly Draft[], input: PlanInput, note: (account: string, asset: string, reason: string) => void): Unplaced[] {
  const { policy } = input;
  const out: Unplaced[] = [];
  const freeOf = new Map<string, Dec>();
  const key = (account: string, asset: string) => `${account}\u0000${asset}`;
  for (const [account, hs] of Object.entries(input.balances)) for (const [asset, h] of Object.entries(hs)) freeOf.set(key(account, asset), new D(h.free));
  const bump = (account: string, asset: string, by: Dec) => freeOf.set(key(account, asset), (freeOf.get(key(account, asset)) ?? new D(0)).plus(by));
  const today = new Map(Object.entries(input.movedToday ?? {}).map(([a, v]) => [a, new D(v)]));
  const minValue = policy.limits.minMoveValue === undefined ? undefined : new D(policy.limits.minMoveValue);
  const valueOf = (asset: string, amount: Dec) => (input.prices[asset] === undefined ? undefined : amount.times(input.prices[asset] as string));

  for (const d of drafts) {
    if (d.kind === 'collect') {
      out.push({ kind: 'collect', reason: d.reason });
      for (const [k, v] of [...freeOf]) {
        const [account, asset] = k.split('\u0000') as [string, string];
        if (account !== MASTER && v.gt(0)) {
          bump(MASTER, asset, v);
          freeOf.set(k, new D(0));
        }
      }
      continue;
    }
    const account = d.kind === 'transfer' ? d.from : MASTER;
    const asset = d.kind === 'convert' ? d.from : d.asset;
    const pair = d.kind === 'convert' ? d.pair : undefined;
    const places = pair?.precision ?? PLACES;
    let amount = D.min(d.amount, freeOf.get(key(account, asset)) ?? new D(0)).toDecimalPlaces(places, D.ROUND_DOWN);
    if (d.kind === 'convert' && d.amount.lte(freeOf.get(key(account, asset)) ?? 0)) amount = d.amount.toDecimalPlaces(places, D.ROUND_UP);
    const dayCap = policy.limits.maxPerDay[asset];
    if (dayCap !== undefined) {
      const room = D.max(new D(dayCap).minus(today.get(asset) ?? 0), 0);
      if (amount.gt(room)) {
        note(d.kind === 'transfer' ? (d.to === MASTER ? d.from : d.to) : MASTER, d.kind === 'convert' ? d.to : asset, `the daily limit on ${asset} (${dayCap}) leaves ${room.toFixed()} of the ${amount.toFixed()} this needs`);
        amount = room.toDecimalPlaces(places, D.ROUND_DOWN);
      }
    }
    if (!amount.gt(0)) continue;
    const v = valueOf(asset, amount);
    if (minValue !== undefined && v !== undefined && v.lt(minValue)) continue;
    if (pair?.minSourceAmount !== undefined && amount.lt(pair.minSourceAmount)) {
      const min = new D(pair.minSourceAmount);
      if (min.lte(freeOf.get(key(account, asset)) ?? 0)) amount = min;
      else {
        note(MASTER, d.kind === 'convert' ? d.to : asset, `a ${asset}->${d.kind === 'convert' ? d.to : ''} conversion of ${amount.toFixed()} is below the pair's minimum ${pair.minSourceAmount}`);
        continue;
      }
    }
    today.set(asset, (today.get(asset) ?? new D(0)).plus(amount));
    const caps = [policy.limits.maxPerMove[asset], pair?.maxSourceAmount].filter((c): c is string => c !== undefined).map((c) => new D(c));
    const chunk = caps.length === 0 ? amount : D.min(...caps);
    let left = amount;
    while (left.gt(0)) {
      const part = D.min(left, chunk);
      left = left.minus(part);
      bump(account, asset, part.neg());
      switch (d.kind) {
        case 'transfer':
          out.push({ kind: 'transfer', from: d.from, to: d.to, asset, amount: part.toFixed(), reason: d.reason });
          bump(d.to, asset, part);
          break;
        case 'convert': {
          out.push({ kind: 'convert', account: MASTER, from: d.from, to: d.to, sourceAmount: part.toFixed(), reason: d.reason });
          const ps = input.prices[d.from];
          const pt = input.prices[d.to];
          // The running model credits the target at the worst price apply accepts (the slippage guard).
          if (ps !== undefined && pt !== undefined) bump(MASTER, d.to, part.times(ps).div(pt).times(new D(1).minus(new D(policy.convert.slippageBps).div(10_000))));
          break;
        }
        case 'payout': {
          const dest = policy.destinations[d.destination];
          if (dest?.kind === 'withdraw') {
            out.push({ kind: 'withdraw', coin: dest.coin, network: dest.network, address: dest.address, ...(dest.addressTag !== undefined ? { addressTag: dest.addressTag } : {}), amount: part.toFixed(), destination: d.destination, reason: d.reason });
          } else if (dest?.kind === 'cash-out') {
            const extendInfo = Object.fromEntries(
              (['recipientName', 'recipientAccountNumber', 'recipientAddress', 'remarks'] as const).filter((k) => dest[k] !== undefined).map((k) => [k, dest[k] as string]),
            );
            out.push({ kind: 'cash-out', currency: dest.currency, amount: part.toFixed(), channelName: dest.channelName, channelSubject: dest.channelSubject, ...(Object.keys(extendInfo).length > 0 ? { extendInfo } : {}), destination: d.destination, reason: d.reason });
          }
          break;
        }
      }
      if (caps.length === 0) break;
    }
  }
  return out;
}
