/** Every schema migration, in order. Append only: a released migration is never edited. */
import { migration001 } from './001-init.ts';
import { migration002 } from './002-kline-blocks.ts';
import { migration003 } from './003-fills-key-side.ts';
import { migration004 } from './004-kline-checked.ts';
import { migration005 } from './005-live-runs.ts';
import { migration006 } from './006-cancel-attempts.ts';
import { migration007 } from './007-treasury-moves.ts';
import { migration008 } from './008-merchant-callbacks.ts';
import type { Migration } from './types.ts';

export type { Migration } from './types.ts';

export const MIGRATIONS: readonly Migration[] = [migration001, migration002, migration003, migration004, migration005, migration006, migration007, migration008];

/** The schema version this Halyard writes. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;
