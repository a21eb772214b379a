/**
 * Spec 4.7 user data stream listen keys (USER_STREAM: key header only). POST creates a key, or
 * returns the account's active key extended (notes 4.1); PUT extends it by 60 minutes of sandbox
 * time; DELETE closes it. Unknown, expired or closed keys, or another account's key: -1125. More
 * new keys in an hour than the sandbox allows: -1026 (listen-keys.ts).
 */
import { venueErrors } from '../http/error-codes.ts';
import { defineHandlers, type HandlerContext } from '../http/route-types.ts';

function ownKey(ctx: HandlerContext): string {
  const listenKey = String(ctx.params['listenKey']);
  const owner = ctx.sandbox.listenKeys.accountOf(listenKey, ctx.now);
  if (owner === undefined || owner !== ctx.account?.id) throw venueErrors.listenKeyExpired();
  return listenKey;
}

export const userStreamHandlers = defineHandlers({
  'userStream.startUserDataStream': (ctx) => {
    if (!ctx.account) throw venueErrors.unknown();
    const listenKey = ctx.sandbox.listenKeys.create(ctx.account.id, ctx.now);
    if (listenKey === null) throw venueErrors.listenKeyCreateLimit(ctx.sandbox.listenKeys.createsPerHour);
    return { listenKey };
  },
  'userStream.keepaliveUserDataStream': (ctx) => {
    if (!ctx.sandbox.listenKeys.keepalive(ownKey(ctx), ctx.now)) throw venueErrors.listenKeyExpired();
    return {};
  },
  'userStream.closeUserDataStream': (ctx) => {
    ctx.sandbox.listenKeys.close(ownKey(ctx));
    return {};
  },
});
