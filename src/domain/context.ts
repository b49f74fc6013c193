import type { Kysely } from 'kysely';
import type { Database, DeskRow } from '../store/schema.ts';
import type { Actor, DeskContext, Deps } from './ports.ts';
import { todayIn } from './dates.ts';

export type { Actor, DeskContext, Deps, Engine } from './ports.ts';

export function deskContext(
  deps: Deps,
  desk: DeskRow,
  actor: Actor,
  db: Kysely<Database> = deps.store.db,
  seen?: string,
): DeskContext {
  // Spelled out rather than spread: built on every request, and a fixed shape is cheaper.
  return {
    store: deps.store,
    clock: deps.clock,
    config: deps.config,
    engine: deps.engine,
    db,
    desk,
    actor,
    today: () => todayIn(desk.timezone, deps.clock.now()),
    now: () => deps.clock.now().toISOString(),
    seen,
  };
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
