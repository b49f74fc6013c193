import type { Kysely } from 'kysely';
import type { Database, DeskRow } from '../store/schema.ts';
import type { Actor, DeskContext, Deps } from './ports.ts';
import { todayIn } from './dates.ts';
import { cutAt, echoed, isBlank, seenText } from './text.ts';
import { badRequest } from './errors.ts';
import { OWNER } from './vocab.ts';

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

/** The most of a write's `actor` that is kept: it names who did it, not what they said. */
export const ACTOR_MAX_CHARS = 200;

/** Names the record keeps for the owner and the desk itself: nobody else may write in them. */
const RESERVED_ACTORS = [OWNER, 'desk'];

/**
 * Who a write says did it: its `actor` trimmed and cut at 200 characters, or the caller's own
 * name. A key may not say the owner or the desk did it: the record's "owner approved" is what
 * tells a person's sign-off from a program's (P-writes-16).
 */
export function actorOf(ctx: DeskContext, given: string | undefined): string {
  const actor = cutAt(given ?? '', ACTOR_MAX_CHARS);
  const own = actorName(ctx.actor);
  const read = asRead(actor);
  if (RESERVED_ACTORS.includes(read) && read !== asRead(own))
    throw badRequest(
      `actor may not be "${echoed(actor)}": "owner" and "desk" name the desk's owner and the desk itself. Name who did it another way, or leave actor out.`,
      { field: 'actor' },
    );
  // An actor made only of what is not seen names nobody: as one left out, it is the caller.
  return isBlank(actor) ? own : actor;
}

// Letters of other scripts, and small capitals, drawn as the letters of the reserved names, in
// either case (escaped, since on the page they cannot be told from the letters they pass for).
const LOOKALIKES: ReadonlyArray<readonly [string, string]> = [
  ['\u041E\u043E\u039F\u03BF\u0555\u0585\u2C9E\u2C9F\u1D0F', 'o'], // Cyrillic, Greek, Armenian, Coptic, small capital
  ['\u051C\u051D\u0461\u1D21\u13B3', 'w'], // Cyrillic, small capital, Cherokee
  ['\u039D\u0578\u057C\u0274\u2C9A\u2C9B', 'n'], // Greek, Armenian, small capital, Coptic
  ['\u0415\u0435\u0395\u04BD\u1D07\u13AC\u2C88\u2C89', 'e'], // Cyrillic, Greek, small capital, Cherokee, Coptic
  ['\u0433\u1D26\u0280\u13A1\u13D2', 'r'], // Cyrillic, small capitals, Cherokee
  ['\u0501\u1D05\u13A0', 'd'], // Cyrillic, small capital, Cherokee
  ['\u0405\u0455\uA731\u13DA\u13D5', 's'], // Cyrillic, small capital, Cherokee
  ['\u041A\u043A\u039A\u03BA\u1D0B\u13E6\u2C94\u2C95', 'k'], // Cyrillic, Greek, small capital, Cherokee, Coptic
];
// Each in both cases: a capital's small letter (Cherokee's) is drawn as a small capital is.
const AS_LETTER = new Map(
  LOOKALIKES.flatMap(([drawn, letter]) =>
    Array.from(drawn).flatMap((c) => [c, c.toLowerCase(), c.toUpperCase()].map((v) => [v, letter] as const)),
  ),
);

/**
 * A name as a person reads it: unseen characters out, compatibility forms as their letters, and
 * lookalikes (in either case, so after lower-casing) as the letters they pass for.
 */
function asRead(name: string): string {
  return Array.from(seenText(name.normalize('NFKC')).trim().toLowerCase(), (c) => AS_LETTER.get(c) ?? c).join('');
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
