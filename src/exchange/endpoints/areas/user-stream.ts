/**
 * Spec 4.7 User data stream: listen keys (start, keepalive, close). Security USER_STREAM: the API
 * key header only, no signature. Notes 4.1: a key lives 60 minutes; keep it alive about every 30.
 *
 * PUT and DELETE also accept a form body; the query string is used because it is the simplest
 * encoding every method accepts.
 */
import { z } from 'zod';
import { obj, zEmpty } from '../../codecs/common.ts';
import { p } from '../../params/dsl.ts';
import { defineEndpoint } from '../types.ts';

const exampleKey = 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1';

export const startUserDataStream = defineEndpoint({
  id: 'userStream.startUserDataStream',
  area: 'userStream',
  name: 'startUserDataStream',
  summary: 'Create a listen key (valid 60 minutes)',
  spec: '4.7',
  method: 'POST',
  path: '/openapi/v1/userDataStream',
  security: 'USER_STREAM',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  idempotent: false,
  params: {},
  response: obj({ listenKey: z.string().min(1) }),
  example: { params: {}, response: { listenKey: exampleKey } },
});

export const keepaliveUserDataStream = defineEndpoint({
  id: 'userStream.keepaliveUserDataStream',
  area: 'userStream',
  name: 'keepaliveUserDataStream',
  summary: 'Extend a listen key by 60 minutes',
  spec: '4.7',
  method: 'PUT',
  path: '/openapi/v1/userDataStream',
  security: 'USER_STREAM',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  // A repeated keepalive only restarts the same 60-minute timer.
  idempotent: true,
  params: { listenKey: p.string().req() },
  response: zEmpty,
  example: { params: { listenKey: exampleKey }, response: {} },
});

export const closeUserDataStream = defineEndpoint({
  id: 'userStream.closeUserDataStream',
  area: 'userStream',
  name: 'closeUserDataStream',
  summary: 'Close a listen key',
  spec: '4.7',
  method: 'DELETE',
  path: '/openapi/v1/userDataStream',
  security: 'USER_STREAM',
  weight: 1,
  envelope: 'bare',
  encoding: 'query',
  // Not resent blindly: a second close of a closed key fails with -1125 and would read as a failure.
  idempotent: false,
  params: { listenKey: p.string().req() },
  response: zEmpty,
  example: { params: { listenKey: exampleKey }, response: {} },
});

export const userStreamEndpoints = { startUserDataStream, keepaliveUserDataStream, closeUserDataStream } as const;
