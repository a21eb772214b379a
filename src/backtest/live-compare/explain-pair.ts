/**
 * The differences between a live trade and its replay that both filled (fill time, fill price,
 * quantity, fees), each checked against the fill model (fill-model.ts): a MARKET order fills at
 * the next bar's open in the backtest and at the book live (rule 2), a resting LIMIT at its price
 * when the bar's path reaches it (rules 3-4), a partial fill live against the model's whole fill
 * (rule 7), the fee of the role each fill had (rule 9). A difference no rule accounts for, or one
 * whose live side contradicts the recorded bars (a price outside the bar's range, a fill more than
 * a bar after the model's), is unexplained, and says why.
 */
import { D } from '../../core/money/decimal.ts';
import { fmtMs } from './time-text.ts';
import { withinBar, limitReach, type RecordedBar } from './bars.ts';
import { explained, unexplained, type ExplainContext } from './explain-context.ts';
import type { EarlierDifference } from './explain-missing.ts';
import { deltaText, priceText, summarize, type TradeSummary } from './trade-summary.ts';
import type { Difference, Explanation, Trade } from './types.ts';

const dec = (s: string) => new D(s);

/** A difference's explanation, or the reason there is none. */
type Verdict = { explanation: Explanation } | { why: string };

const verdictDiff = (kind: Difference['kind'], detail: string, v: Verdict): Difference =>
  'explanation' in v ? explained(kind, detail, v.explanation) : unexplained(kind, detail, v.why);

export function pairDifferences(live: Trade, bt: Trade, ctx: ExplainContext, earlier?: EarlierDifference): Difference[] {
  const base = ctx.baseAsset(live.symbol);
  const sl = summarize(live, base);
  const sb = summarize(bt, base);
  const out: Difference[] = [];
  const timing = quoted(live, bt, earlier) ?? fillTiming(live, bt, sl, sb, ctx);
  if (sl.firstTime !== sb.firstTime) {
    const dt = (sl.firstTime ?? 0) - (sb.firstTime ?? 0);
    out.push(verdictDiff('time', `live ${fmtMs(sl.firstTime ?? 0)} vs backtest ${fmtMs(sb.firstTime ?? 0)} (${dt > 0 ? '+' : ''}${dt} ms)`, timing));
  }
  const priceDiffers = sl.price !== undefined && sb.price !== undefined && !sl.price.eq(sb.price);
  if (priceDiffers) out.push(verdictDiff('price', `live ${priceText(sl.price)} vs backtest ${priceText(sb.price)} (${deltaText(sl.price!, sb.price!)})`, timing));
  if (!sl.qty.eq(sb.qty)) out.push(verdictDiff('quantity', `live ${sl.qty.toFixed()} vs backtest ${sb.qty.toFixed()} (${deltaText(sl.qty, sb.qty)})`, quantityVerdict(live, bt, sl, sb, ctx, priceDiffers ? timing : undefined, earlier)));
  const fees = feeDifference(sl, sb, ctx);
  if (fees !== undefined) out.push(fees);
  return out;
}

/**
 * Two orders at different limit prices are two decisions, not one filled two ways: the strategy
 * quoted from inputs that differed (an earlier difference: knock-on), or unexplained.
 */
function quoted(live: Trade, bt: Trade, earlier: EarlierDifference | undefined): Verdict | undefined {
  if (live.limitPrice === undefined || bt.limitPrice === undefined || dec(live.limitPrice).eq(bt.limitPrice)) return undefined;
  const text = `the strategy priced the order at ${live.limitPrice} live and ${bt.limitPrice} in the backtest`;
  if (earlier === undefined) return { why: `${text}, with no earlier difference to price it from` };
  const knock = `${text}: it priced it from its position, balance or state, which differ since trade #${earlier.index}`;
  return earlier.explained ? { explanation: { rule: 'knock-on', text: knock } } : { why: `${knock}, which is unexplained` };
}

/**
 * Why the two sides filled at different times or prices. Taker fills (a MARKET order, a
 * marketable LIMIT): the model fills at the next point of the bar's path after the decision (the
 * next bar's open, rule 2), live at the book when the order arrived: explained while live filled
 * inside the bar the model filled in, within its range. Maker fills: the model fills a resting
 * LIMIT at its price when a bar's path trades through it (or touches it), at that point's time.
 */
function fillTiming(live: Trade, bt: Trade, sl: TradeSummary, sb: TradeSummary, ctx: ExplainContext): Verdict {
  const bar = ctx.bars.at(bt.symbol, sb.firstTime ?? -1);
  if (bar === undefined) return { why: `no recorded ${bt.symbol} bar holds the backtest's fill time ${fmtMs(sb.firstTime ?? 0)}` };
  const outside = live.fills.map((f) => ({ f, b: ctx.bars.at(live.symbol, f.time) })).find(({ f, b }) => b === undefined || !withinBar(b, dec(f.price)));
  if (outside !== undefined) {
    const b = outside.b;
    return { why: b === undefined ? `no recorded bar holds the live fill at ${fmtMs(outside.f.time)}` : `the live fill at ${outside.f.price} lies outside its bar's range ${b.low}-${b.high}: the recorded bars are not the market the run traded on` };
  }
  const type = live.type ?? bt.type;
  if (sl.role === 'taker' || type === 'MARKET') return takerTiming(type, bar, sl, sb, ctx);
  if (sl.role === 'maker' && sb.role === 'maker') return makerTiming(live, bar, sl, sb, ctx);
  return {
    explanation: {
      rule: 'limit-path',
      text: `the LIMIT took the market on one side (${sb.role === 'taker' ? 'backtest' : 'live'}) and rested on the other: the model meets the market only at the 4 points of each bar's path, live met the book as it was; both fills lie within their bars' ranges`,
    },
  };
}

function takerTiming(type: string | undefined, bar: RecordedBar, sl: TradeSummary, sb: TradeSummary, ctx: ExplainContext): Verdict {
  const last = sl.lastTime ?? 0;
  const first = sl.firstTime ?? 0;
  if (first < bar.openTime || last > bar.closeTime) {
    const bars = Math.round((first - bar.openTime) / Math.max(1, bar.closeTime + 1 - bar.openTime));
    return { why: `live filled ${fmtMs(first)}, ${bars >= 0 ? `${bars} bar(s) after` : `${-bars} bar(s) before`} the bar the model fills in (${fmtMs(bar.openTime)}): the model assumes the order reaches the market at the next bar's open, live took longer` };
  }
  const slip = ctx.fillModel.slippageBps > 0 ? `, moved ${ctx.fillModel.slippageBps} bps against it to ${priceText(sb.price)}` : '';
  const live = `live took the book ${first - bar.openTime} ms into that bar at ${priceText(sl.price)}, within its range ${bar.low}-${bar.high}`;
  if (type === 'MARKET') return { explanation: { rule: 'market-next-open', text: `a MARKET order fills in the backtest at the next bar's open (${bar.open} at ${fmtMs(bar.openTime)}${slip}); ${live}` } };
  return { explanation: { rule: 'limit-path', text: `a marketable ${type ?? 'LIMIT'} order fills in the backtest at once as taker at the next point of the bar's path (${priceText(sb.price)} at ${fmtMs(sb.firstTime ?? 0)}); ${live}` } };
}

function makerTiming(live: Trade, bar: RecordedBar, sl: TradeSummary, sb: TradeSummary, ctx: ExplainContext): Verdict {
  const limit = live.limitPrice;
  if (limit !== undefined && sl.price !== undefined && sb.price !== undefined && !(sl.price.eq(limit) && sb.price.eq(limit))) {
    return { why: `a resting LIMIT fills at its own price (${limit}) on both sides: live ${priceText(sl.price)}, backtest ${priceText(sb.price)}` };
  }
  const mode = ctx.fillModel.limitFill;
  const liveFirst = sl.firstTime ?? 0;
  if (limit !== undefined && liveFirst < bar.openTime) {
    const before = ctx.bars.between(live.symbol, live.placedAt ?? liveFirst, bar.openTime - 1);
    const reach = limitReach(before, live.side, limit);
    if (reach === 'touch' && mode === 'through') {
      return { explanation: { rule: 'limit-touched', text: `the price touched ${limit} before ${fmtMs(bar.openTime)} without trading through it: live filled at the touch, the model (limitFill: through) waits for a bar that trades through (${fmtMs(sb.firstTime ?? 0)})` } };
    }
    if (reach === 'through') return { why: `the bars traded through ${limit} before the backtest's fill at ${fmtMs(sb.firstTime ?? 0)}: the model should have filled it then` };
  }
  return {
    explanation: {
      rule: 'limit-path',
      text: `a resting LIMIT fills in the backtest when the bar's 4-point path reaches ${limit ?? 'its price'} (limitFill: ${mode}), at that point's time (${fmtMs(sb.firstTime ?? 0)}); live filled when a market trade reached it (${fmtMs(liveFirst)})`,
    },
  };
}

/** Why the quantities differ: a partial fill live, the model's volume cap, a quote-sized order at another price. */
function quantityVerdict(live: Trade, bt: Trade, sl: TradeSummary, sb: TradeSummary, ctx: ExplainContext, price: Verdict | undefined, earlier: EarlierDifference | undefined): Verdict {
  const asked = live.origQty ?? bt.origQty;
  if (live.origQty !== undefined && bt.origQty !== undefined && !dec(live.origQty).eq(bt.origQty)) {
    const sized = `the strategy asked for ${live.origQty} live and ${bt.origQty} in the backtest`;
    if (earlier === undefined) return { why: `${sized}, with no earlier difference to size it from` };
    const text = `${sized}: it sized the order from its position or balance, which differ since trade #${earlier.index}`;
    return earlier.explained ? { explanation: { rule: 'knock-on', text } } : { why: `${text}, which is unexplained` };
  }
  if (asked !== undefined && sl.qty.lt(asked) && sb.qty.eq(asked) && ctx.fillModel.volumeShare === null) {
    return { explanation: { rule: 'partial-fill', text: `live filled ${sl.qty.toFixed()} of ${asked} (${live.status ?? 'partly'}): the book held less at the order's price; the model fills the whole order (no volumeShare)` } };
  }
  if (asked !== undefined && sb.qty.lt(asked) && ctx.fillModel.volumeShare !== null) {
    return { explanation: { rule: 'volume-share', text: `the model capped the fills at ${ctx.fillModel.volumeShare} of the bar's volume: ${sb.qty.toFixed()} of ${asked}` } };
  }
  const quote = live.quoteOrderQty ?? bt.quoteOrderQty;
  if (quote !== undefined && price !== undefined) {
    if ('explanation' in price) return { explanation: { rule: 'quote-sized', text: `quote-sized (${quote}): the quantity is the quote over the fill price, and the prices differ (${price.explanation.rule})` } };
    return { why: `quote-sized (${quote}): the quantity follows the price, whose difference is unexplained` };
  }
  return { why: `both sides filled the order, ${sl.qty.toFixed()} live and ${sb.qty.toFixed()} in the backtest, and no fill-model rule takes part of it` };
}

/** The fee difference, when the effective rates differ (amounts that differ with the quantity or price alone are not one). */
function feeDifference(sl: TradeSummary, sb: TradeSummary, ctx: ExplainContext): Difference | undefined {
  const assetsL = [...sl.commission.keys()].sort().join(',');
  const assetsB = [...sb.commission.keys()].sort().join(',');
  const amounts = (s: TradeSummary) => [...s.commission].map(([a, v]) => `${v.toFixed()} ${a}`).join(' + ') || '0';
  const detail = `live ${amounts(sl)} vs backtest ${amounts(sb)}`;
  if (assetsL !== assetsB) return unexplained('fees', detail, `the commission was charged in ${assetsL || 'nothing'} live and ${assetsB || 'nothing'} in the backtest`);
  if (sl.feeRate === undefined || sb.feeRate === undefined) return undefined;
  const tolerance = sb.feeRate.times(0.01).plus('1e-12');
  if (sl.feeRate.minus(sb.feeRate).abs().lte(tolerance)) return undefined;
  const rates = `live ${sl.feeRate.toSignificantDigits(6).toFixed()} (${sl.role}), backtest ${sb.feeRate.toSignificantDigits(6).toFixed()} (${sb.role})`;
  if (sl.role !== sb.role) return explained('fees', `${detail}; rate ${rates}`, { rule: 'fees', text: `the fill was ${sl.role} live and ${sb.role} in the backtest: each pays its role's rate (maker ${ctx.fees.maker}, taker ${ctx.fees.taker})` });
  return unexplained('fees', `${detail}; rate ${rates}`, `the same role paid another rate: the replay's fee rates (maker ${ctx.fees.maker}, taker ${ctx.fees.taker}) are not the account's; give them with --fee`);
}
