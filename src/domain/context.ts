import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { ChatBackend } from './chat/backend.ts';
import type { Mailer } from './ports.ts';
import type { PlaybookRunner } from './playbooks.ts';
import type { Store } from '../store/db.ts';
import type { Database, DeskRow } from '../store/schema.ts';
import type { Clock } from './clock.ts';
import { dateIn } from './dates.ts';

/** Who is acting: a program holding a key, the owner at the screen or CLI, or the desk's own jobs. */
export type Actor =
  | { type: 'key'; keyId: number; keyPrefix: string; keyName: string }
  | { type: 'owner'; name: string }
  | { type: 'system'; name: string };

/** The desk's own machinery, swappable in tests only where the real thing cannot exist. */
export interface Engine {
  mailer: Mailer;
  runner: PlaybookRunner;
  /** Answers POST /chat: the built-in answerer, or a language model when DESK_LLM_URL is set. */
  chat: ChatBackend;
}

/** What every door (HTTP, CLI, scheduler) builds once at start. */
export interface Deps {
  store: Store;
  clock: Clock;
  config: Readonly<Config>;
  engine: Engine;
}

/** Passed explicitly to every domain verb: the desk, the actor, the clock and the database handle. */
export interface DeskContext extends Deps {
  db: Kysely<Database>;
  desk: DeskRow;
  actor: Actor;
  /** The desk's own calendar date (D9). */
  today(): string;
  /** The current instant as an ISO 8601 UTC string. */
  now(): string;
}

export function deskContext(deps: Deps, desk: DeskRow, actor: Actor, db: Kysely<Database> = deps.store.db): DeskContext {
  return {
    ...deps,
    db,
    desk,
    actor,
    today: () => dateIn(desk.timezone, deps.clock.now()),
    now: () => deps.clock.now().toISOString(),
  };
}

/** The same context bound to a transaction. */
export function withDb(ctx: DeskContext, db: Kysely<Database>): DeskContext {
  return { ...ctx, db };
}

/** The name recorded as who did a thing. */
export function actorName(actor: Actor): string {
  switch (actor.type) {
    case 'key':
      return 'api';
    case 'owner':
      return actor.name;
    case 'system':
      return actor.name;
  }
}
