import type { Insertable, Kysely } from 'kysely';
import { prepared } from '../prepared.ts';
import type { Database } from '../schema.ts';

export interface StoredAnswer {
  state: string;
  http_status: number | null;
  body: string | null;
  created_at: string;
}

/**
 * Takes the key for this call. False when another call holds it or has answered under it. No
 * error is raised for a taken key, so a claim inside a transaction leaves it usable (a failed
 * statement aborts a PostgreSQL transaction); a claim another open transaction holds waits for it.
 * With `answer`, the key is taken together with the answer given under it, in one statement: for
 * a call whose work and answer commit in one transaction.
 */
export async function claimKey(
  db: Kysely<Database>,
  deskId: string,
  key: string,
  now: string,
  expiresAt: string,
  answer?: { status: number; body: string },
): Promise<boolean> {
  const taken = await takeKey.run(db, {
    desk_id: deskId,
    key,
    state: answer ? 'done' : 'pending',
    http_status: answer?.status ?? null,
    body: answer?.body ?? null,
    created_at: now,
    expires_at: expiresAt,
  });
  return taken > 0;
}

const takeKey = prepared((db, row: Insertable<Database['idempotency']>) =>
  db
    .insertInto('idempotency')
    .values(row)
    .onConflict((oc) => oc.columns(['desk_id', 'key']).doNothing()),
);

export async function readKey(db: Kysely<Database>, deskId: string, key: string): Promise<StoredAnswer | undefined> {
  return keyAnswer.first(db, { deskId, key });
}

const keyAnswer = prepared((db, v: { deskId: string; key: string }) =>
  db
    .selectFrom('idempotency')
    .select(['state', 'http_status', 'body', 'created_at'])
    .where('desk_id', '=', v.deskId)
    .where('key', '=', v.key),
);

/** Keeps the answer's status and the exact bytes that were sent, for replays. */
export async function storeAnswer(
  db: Kysely<Database>,
  deskId: string,
  key: string,
  status: number,
  bytes: string,
): Promise<void> {
  await keepAnswer.run(db, { deskId, key, status, bytes });
}

const keepAnswer = prepared((db, v: { deskId: string; key: string; status: number; bytes: string }) =>
  db
    .updateTable('idempotency')
    .set({ state: 'done', http_status: v.status, body: v.bytes })
    .where('desk_id', '=', v.deskId)
    .where('key', '=', v.key),
);

export async function releaseKey(db: Kysely<Database>, deskId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency')
    .where('desk_id', '=', deskId)
    .where('key', '=', key)
    .where('state', '=', 'pending')
    .execute();
}

/** Removes a record that has expired, or a claim abandoned by a process that died holding it. */
export async function dropStale(
  db: Kysely<Database>,
  deskId: string,
  key: string,
  now: string,
  abandonedBefore: string,
): Promise<void> {
  await db
    .deleteFrom('idempotency')
    .where('desk_id', '=', deskId)
    .where('key', '=', key)
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', now),
        eb.and([eb('state', '=', 'pending'), eb('created_at', '<', abandonedBefore)]),
      ]),
    )
    .execute();
}

/** How many expired records one statement of the purge removes. */
export const PURGE_BATCH = 1_000;

/**
 * Removes up to `most` records that expired at or before `now`, oldest first; returns how many.
 * A day of busy writes leaves hundreds of thousands, and on SQLite one statement over all of them
 * holds every request until it ends: the purge goes a batch at a time (app/idempotency/purge.ts).
 */
export async function purgeExpired(db: Kysely<Database>, now: string, most = PURGE_BATCH): Promise<number> {
  const r = await db
    .deleteFrom('idempotency')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('desk_id', 'key'),
        'in',
        selectFrom('idempotency')
          .select(['desk_id', 'key'])
          .where('expires_at', '<=', now)
          .orderBy('expires_at')
          .limit(most)
          .$asTuple('desk_id', 'key'),
      ),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
