/**
 * Order lifecycle moves shared by placing, matching, triggering and canceling: registering an
 * accepted order, resting it on the book, and taking it off everything when it closes (book or
 * stop list, open counts, and the release of whatever it still holds locked).
 */
import { AUTO_ID_PREFIX } from './accounts/account-book.ts';
import { heldIsZero, heldScale, moveHeld } from './numbers/amounts.ts';
import type { Held } from './numbers/amounts.ts';
import type { AccountBook } from './accounts/account-book.ts';
import { orderEvent, reportResting } from './events.ts';
import type { OpContext } from './op-context.ts';
import { held } from './book/order.ts';
import type { Order } from './book/order.ts';
import type { EngineState } from './state.ts';
import type { ExecutionType, OrderStatus, OrderUpdateEvent } from './types.ts';

/** The latest order of the account and symbol with this client order id, generated ids included. */
export function latestByClientId(st: EngineState, acct: AccountBook, cid: string): Order | undefined {
  const own = acct.byClientId.get(cid);
  if (own !== undefined || !cid.startsWith(AUTO_ID_PREFIX)) return own;
  const o = st.ordersById.get(st.orderIds.position(cid.slice(AUTO_ID_PREFIX.length)));
  return o !== undefined && o.acct === acct && o.clientOrderId === cid ? o : undefined;
}

/**
 * Index an accepted order, move its funds to locked, and report it NEW. `explicitId`: the client
 * chose its id; `prev`: the latest order that used it before (admission looked it up).
 */
export function register(st: EngineState, ctx: OpContext, o: Order, lock: Held, explicitId: boolean, prev: Order | null): void {
  const acct = o.acct;
  if (!heldIsZero(lock)) {
    const e = o.isBuy ? acct.quote : acct.base;
    moveHeld(e, lock, heldScale(o.sb.spec, o.isBuy), 1);
    o.locks = true;
    ctx.touch(e);
  }
  st.ordersById.set(o);
  acct.addOpen(o);
  if (explicitId) {
    o.prevSameClientId = prev;
    acct.byClientId.set(o.clientOrderId, o);
    if (o.clientOrderId.startsWith(AUTO_ID_PREFIX)) acct.autoLikeIds++;
  }
  orderEvent(ctx, o, 'NEW', null);
}

/**
 * Put a working order with a remainder on its side of the book (maker from now on). Its NEW
 * (register, activate) and any taker fills were reported before this: reportResting brings those
 * reports up to date instead of moving them, so the event order stays NEW, fills.
 */
export function rest(ctx: OpContext, o: Order): void {
  const sb = o.sb;
  sb.side(o.isBuy).add(o);
  ctx.touchLevel(sb, o.isBuy, o.price);
  reportResting(ctx, o);
}

/**
 * Take a closing order off the book or stop list, out of the open set, and unlock what it holds.
 * Call it after the final status is set: `held` is read before, the status decides the list.
 */
export function detach(ctx: OpContext, o: Order, h: Held): void {
  const sb = o.sb;
  const acct = o.acct;
  if (o.level !== null) {
    sb.side(o.isBuy).remove(o);
    ctx.touchLevel(sb, o.isBuy, o.price);
  } else if (!o.working) {
    sb.stops.remove(o);
  }
  if (!heldIsZero(h)) {
    const e = o.isBuy ? acct.quote : acct.base;
    moveHeld(e, h, heldScale(sb.spec, o.isBuy), -1);
    ctx.touch(e);
  }
  acct.close(o);
}

/** Close an open order with a final status and report it. */
export function retire(ctx: OpContext, o: Order, status: OrderStatus, x: ExecutionType, cause: OrderUpdateEvent['cause'] = null): void {
  const h = held(o);
  o.status = status;
  o.updateTime = ctx.time;
  detach(ctx, o, h);
  orderEvent(ctx, o, x, null, cause);
}

/** Self-trade prevention cancel (spec 3.1): PARTIALLY_CANCELED when it had fills, else CANCELED. */
export function stpCancel(ctx: OpContext, o: Order): void {
  retire(ctx, o, o.executed > 0 ? 'PARTIALLY_CANCELED' : 'CANCELED', 'CANCELED', 'STP');
}

/** A stop whose trigger fired becomes a working order (it now counts for MAX_NUM_ORDERS). */
export function activate(ctx: OpContext, o: Order): void {
  o.acct.promote(o);
  o.working = true;
  o.updateTime = ctx.time;
  orderEvent(ctx, o, 'NEW', null, 'TRIGGER');
}
